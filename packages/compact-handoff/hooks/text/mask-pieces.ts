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
// (`maskedWholeWith`, for tests and callers outside the engine). Linear: each
// piece's seam is looked for in at most MAX_REDACT_CHARS of text, a few times.
import { MAX_REDACT_CHARS } from './text-clip.js'

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

function isLowSurrogate(text: string, i: number): boolean {
  const code = text.charCodeAt(i)
  return code >= 0xdc00 && code <= 0xdfff
}

/** The seams to try, best first, for the piece that starts at `from` of a text
 * longer than one piece: each at most MAX_REDACT_CHARS after `from`, at a line's
 * start where the room has one (a credential rarely spans lines, a PEM block
 * aside) and mid-line only in a line longer than the room, each next one
 * 2 × MASK_SEAM_REACH_CHARS before the last, so a credential found near one
 * does not spoil the next. */
export function seamCandidatesOf(text: string, from: number): number[] {
  const seams: number[] = []
  let limit = Math.min(text.length, from + MAX_REDACT_CHARS)
  const lowest = from + MIN_PIECE_CHARS
  while (limit > lowest) {
    // Looked for in the room alone: a search from `limit` back over one long line would not be linear.
    const newline = text.slice(lowest, limit).lastIndexOf('\n')
    let seam = newline >= 0 ? lowest + newline + 1 : limit
    if (isLowSurrogate(text, seam)) seam--
    seams.push(seam)
    limit = seam - 2 * MASK_SEAM_REACH_CHARS
  }
  return seams
}

/** The text around `seam` whose masking tells whether a credential lies across it. */
export function seamSurroundingsOf(text: string, seam: number): string {
  return text.slice(Math.max(0, seam - MASK_SEAM_REACH_CHARS), seam + MASK_SEAM_REACH_CHARS)
}

/** Masks `text` as the engine masks it whole: yields the texts to mask (each
 * at most MAX_REDACT_CHARS), returns their masked pieces joined. */
export function* maskPlanOf(text: string): MaskPlan {
  const masked: string[] = []
  let from = 0
  while (text.length - from > MAX_REDACT_CHARS) {
    let seam: number | undefined
    for (const candidate of seamCandidatesOf(text, from)) {
      const around = seamSurroundingsOf(text, candidate)
      if ((yield around) === around) {
        seam = candidate
        break
      }
    }
    if (seam === undefined) return undefined
    masked.push(yield text.slice(from, seam))
    from = seam
  }
  masked.push(yield text.slice(from))
  return masked.join('')
}

/** `text` masked by `mask` (a plain stand-in for the engine's redact, which
 * takes at most MAX_REDACT_CHARS) as `mask` would mask it whole; undefined
 * when no clean seam was found. */
export function maskedWholeWith(text: string, mask: (piece: string) => string): string | undefined {
  const plan = maskPlanOf(text)
  let step = plan.next()
  while (step.done !== true) step = plan.next(mask(step.value))
  return step.value
}
