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

/** One earlier command of a masking case: what ran, what it printed, the word
 * a recall looks for, and the credentials that must not come back in part. */
export type MaskingCase = { name: string; word: string; command: string; output: string; secrets: readonly string[] }

const DEPLOY_KEY = pemKeyOf(40, 11)
const JWT = jwtOf(2_400, 21)
const SHORT_TOKEN = 'ghp_heldA1b2C3d4E5f6G7h8I9j0K1l2'
const JSON_PASSWORD = 'hunter2-Very-Secret-77'
const SERVICE_KEY = pemKeyOf(26, 31)
const ENV_KEY = pemKeyOf(20, 41)

/** Where recall cut before it masked (issue 39): each credential's start or
 * end lay outside what went to the masking, so part of it came back. */
export const CUT_CASES: readonly MaskingCase[] = [
  {
    name: "a private key whose END line lies past the window's margin",
    word: 'E_KEYDUMP_41',
    command: 'cat deploy-key.log',
    output: `E_KEYDUMP_41 dumping the deploy key for the release job\n${DEPLOY_KEY}\nkey dumped`,
    secrets: pemBodyLinesOf(DEPLOY_KEY),
  },
  {
    name: "a bearer token in `curl -v` output whose header lies past the window's margin",
    word: 'E_UPSTREAM_42',
    command: 'cat curl-verbose.log',
    output: [
      '*   Trying 127.0.0.1:8443...',
      '* Connected to api.internal (127.0.0.1) port 8443',
      '> GET /v1/deploys HTTP/1.1',
      '> Host: api.internal',
      `> Authorization: Bearer ${JWT}`,
      '> Accept: */*',
      '>',
      '< HTTP/1.1 504 Gateway Timeout',
      '< Content-Length: 0',
      'E_UPSTREAM_42: upstream timed out after 30 s',
    ].join('\n'),
    secrets: [JWT],
  },
  {
    name: 'a URL password in a call line longer than the 200 characters shown',
    word: 'E_FETCH_43',
    command: `${commandWithUrlPasswordAt(186)}; echo E_FETCH_43 artifact fetch failed`,
    output: 'E_FETCH_43 artifact fetch failed',
    secrets: [URL_PASSWORD],
  },
]

/** Where recall's masking already held: each credential lay whole inside what it masked. */
export const HELD_CASES: readonly MaskingCase[] = [
  {
    name: 'a short token',
    word: 'E_HELD_TOKEN',
    command: 'cat gh-login.log',
    output: `export GH_TOKEN=${SHORT_TOKEN}\nE_HELD_TOKEN: logged in to github.com`,
    secrets: [SHORT_TOKEN],
  },
  {
    name: 'a JSON key',
    word: 'E_HELD_JSON',
    command: 'cat db.json',
    output: JSON.stringify({ user: 'deploy', password: JSON_PASSWORD, note: 'E_HELD_JSON' }, null, 2),
    secrets: [JSON_PASSWORD],
  },
  {
    name: 'an escaped service-account key',
    word: 'E_HELD_SA',
    command: 'cat service-account.json',
    output: JSON.stringify({ type: 'service_account', project_id: 'e-held-sa', description: 'E_HELD_SA ci deploy key', private_key: `${SERVICE_KEY}\n`, client_email: 'ci@e-held-sa.iam.example' }, null, 2),
    secrets: pemBodyLinesOf(SERVICE_KEY),
  },
  {
    name: 'a PEM key in a .env file',
    word: 'E_HELD_ENV',
    command: 'cat .env',
    output: `E_HELD_ENV=1\nDB_KEY="${ENV_KEY}"\nOTHER=1`,
    secrets: pemBodyLinesOf(ENV_KEY),
  },
]
