// Credentials as tool output and call lines hold them, for the masking tests
// of recall (kit, unit and real-session alike): made up, deterministic, and
// shaped as the engine's redact finds them (Claude Code 2.1.332, seen live: a
// PEM private key block from BEGIN to END, `Authorization: Bearer` and its
// token, a bare JWT, a URL's `user:password@`, `export X_TOKEN=`, a JSON
// `"password"` or `"private_key"` value, each became `[REDACTED]`). Not a
// test file: `claude plugin test` runs every *.test.ts it finds.

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** `length` base64 characters from `seed`, the same each run. */
export function base64Of(length: number, seed: number): string {
  let x = seed >>> 0
  let text = ''
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0
    text += BASE64[(x >>> 16) % 64]
  }
  return text
}

/** A PEM private key block of `lines` body lines of 64 characters. */
export function pemKeyOf(lines: number, seed: number): string {
  const body = Array.from({ length: lines }, (_, i) => base64Of(64, seed * 1000 + i))
  return ['-----BEGIN RSA PRIVATE KEY-----', ...body, '-----END RSA PRIVATE KEY-----'].join('\n')
}

/** The body lines of a PEM block (what must never come back). */
export function pemBodyLinesOf(pem: string): string[] {
  return pem.split('\n').filter((line) => !line.startsWith('-----'))
}

/** A JWT of about `length` characters (header, payload and signature). */
export function jwtOf(length: number, seed: number): string {
  const part = (n: number, s: number) => base64Of(n, s).replace(/[+/]/g, 'x')
  const third = Math.floor((length - 5) / 3)
  return `eyJ${part(third, seed)}.${part(third, seed + 1)}.${part(third, seed + 2)}`
}

/** Whether `text` holds any `sliceChars`-long piece of `secret`: what a cut
 * credential leaves shows as such a piece. */
export function holdsPieceOf(text: string, secret: string, sliceChars = 12): boolean {
  for (let i = 0; i + sliceChars <= secret.length; i += Math.max(1, Math.floor(sliceChars / 2))) {
    if (text.includes(secret.slice(i, i + sliceChars))) return true
  }
  return false
}

/** A URL password. */
export const URL_PASSWORD = 'S3cretPassw0rdXYZ'

/** A command that puts URL_PASSWORD at `at` of its call's line (`Bash: ` and
 * the command): at 186, the `@` after it lies past the line's 200 characters. */
export function commandWithUrlPasswordAt(at: number): string {
  const head = 'Bash: '
  const before = 'curl -sS --retry 3 --connect-timeout 1 -o /dev/null https://deploy:'
  const pad = Math.max(0, at - head.length - before.length)
  const fill = `${'true && '.repeat(Math.floor(pad / 8))}${' '.repeat(pad % 8)}`
  return `${fill}${before}${URL_PASSWORD}@127.0.0.1:9/artifacts/build.tar.gz || true`
}
