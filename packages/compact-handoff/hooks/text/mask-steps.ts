// Masks what is recorded as a fact (commands, paths, reasons) with the
// engine's own rules, before it is kept in `$.state`, put in a stub or the
// summariser's instructions, or written to the swap log, which sits in the
// project folder beside handoffs that people commit.
import type { EngineInterface } from 'claude-code'
import { MASK_SEPARATOR, maskBatchesOf, maskPlanOf, maskedPiecesOf } from './mask-pieces.js'
import { redactableOf } from './text-clip.js'

type $ = EngineInterface

/** Kept in place of a text the engine could not mask: a credential is never kept on a guess. */
export const UNMASKED_TEXT = '[not recorded: it could not be masked]'

/** `text` with the credentials the engine finds in it masked (`[REDACTED]`),
 * whole: mask before clipping, since a clip can cut a token short of the
 * pattern that finds it. */
export async function maskedText($: $, text: string): Promise<string> {
  try {
    return await $.session.redact(redactableOf(text))
  } catch {
    return UNMASKED_TEXT
  }
}

/** `text` of any length masked as the engine masks it whole, or undefined when
 * it could not be (the engine refused, or no seam free of credentials was
 * found to cut a text over MAX_REDACT_CHARS at: mask-pieces.ts). Mask with
 * this, then cut: a window or a line cut from the masked text never shows
 * part of a credential the whole text's masking hides. */
export async function maskedWhole($: $, text: string): Promise<string | undefined> {
  try {
    const plan = maskPlanOf(text)
    let step = plan.next()
    while (step.done !== true) step = plan.next(await $.session.redact(step.value))
    return step.value
  } catch {
    return undefined
  }
}

/** One batch masked in one call; where the masking reached across a
 * separator (the pieces no longer match the texts) or the call failed, each
 * text is masked on its own. */
async function maskedBatch($: $, texts: readonly string[]): Promise<string[]> {
  if (texts.length === 1) return [await maskedText($, texts[0]!)]
  const joined = await maskedText($, texts.join(MASK_SEPARATOR))
  const pieces = joined === UNMASKED_TEXT ? undefined : maskedPiecesOf(joined, texts.length)
  return pieces ?? Promise.all(texts.map((text) => maskedText($, text)))
}

/** Each of `texts` masked, in order, in as few redact calls as fit, one
 * after another: the engine runs the hops one at a time however many are in
 * flight (mask-pieces.ts MASK_SEPARATOR). */
export async function maskedTexts($: $, texts: readonly string[]): Promise<string[]> {
  const masked: string[] = []
  for (const batch of maskBatchesOf(texts)) masked.push(...(await maskedBatch($, batch.map((i) => texts[i]!))))
  return masked
}
