/**
 * The digest writer's request, scripted at the mock (tests/e2e/window-edge.e2e.ts): at a
 * compaction past the window compact-handoff asks the model, with `$.model.complete`, to
 * write the handoff from a digest of the conversation rather than from the whole of it.
 * `$.model.complete` sends one user message, no tools, and asks for no stream (its reply
 * comes back whole), which no main-loop request, fork or summariser request does.
 *
 * Pure: no file system, no `$`.
 */
import type { MockRequest, ScriptedReply } from './mock-api.js'
import { conversationOf } from './request-messages.js'

/** A `$.model.complete` request: one user message, no tools, not streamed. */
export function isDigestWriterRequest(request: MockRequest): boolean {
  const body = request.body
  if (body === undefined || body.stream === true) return false
  const messages = conversationOf(request)
  return messages.length === 1 && messages[0]?.role === 'user' && (body.tools ?? []).length === 0
}

/** The reply to the next digest writer's request. */
export function digestWriterReply(text: string): ScriptedReply {
  return { when: isDigestWriterRequest, text }
}
