// The digest of a conversation too long for one request (digest.ts), its
// leading sections read from this mod's records, and the turn's latest step
// (latest-step.ts): every text either shows masked by the engine's redact
// first, since a command or an output can hold a token.
import type { EngineInterface } from 'claude-code'
import { digestBudgetCharsOf, digestPlanOf, digestTextOf, type Digest, type DigestMessage } from './digest.js'
import { turnPositionOf } from './engine-compaction.js'
import { latestStepOf, latestStepSectionOf, type LatestCall } from './latest-step.js'
import { maskedText, maskedTexts } from '../text/mask-steps.js'
import { stubContextNow } from '../stub/stub-steps.js'
import { carriedSectionsOf, type StubContext } from '../stub/swap-text.js'
import { recallLineOf } from '../recall/recall.js'
import { readWords } from '../words/words-state.js'
import { NO_WORDS, userWordsSectionOf, type UserWords } from '../words/user-words.js'
import { readWork } from '../facts/facts-state.js'
import { NO_WORK, type WorkRecord } from '../facts/work.js'
import { factsSectionOf, shownFactsOf } from '../facts/facts.js'

type $ = EngineInterface

/** The stub's section for the latest step of `messages`, masked, or undefined
 * when that step called no tool. */
async function latestStepSectionNow($: $, messages: Parameters<typeof latestStepOf>[0]): Promise<string | undefined> {
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

/** What a stub or a digest shows beyond the conversation, read now (the
 * latest step only mid-turn): each read on its own, a failed one costing its
 * section, never the answer. */
export async function recordsNow($: $, messages: readonly DigestMessage[], isMidTurn: boolean): Promise<{ words: UserWords; work: WorkRecord; context: StubContext; latestStep: string | undefined }> {
  const [words, work, context, latestStep] = await Promise.all([
    readWords($).catch(() => NO_WORDS),
    readWork($).catch(() => NO_WORK),
    stubContextNow($).catch((): StubContext => ({})),
    isMidTurn ? latestStepSectionNow($, messages).catch(() => undefined) : undefined,
  ])
  return { words, work, context, latestStep }
}

/** The digest of `messages` for a window of `windowTokens` tokens, every
 * shown text masked by the engine's rules: the sections code composed first,
 * in the digest's order, and the recall line. */
export async function maskedDigestNow($: $, messages: readonly DigestMessage[], windowTokens: number): Promise<Digest> {
  const [{ words, work, context, latestStep }, cwd] = await Promise.all([recordsNow($, messages, turnPositionOf(messages, 'auto').kind === 'mid-turn'), $.session.cwd().catch(() => undefined)])
  const facts = cwd === undefined ? undefined : factsSectionOf(shownFactsOf(work.facts, cwd, []))
  // Each carried section on its own, in the stub's order, so one too long for the digest costs only itself.
  const { running, worktree, tools, plan, skills } = carriedSectionsOf(context)
  const leading = [userWordsSectionOf(words), facts, latestStep, running, worktree, tools, plan, skills].filter((section): section is string => section !== undefined)
  const { transcriptPath } = context
  const recall = transcriptPath !== undefined && transcriptPath !== '' ? { recallLine: recallLineOf(transcriptPath) } : {}
  const digestPlan = digestPlanOf({ messages, leading, ...recall }, digestBudgetCharsOf(windowTokens))
  return digestTextOf(digestPlan, await maskedTexts($, digestPlan.windows))
}
