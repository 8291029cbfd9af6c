// Option askAfterCompaction: after a compaction that was not ours (the person's
// /compact, the engine's automatic one), the first main-loop tool call asks the
// person whether Claude may carry on from the summary. What is asked and what
// each answer does; pure and free of 'claude-code' so vitest can load it under
// Node. ask-steps.ts applies it.

/** The compactions that arm the question: a summary replaced the main loop's
 * conversation. */
export type ArmingTrigger = 'manual' | 'auto'

export const CONTINUE = 'continue'
export const STOP = 'stop and wait'

/** The chip beside the question (at most 12 characters). */
export const ASK_HEADER = 'Compacted'

export function questionOf(trigger: ArmingTrigger): string {
  const what = trigger === 'manual' ? 'Your /compact replaced the conversation with a summary' : 'Claude Code compacted the conversation into a summary automatically'
  return `${what}, and Claude is about to run its first tool since. May it carry on from the summary?`
}

/** What the tool call waiting on the question does. */
export type Verdict = { kind: 'run' } | { kind: 'deny'; text: string }

export const RUN: Verdict = { kind: 'run' }

/** A typed answer is quoted back to the model up to this many characters. */
const MAX_QUOTED_CHARS = 2_000

/** `text` cut to MAX_QUOTED_CHARS, never between the two halves of a pair. */
function quotedOf(text: string): string {
  if (text.length <= MAX_QUOTED_CHARS) return text
  let end = MAX_QUOTED_CHARS
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end--
  return `${text.slice(0, end)} […]`
}

const WAIT =
  'Do not run this or any other tool now. Stop here: say in a line or two where things stand according to the summary, then wait for their next message.'

/**
 * The verdict for the person's answer: `undefined` when they dismissed the
 * question. Only the "continue" label lets the call run; "stop and wait", a
 * dismissed question and anything typed under "Other" refuse it, the typed
 * text quoted so the model reads it.
 */
export function verdictOf(answer: string | undefined): Verdict {
  if (answer === CONTINUE) return RUN
  const why =
    answer === undefined
      ? 'The person dismissed the question'
      : answer === STOP
        ? `The person chose "${STOP}"`
        : `The person answered in their own words: "${quotedOf(answer)}"`
  return {
    kind: 'deny',
    text: `compact-handoff-answer: the conversation was just compacted into a summary, and the person was asked whether you may carry on from it. ${why}. ${WAIT}`,
  }
}
