// Decides whether a compaction is marked as compact-handoff's and, if so, what
// the conversation would become; whether compact-handoff really raised it is
// route.ts's to check. Pure and free of 'claude-code' so vitest can load it
// under Node; route.ts routes on it and register.ts applies the answer.
import { MARKER } from '../partner/marker.js'

/** The parts of a `session.compact` input the decision reads. */
export type CompactionInput = {
  /** Undefined when a plugin compacts under the test kit (see markedStubOf). */
  trigger?: string | undefined
  /** Set when a subagent or fork compacts its own transcript. */
  agentId?: string | undefined
  instructions?: string | undefined
}

/**
 * The stub to put in place of the conversation, or undefined to leave the
 * compaction to the rest of the chain.
 *
 * Marked only when a plugin compacts the main loop (compact-handoff calls
 * `$.session.compact` from a timer) and the instructions' first line is exactly
 * the marker, ended by LF or CRLF. The stub is everything after that line,
 * verbatim: the sender owns its formatting (leading indentation is Markdown).
 * A blank stub would erase the conversation for nothing, so it passes through.
 */
export function markedStubOf(input: CompactionInput): string | undefined {
  // The real engine says 'plugin'; the 2.1.332 test kit leaves the trigger
  // undefined on a plugin's `$.session.compact`. Engine-raised compactions
  // (manual, auto, precompute) always carry theirs.
  const isPluginMade = input.trigger === 'plugin' || input.trigger === undefined
  const isMainLoop = input.agentId === undefined
  if (!isPluginMade || !isMainLoop || input.instructions === undefined) return undefined

  const lineEnd = input.instructions.indexOf('\n')
  if (lineEnd < 0) return undefined
  const firstLine = input.instructions.slice(0, lineEnd).replace(/\r$/, '')
  if (firstLine !== MARKER) return undefined

  const stub = input.instructions.slice(lineEnd + 1)
  return stub.trim() === '' ? undefined : stub
}
