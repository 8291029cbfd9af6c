// The work's facts, read from the conversation where they are read (a
// compaction, a run's check, the meter's turn end, the status report) instead
// of from a hook on every call: a hooked tool call costs the model's next
// request a hop to the mods' worker. Only a Write or Edit is still heard as it
// happens, for a handoff's ownership record (run/run-steps.ts recordWrite),
// and it records nothing else there. Pure: work-steps.ts reads and records.
import { exitCodeOf } from './facts.js'
import { backgroundTaskIdOf } from '../background/running.js'

/** A call as the conversation holds it: on the assistant message's tool use
 * once answered, or in the next user message's results. */
type ToolUse = { tool_use_id: string; tool: string; input: Record<string, unknown>; result?: unknown; text?: string; isError?: true }
type ToolResult = { tool_use_id: string; text: string; isError: boolean; result?: unknown }
export type ConversationMessage = { role: 'user' | 'assistant'; toolUses?: readonly ToolUse[]; toolResults?: readonly ToolResult[] }

/** A path a Write or Edit changed, a Read's path, or a command and how it
 * ended, its text not yet masked. */
export type CallRecord = { kind: 'change' | 'read'; text: string } | { kind: 'command'; text: string; exitCode: number | null; shellId?: string }

/** What a catch-up folds in: the calls after the one `through` named, and the id to read on from next time. */
export type CallsAfter = { records: CallRecord[]; through: string | undefined }

type Answered = { use: ToolUse; text: string; isError: boolean; result: unknown }

/** The answered calls in order, up to the first still in flight: one after it
 * is read on the next catch-up, so none is read twice or skipped. Only the
 * newest assistant message's calls can be in flight; an earlier one the
 * transcript holds no answer for never got one, and is passed over. */
function answeredCallsOf(messages: readonly ConversationMessage[]): Answered[] {
  const calls: Answered[] = []
  let newest = messages.length - 1
  while (newest >= 0 && messages[newest]!.role !== 'assistant') newest--
  for (let i = 0; i < messages.length; i++) {
    const uses = messages[i]!.role === 'assistant' ? (messages[i]!.toolUses ?? []) : []
    if (uses.length === 0) continue
    const next = messages[i + 1]
    const results = new Map(next?.role === 'user' ? (next.toolResults ?? []).map((r) => [r.tool_use_id, r] as const) : [])
    for (const use of uses) {
      const found = results.get(use.tool_use_id)
      const text = found?.text ?? use.text
      if (text === undefined && i === newest) return calls
      if (text !== undefined) calls.push({ use, text, isError: found?.isError ?? use.isError === true, result: found?.result ?? use.result })
    }
  }
  return calls
}

/** A Write, Edit or Read that succeeded names its path; any Bash call names
 * its command and how it ended (one the engine moved to the background has no
 * end yet); a refused call is an error too. */
function recordOf({ use, text, isError, result }: Answered): CallRecord | undefined {
  const { file_path: path, command } = use.input
  if (use.tool === 'Write' || use.tool === 'Edit' || use.tool === 'Read') return !isError && typeof path === 'string' ? { kind: use.tool === 'Read' ? 'read' : 'change', text: path } : undefined
  if (use.tool !== 'Bash' || typeof command !== 'string') return undefined
  const shellId = isError ? undefined : backgroundTaskIdOf(result)
  return { kind: 'command', text: command, exitCode: exitCodeOf(isError ? { isError: true, text } : {}), ...(shellId !== undefined ? { shellId } : {}) }
}

/** The Write, Edit, Read and Bash calls of `messages` after the call `through` names; all of
 * them when it names none there (the conversation was replaced since, or none
 * was read yet). Linear in the conversation's calls. */
export function callsAfter(messages: readonly ConversationMessage[], through: string | undefined): CallsAfter {
  const calls = answeredCallsOf(messages)
  const from = through === undefined ? 0 : calls.findIndex((c) => c.use.tool_use_id === through) + 1
  const fresh = calls.slice(from)
  return { records: fresh.flatMap((c) => recordOf(c) ?? []), through: fresh.at(-1)?.use.tool_use_id ?? through }
}
