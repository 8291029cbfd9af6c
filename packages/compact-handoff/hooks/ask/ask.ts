// Option askAfterCompaction: after a compaction that was not a compact-handoff
// swap (the person's /compact, the engine's automatic one), the first
// main-loop tool call asks the person whether Claude may carry on from what
// replaced the conversation. Which compactions arm it, what is asked and what
// each answer does; pure and free of 'claude-code' so vitest can load it under
// Node. ask-steps.ts applies it.
import { clippedOf } from '../text/text-clip.js'

/** The compactions that arm the question: something new replaced the main
 * loop's conversation. */
export type ArmingTrigger = 'manual' | 'auto'

/** What the question needs to know of a compaction and its result. */
export type CompactionSeen = { trigger?: string; agentId?: string; skip?: string }

/**
 * The trigger to arm the question with, or undefined to leave it alone.
 * A subagent's or fork's compaction is its own loop's; a precompute installs
 * nothing; a skipped one left the conversation as it was; a plugin's (marked
 * or not) is that plugin's to follow up. compact-handoff's own swap never
 * reaches its hooks (a mod never hears the compaction its own timer starts),
 * so it is not among them: the swap takes the question back instead.
 */
export function armingTriggerOf(seen: CompactionSeen): ArmingTrigger | undefined {
  if (seen.agentId !== undefined || seen.skip !== undefined) return undefined
  return seen.trigger === 'manual' || seen.trigger === 'auto' ? seen.trigger : undefined
}

export const CONTINUE = 'continue'
export const STOP = 'stop and wait'

/** The chip beside the question (at most 12 characters). */
export const ASK_HEADER = 'Compacted'

export function questionOf(trigger: ArmingTrigger): string {
  // A summary or, under option compactionHandoff, a fork's handoff: the question holds for both.
  const what = trigger === 'manual' ? 'Your /compact replaced the conversation' : 'Claude Code compacted the conversation automatically'
  return `${what}, and Claude is about to run its first tool since. May it carry on from what replaced it?`
}

/** What the tool call waiting on the question does. */
export type AskVerdict = { kind: 'run' } | { kind: 'deny'; text: string }

export const RUN: AskVerdict = { kind: 'run' }

/** A typed answer is quoted back to the model up to this many characters. */
const MAX_QUOTED_CHARS = 2_000

const WAIT =
  'Do not run this or any other tool now. Stop here: say in a line or two where things stand according to the summary, then wait for their next message.'

/**
 * The verdict for the person's answer: `undefined` when they dismissed the
 * question. Only the "continue" label lets the call run; "stop and wait", a
 * dismissed question and anything typed under "Other" refuse it, the typed
 * text quoted so the model reads it.
 */
export function askVerdictOf(answer: string | undefined): AskVerdict {
  if (answer === CONTINUE) return RUN
  const why =
    answer === undefined
      ? 'The person dismissed the question'
      : answer === STOP
        ? `The person chose "${STOP}"`
        : `The person answered in their own words: "${clippedOf(answer, MAX_QUOTED_CHARS)}"`
  return {
    kind: 'deny',
    text: `compact-handoff: the conversation was just compacted into a summary, and the person was asked whether you may carry on from it. ${why}. ${WAIT}`,
  }
}
