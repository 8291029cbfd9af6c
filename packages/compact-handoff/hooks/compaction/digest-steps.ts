// The digest of a conversation too long for one request (digest.ts), its
// leading sections read from this mod's records, and the turn's latest step
// (latest-step.ts): every text either shows masked by the engine's redact
// first, since a command or an output can hold a token.
import type { EngineInterface } from 'claude-code'
import { MASK_SEPARATOR, digestBudgetCharsOf, digestPlanOf, digestTextOf, maskBatchesOf, maskedPiecesOf, type Digest, type DigestMessage } from './digest.js'
import { turnPositionOf } from './engine-compaction.js'
import { latestStepOf, latestStepSectionOf, type LatestCall } from './latest-step.js'
import { UNMASKED_TEXT, maskedText } from '../text/mask-steps.js'
import { stubContextNow } from '../stub/stub-steps.js'
import type { StubContext } from '../stub/swap-text.js'
import { runningSectionOf } from '../background/running.js'
import { worktreeSectionOf } from '../carried/worktree.js'
import { loadedToolsSectionOf } from '../carried/loaded-tools.js'
import { planSectionOf } from '../carried/plan.js'
import { skillsSectionOf } from '../carried/skills.js'
import { recallLineOf } from '../recall/recall.js'
import { readWords } from '../words/words-state.js'
import { userWordsSectionOf } from '../words/user-words.js'
import { readWork } from '../facts/facts-state.js'
import { factsSectionOf, shownFactsOf } from '../facts/facts.js'

type $ = EngineInterface

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
 * flight (digest.ts MASK_SEPARATOR). */
async function maskedTexts($: $, texts: readonly string[]): Promise<string[]> {
  const masked: string[] = []
  for (const batch of maskBatchesOf(texts)) masked.push(...(await maskedBatch($, batch.map((i) => texts[i]!))))
  return masked
}

/** The stub's section for the latest step of `messages`, masked, or undefined
 * when that step called no tool. */
export async function latestStepSectionNow($: $, messages: Parameters<typeof latestStepOf>[0]): Promise<string | undefined> {
  const step = latestStepOf(messages)
  if (step === undefined) return undefined
  const calls = await Promise.all(
    step.calls.map(async (call): Promise<LatestCall> => {
      const [masked, resultEnd] = await Promise.all([maskedText($, call.call), call.resultEnd === '' ? '' : maskedText($, call.resultEnd)])
      return { ...call, call: masked, resultEnd }
    }),
  )
  return latestStepSectionOf({ ...step, calls })
}

/** The sections code composed, in the digest's order, and the recall line;
 * each read on its own, a failed one costing its section, never the digest. */
async function leadingNow($: $, messages: readonly DigestMessage[]): Promise<{ leading: string[]; recallLine?: string }> {
  const isMidTurn = turnPositionOf(messages, 'auto').kind === 'mid-turn'
  const [words, facts, latestStep, context] = await Promise.all([
    readWords($)
      .then(userWordsSectionOf)
      .catch(() => undefined),
    Promise.all([readWork($), $.session.cwd()])
      .then(([work, cwd]) => factsSectionOf(shownFactsOf(work.facts, cwd, [])))
      .catch(() => undefined),
    isMidTurn ? latestStepSectionNow($, messages).catch(() => undefined) : undefined,
    stubContextNow($).catch((): StubContext => ({})),
  ])
  // Each carried section on its own, in the stub's order (swap-text.ts stubContextLinesOf), so one too long for the digest costs only itself.
  const carried = [
    context.running === undefined ? undefined : runningSectionOf(context.running),
    worktreeSectionOf(context.worktree),
    context.loadedTools === undefined ? undefined : loadedToolsSectionOf(context.loadedTools),
    planSectionOf(context.plan),
    context.skills === undefined ? undefined : skillsSectionOf(context.skills),
  ]
  const leading = [words, facts, latestStep, ...carried].filter((section): section is string => section !== undefined)
  const { transcriptPath } = context
  return { leading, ...(transcriptPath !== undefined && transcriptPath !== '' ? { recallLine: recallLineOf(transcriptPath) } : {}) }
}

/** The digest of `messages` for a window of `windowTokens` tokens, every shown text masked by the engine's rules. */
export async function maskedDigestNow($: $, messages: readonly DigestMessage[], windowTokens: number): Promise<Digest> {
  const input = await leadingNow($, messages)
  const plan = digestPlanOf({ messages, ...input }, digestBudgetCharsOf(windowTokens))
  return digestTextOf(plan, await maskedTexts($, plan.windows))
}
