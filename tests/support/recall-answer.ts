// The recall tool's answer for a caller outside the engine (the fork-eval, the
// unit tests): the product's own query parser, scan and answer text over a
// transcript held in memory, masked by a plain function standing in for the
// engine's redact and cut by the product's own plan (mask-pieces.ts
// maskPlanOf). The tool itself (recall-steps.ts) runs the same steps over
// range reads of the file, masking with `$.session.redact`.
import { recallQueryOf } from '../../packages/compact-handoff/hooks/recall/recall.js'
import { recallScanOf, scanEnd, scanText } from '../../packages/compact-handoff/hooks/recall/recall-search.js'
import { recallAnswerTextOf, type MaskedHit } from '../../packages/compact-handoff/hooks/recall/recall-answer.js'
import { maskPlanOf } from '../../packages/compact-handoff/hooks/text/mask-pieces.js'

/** `text` masked by `mask` (a plain stand-in for the engine's redact, which
 * takes at most MAX_REDACT_CHARS) as `mask` would mask it whole; undefined
 * when no clean seam was found. */
export function maskedWholeWith(text: string, mask: (piece: string) => string): string | undefined {
  const plan = maskPlanOf(text)
  let step = plan.next()
  while (step.done !== true) step = plan.next(mask(step.value))
  return step.value
}

/** The answer the tool gives for `query` over `transcript` (its text, or its
 * chunks in order); `mask` stands in for the engine's redact. */
export function recallAnswerOf(transcript: string | Iterable<string>, query: string, options: { mask?: (text: string) => string } = {}): string {
  const parsed = recallQueryOf({ query })
  if ('refusal' in parsed) return parsed.refusal
  const scan = recallScanOf(parsed.query)
  for (const chunk of typeof transcript === 'string' ? [transcript] : transcript) scanText(scan, chunk)
  const found = scanEnd(scan)
  const mask = options.mask ?? ((text: string) => text)
  const masked = found.hits.map((hit): MaskedHit => {
    const label = hit.kind === 'result' ? maskedWholeWith(hit.label, mask) : hit.label
    const excerpt = maskedWholeWith(hit.excerpt, mask)
    return label === undefined || excerpt === undefined ? undefined : { label, excerpt }
  })
  return recallAnswerTextOf(found, masked)
}
