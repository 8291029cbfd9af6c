/**
 * A stand-in for the engine's `$.session.redact` in unit tests, with the patterns seen
 * live (Claude Code 2.1.332, each credential became `[REDACTED]`): a PEM private key
 * block from BEGIN to END, `Authorization: Bearer <token>`, a bare JWT, a URL's
 * `user:password@`, `export X_TOKEN=`, `--password=`, `AWS_SECRET_ACCESS_KEY=`, a JSON
 * `"password"` / `"api_key"` / `"private_key"` value. `engineMaskOf` masks a text of any
 * length at once (the oracle: what the engine does with the whole text); `redactStandIn`
 * refuses a text over MAX_REDACT_CHARS, as the engine's redact does.
 */
import { MAX_REDACT_CHARS } from '../../packages/compact-handoff/hooks/text/text-clip.js'

const PATTERNS: readonly [RegExp, string][] = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g, '[REDACTED]'],
  [/(Authorization:\s*)Bearer\s+[A-Za-z0-9._~+/=-]+/gi, '$1[REDACTED]'],
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, '[REDACTED]'],
  // From the `://` on: a scheme matched first backtracks over every long run of letters.
  [/(:\/\/)[^\s:@/]+:[^\s@/]+@/g, '$1[REDACTED]@'],
  [/(export\s+[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|KEY)[A-Z0-9_]*=)[^\s"']+/g, '$1[REDACTED]'],
  [/(--password=)[^\s"']+/g, '$1[REDACTED]'],
  [/(AWS_SECRET_ACCESS_KEY=)[^\s"']+/g, '$1[REDACTED]'],
  [/("(?:password|api_key|private_key)"\s*:\s*")(?:[^"\\]|\\.)*"/gi, '$1[REDACTED]"'],
]

/** `text` masked whole, at once, whatever its length. */
export function engineMaskOf(text: string): string {
  return PATTERNS.reduce((masked, [re, to]) => masked.replace(re, to), text)
}

/** What the engine's redact answers: `text` masked, or a refusal past MAX_REDACT_CHARS. */
export function redactStandIn(text: string): string {
  if (text.length > MAX_REDACT_CHARS) throw new Error(`session.redact: takes a text of at most ${MAX_REDACT_CHARS} characters`)
  return engineMaskOf(text)
}
