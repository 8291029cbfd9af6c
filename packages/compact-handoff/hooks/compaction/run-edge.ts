// A run at the window's edge. When the handoff skill's own turn carries the
// whole conversation and the API refuses it as too long (400
// invalid_request_error "prompt is too long"), the engine raises an automatic
// compaction in the middle of that turn, and a hook's `{ messages }` answer
// stands: the turn goes on from them (2.1.332). Left to the engine's summary,
// the skill's invocation is summarised away with the rest, the turn ends with
// nothing written, and the run fails after the conversation was replaced
// (seen live). So the conversation before the skill's turn becomes a digest
// built by code, sized to fit, and the turn's own messages follow it from the
// skill's invocation on, kept with their handles: the engine restores a
// handled message exactly as it holds it (the command rows, "Base directory
// for this skill" and the skill's body), so the skill writes the handoff from
// the digest and the run checks it and swaps as usual. A conversation known
// not to fit before the run starts (a refusal recorded, the context full)
// takes the same way: the skill's first request meets the engine's automatic
// compaction (at its threshold, or at the refusal, a 400 that costs no model
// time), which lands here, so a run never starts differently and nothing is
// compacted before the skill's invocation is in the conversation to keep.
// Pure: compaction-steps.ts applies it.
import { RECALL_TOOL } from '../recall/recall.js'

/** What is read of a message: `session.compact`'s SessionMessage, in part. */
export type EdgeMessage = {
  role: 'user' | 'assistant'
  text: string
  toolUses?: readonly { input: Record<string, unknown>; text?: string }[]
  toolResults?: readonly { text: string }[]
}

/** The tokens a character costs at most, as estimated here: code and JSON
 * tokenize denser than prose (about 3 characters a token), so a third is
 * counted rather than the usual quarter, and what is kept never crowds out the digest. */
const CHARS_PER_TOKEN = 3

/** The share of the window the turn's own steps after the invocation may keep
 * verbatim; past it they are digested with the rest, so the request after the
 * answer fits (a skill that read a very large file would otherwise be refused again). */
export const MAX_KEPT_STEPS_SHARE = 0.25

function isTypedUser(message: EdgeMessage): boolean {
  return message.role === 'user' && (message.toolResults?.length ?? 0) === 0
}

/** Characters a message costs in a request: its text, its calls' arguments and results. */
export function charsOf(message: EdgeMessage): number {
  let chars = message.text.length
  for (const use of message.toolUses ?? []) chars += JSON.stringify(use.input).length + (use.text?.length ?? 0)
  for (const result of message.toolResults ?? []) chars += result.text.length
  return chars
}

/** Where the run's turn begins in `messages`: the user messages (no tool
 * results) sent together with the newest one that carries the run's tag (the
 * skill's arguments, in its command rows and in its body; a repair prompt
 * carries it too). Undefined when no message carries it: the turn that met the
 * window's edge is not the run's. */
export function runTurnOf(messages: readonly EdgeMessage[], runTag: string): { start: number; end: number } | undefined {
  let tagged = -1
  for (let i = messages.length - 1; i >= 0 && tagged < 0; i--) {
    if (isTypedUser(messages[i]!) && messages[i]!.text.includes(runTag)) tagged = i
  }
  if (tagged < 0) return undefined
  let start = tagged
  while (start > 0 && isTypedUser(messages[start - 1]!)) start--
  let end = tagged
  while (end + 1 < messages.length && isTypedUser(messages[end + 1]!)) end++
  return { start, end }
}

/** What the answer is made of: the messages the digest stands for, those kept
 * after it as they are, and the window the digest may fill. */
export type EdgePlan = { digested: number[]; kept: number[]; digestWindowTokens: number }

/**
 * The plan for `messages` whose run turn is `turn`, in a window of
 * `windowTokens`: everything before the invocation is digested; the invocation
 * is kept; the turn's steps after it are kept too while they fit their share,
 * else digested with the rest (then the invocation is the last message and the
 * skill starts over from the digest). The digest is told the window less what
 * is kept, and takes its own share of that (digest.ts), leaving the rest to
 * the system prompt, the tools and the answer.
 */
export function edgePlanOf(messages: readonly EdgeMessage[], turn: { start: number; end: number }, windowTokens: number): EdgePlan {
  const before = Array.from({ length: turn.start }, (_, i) => i)
  const invocation = Array.from({ length: turn.end - turn.start + 1 }, (_, i) => turn.start + i)
  const steps = Array.from({ length: messages.length - turn.end - 1 }, (_, i) => turn.end + 1 + i)
  const tokensOf = (indexes: readonly number[]) => Math.ceil(indexes.reduce((sum, i) => sum + charsOf(messages[i]!), 0) / CHARS_PER_TOKEN)
  const isStepsKept = tokensOf(steps) <= windowTokens * MAX_KEPT_STEPS_SHARE
  const kept = isStepsKept ? [...invocation, ...steps] : invocation
  const digested = isStepsKept ? before : [...before, ...steps]
  return { digested, kept, digestWindowTokens: Math.max(0, windowTokens - tokensOf(kept)) }
}

/** The digest's message as installed: the digest, then what it stands in for
 * and how the skill goes on from it. */
export function edgeDigestTextOf(digestText: string): string {
  return [
    digestText.trimEnd(),
    '',
    `The handoff skill's turn below did not fit the context window with the whole conversation, so compact-handoff replaced the conversation with the digest above. Write the handoff from it; for a detail it left out (an exact error, a value, a path), call ${RECALL_TOOL} before writing it down.`,
  ].join('\n')
}
