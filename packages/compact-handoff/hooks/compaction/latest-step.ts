// The turn's latest step when the engine compacts in the middle of a turn: the
// fork that writes the handoff sees the transcript as last sent, without the
// tool calls the model made since and their results (seen live, 2.1.332), so
// code carries them into the stub verbatim, their results' ends bounded. Pure:
// digest-steps.ts masks what latestStepOf takes out before latestStepSectionOf
// shows it.
import { clippedOf, headOf } from '../text/text-clip.js'
import { callTextOf, fencedTextOf, oneLineOf, orphanResultsOf, outcomeOf, resultsByIdOf, tailAtLineOf, WINDOW_FACTOR, type DigestMessage } from './digest.js'

/** The calls of the latest step shown; the rest are counted. */
export const MAX_LATEST_CALLS = 3
/** The end of each call's result the stub keeps, in UTF-16 code units: a test
 * run's summary and its failures, an error and its last frames. */
export const MAX_LATEST_RESULT_CHARS = 2_000
/** A call's arguments as shown, in UTF-16 code units, a cut marked. */
export const MAX_LATEST_CALL_CHARS = 300

type MessageInput = Omit<DigestMessage, 'text'>

/** One call of the latest step, as taken out of the transcript: `call` and
 * `resultEnd` are windows of the model's and the tool's text, not yet masked. */
export type LatestCall = {
  tool: string
  call: string
  /** No result was in the transcript yet. */
  hasResult: boolean
  /** As the digest says it: a Bash call's exit status, `error`, `done`. */
  outcome: string
  resultEnd: string
  /** The result's length in UTF-16 code units, to say how much was left out. */
  resultChars: number
}

export type LatestStep = { calls: LatestCall[]; moreCalls: number }

/**
 * The latest step of a transcript that ends in the middle of a turn: the
 * calls of its last assistant message, each with its result (from the user
 * message of results that follows it, or the call's own outcome), or
 * undefined when that message called no tool. A result whose call is not in
 * the transcript is shown under its id.
 */
export function latestStepOf(messages: readonly MessageInput[]): LatestStep | undefined {
  const last = messages.at(-1)
  if (last === undefined) return undefined
  const before = last.role === 'assistant' ? last : messages.at(-2)
  const uses = before?.role === 'assistant' ? (before.toolUses ?? []) : []
  const results = resultsByIdOf(last)
  const calls = [
    ...uses.map((use) => {
      const result = results.get(use.tool_use_id)
      return callOf(use.tool, headOf(callTextOf(use.input), WINDOW_FACTOR * MAX_LATEST_CALL_CHARS), result?.text ?? use.text, result?.isError ?? use.isError === true)
    }),
    ...orphanResultsOf(messages, messages.length - 1).map((r) => callOf('a tool', `call ${headOf(r.tool_use_id, MAX_LATEST_CALL_CHARS)}`, r.text, r.isError)),
  ]
  if (calls.length === 0) return undefined
  return { calls: calls.slice(-MAX_LATEST_CALLS), moreCalls: Math.max(0, calls.length - MAX_LATEST_CALLS) }
}

function callOf(tool: string, call: string, text: string | undefined, isError: boolean): LatestCall {
  return { tool, call, hasResult: text !== undefined, outcome: outcomeOf(tool, text, isError), resultEnd: tailAtLineOf(text ?? '', WINDOW_FACTOR * MAX_LATEST_RESULT_CHARS), resultChars: text?.length ?? 0 }
}

/** `text`'s end, at most MAX_LATEST_RESULT_CHARS, from a line start where one
 * is within reach, and how many code units of the whole were left out. */
function keptEndOf(masked: string, wholeChars: number): { kept: string; leftOut: number } {
  const kept = tailAtLineOf(masked, MAX_LATEST_RESULT_CHARS)
  // What the masking changed is counted in the masked text's length, near enough for a notice.
  return { kept, leftOut: Math.max(0, wholeChars - kept.length) }
}

/** The stub's section for the latest step, its call and result texts already
 * masked: each call on one line with its outcome, then the end of its result
 * verbatim in a fence, what was left out said. */
export function latestStepSectionOf(step: LatestStep): string {
  const lines = [
    "The turn's latest step, which the handoff's writer did not see (it came after the transcript the writer was given), recorded by code from the transcript verbatim:",
  ]
  for (const call of step.calls) {
    lines.push(`- ${call.tool}: ${clippedOf(oneLineOf(call.call), MAX_LATEST_CALL_CHARS)}  → ${call.outcome}`)
    if (!call.hasResult) continue
    const { kept, leftOut } = keptEndOf(call.resultEnd, call.resultChars)
    if (kept.trim() === '') {
      lines.push('  (its result was empty)')
      continue
    }
    if (leftOut > 0) lines.push(`  The last ${kept.length} characters of its result (${leftOut} earlier characters left out):`)
    else lines.push('  Its result:')
    lines.push(fencedTextOf(kept))
  }
  if (step.moreCalls > 0) lines.push(`- and ${step.moreCalls} earlier ${step.moreCalls === 1 ? 'call' : 'calls'} of the same step, not shown`)
  return lines.join('\n')
}
