// The digest of a conversation too long for one request (digest.ts), its
// leading sections read from this mod's records and every text it shows
// masked by the engine's redact first: a command or an output can hold a token.
import type { EngineInterface } from 'claude-code'
import { digestBudgetCharsOf, digestPlanOf, digestTextOf, maskableTextsOf, type Digest, type DigestMessage } from './digest.js'
import { turnPositionOf } from './engine-compaction.js'
import { latestStepSectionNow } from './latest-step-steps.js'
import { maskedText } from '../text/mask-steps.js'
import { stubContextNow } from '../stub/stub-steps.js'
import { stubContextLinesOf, type StubContext } from '../stub/swap-text.js'
import { recallLineOf } from '../recall/recall.js'
import { readWords } from '../words/words-state.js'
import { userWordsSectionOf } from '../words/user-words.js'
import { readWork } from '../facts/facts-state.js'
import { factsSectionOf, shownFactsOf } from '../facts/facts.js'

type $ = EngineInterface

/** How many texts are with the engine's redact at once: a digest holds
 * hundreds, and each is a call through every plugin's hooks. */
const MASKING_AT_ONCE = 8

/** Each of `texts` masked, in order, at most MASKING_AT_ONCE at a time. */
async function maskedTexts($: $, texts: readonly string[]): Promise<string[]> {
  const masked: string[] = new Array<string>(texts.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < texts.length) {
      const i = next++
      masked[i] = await maskedText($, texts[i]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(MASKING_AT_ONCE, texts.length) }, worker))
  return masked
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
  const { transcriptPath, ...carried } = context
  const carriedSection = stubContextLinesOf(carried).join('\n').trim()
  const leading = [words, facts, latestStep, carriedSection === '' ? undefined : carriedSection].filter((section): section is string => section !== undefined)
  return { leading, ...(transcriptPath !== undefined && transcriptPath !== '' ? { recallLine: recallLineOf(transcriptPath) } : {}) }
}

/** The digest of `messages` for a window of `windowTokens` tokens, every shown text masked by the engine's rules. */
export async function maskedDigestNow($: $, messages: readonly DigestMessage[], windowTokens: number): Promise<Digest> {
  const input = await leadingNow($, messages)
  const plan = digestPlanOf({ messages, ...input }, digestBudgetCharsOf(windowTokens))
  return digestTextOf(plan, await maskedTexts($, maskableTextsOf(plan)))
}
