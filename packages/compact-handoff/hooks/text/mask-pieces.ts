// How a text longer than `$.session.redact` takes (MAX_REDACT_CHARS) is masked
// as the engine masks it whole: in pieces cut at seams no credential crosses.
// The engine's patterns are its own (a PEM block from BEGIN to END, a bearer
// token after its header, a password before the `@` of a URL, seen live in
// 2.1.332), and each needs the credential whole: a piece that holds half of
// one leaves that half as it was. So a seam is only taken where the engine's
// masking of the MASK_SEAM_REACH_CHARS on either side of it changes nothing:
// then no credential of that length or less lies across it, and masking the
// pieces one by one gives what masking the whole would. Where no such seam is
// found, the text is not masked at all (fail closed).
//
// A plan, not a loop over `$`: `maskPlanOf` yields each text it needs masked
// and takes back the engine's answer, so the same cutting runs under the
// engine's redact (mask-steps.ts `maskedWhole`) and under a plain function
// (tests/support/recall-answer.ts `maskedWholeWith`). Linear: each
// piece's seam is looked for in at most MAX_REDACT_CHARS of text, a few times.
import { MAX_REDACT_CHARS, isLowSurrogate } from './text-clip.js'

/** The longest credential a seam is checked against, on each side: a PEM
 * private key of 4096 bits is about 3,300 characters, a key block with a
 * certificate chain or a JWT bearer token a few thousand more. */
export const MASK_SEAM_REACH_CHARS = 16_384

/** A piece is at least this long (a seam is looked for no nearer its start),
 * so a text of n characters is cut into at most n / MIN_PIECE_CHARS pieces. */
const MIN_PIECE_CHARS = 2 * MASK_SEAM_REACH_CHARS

/** A plan that yields each text to mask, takes the masked text back, and ends
 * with the whole text masked, or undefined when no clean seam was found. */
export type MaskPlan = Generator<string, string | undefined, string>

/** Seams tried for one piece before the text is given up as unmaskable: the
 * engine's redact runs once for each, over 2 × MASK_SEAM_REACH_CHARS. */
export const MAX_SEAM_TRIES = 8

/** The seam to try for the piece that starts at `from`, at `limit` or before:
 * the last line start in the room between MIN_PIECE_CHARS after `from` and
 * `limit` (a credential rarely spans lines, a PEM block aside), or `limit`
 * itself inside a line longer than the room, never between the halves of a
 * character; undefined when the room is empty. */
export function seamBefore(text: string, from: number, limit: number): number | undefined {
  const lowest = from + MIN_PIECE_CHARS
  if (limit <= lowest) return undefined
  // Looked for in the room alone: a search from `limit` back over one long line would not be linear.
  const newline = text.slice(lowest, limit).lastIndexOf('\n')
  const seam = newline >= 0 ? lowest + newline + 1 : limit
  return isLowSurrogate(text.charCodeAt(seam)) ? seam - 1 : seam
}

/** The text around `seam` whose masking tells whether a credential lies across it. */
export function seamSurroundingsOf(text: string, seam: number): string {
  return text.slice(Math.max(0, seam - MASK_SEAM_REACH_CHARS), seam + MASK_SEAM_REACH_CHARS)
}

/** Where the next seam may lie when masking changed the surroundings of
 * `seam` (`around`, given back as `masked`): far enough before the first
 * change that the next surroundings end before it, so each try leaves a
 * credential behind. */
export function nextSeamLimitOf(seam: number, around: string, masked: string): number {
  let same = 0
  const most = Math.min(around.length, masked.length)
  while (same < most && around.charCodeAt(same) === masked.charCodeAt(same)) same++
  const aroundStart = Math.max(0, seam - MASK_SEAM_REACH_CHARS)
  return Math.min(seam - 1, aroundStart + same - MASK_SEAM_REACH_CHARS)
}

/** Masks `text` as the engine masks it whole: yields the texts to mask (each
 * at most MAX_REDACT_CHARS), returns their masked pieces joined. */
export function* maskPlanOf(text: string): MaskPlan {
  const masked: string[] = []
  let from = 0
  while (text.length - from > MAX_REDACT_CHARS) {
    let found: number | undefined
    let limit = from + MAX_REDACT_CHARS
    for (let tries = 0; found === undefined && tries < MAX_SEAM_TRIES; tries++) {
      const seam = seamBefore(text, from, limit)
      if (seam === undefined) break
      const around = seamSurroundingsOf(text, seam)
      const answer = yield around
      if (answer === around) found = seam
      else limit = nextSeamLimitOf(seam, around, answer)
    }
    if (found === undefined) return undefined
    masked.push(yield text.slice(from, found))
    from = found
  }
  masked.push(yield text.slice(from))
  return masked.join('')
}

/** Between two texts masked in one redact call: on a line of its own, so no
 * pattern that stops at white space reaches across it, and in words no
 * credential pattern takes. A digest shows hundreds of texts, a turn's records
 * a few, and each redact call is a hop through every plugin's hooks, one after
 * another however many are in flight (1,604 calls took 5 s under the kit on a
 * loaded machine). */
export const MASK_SEPARATOR = '\n\u241e compact-handoff: next text \u241e\n'

/** `texts` (by index) in batches of consecutive texts that fit one redact
 * call joined by MASK_SEPARATOR; a text that holds the separator goes alone. */
export function maskBatchesOf(texts: readonly string[]): number[][] {
  const batches: number[][] = []
  let batch: number[] = []
  let size = 0
  const close = (): void => {
    if (batch.length > 0) batches.push(batch)
    batch = []
    size = 0
  }
  for (const [i, text] of texts.entries()) {
    const isAlone = text.includes(MASK_SEPARATOR)
    if (isAlone || size + MASK_SEPARATOR.length + text.length > MAX_REDACT_CHARS) close()
    size += (batch.length > 0 ? MASK_SEPARATOR.length : 0) + text.length
    batch.push(i)
    if (isAlone) close()
  }
  close()
  return batches
}

/** A batch's masked text split back into its `count` texts, or undefined
 * when the masking reached across a separator (a credential pattern took it):
 * then each text is masked on its own. No text of a batch holds the
 * separator, and the masking never writes one, so a count that matches is
 * each text in its place. */
export function maskedPiecesOf(joined: string, count: number): string[] | undefined {
  const pieces = joined.split(MASK_SEPARATOR)
  return pieces.length === count ? pieces : undefined
}
