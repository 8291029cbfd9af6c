/**
 * The digest writer's request, scripted at the mock (tests/e2e/window-edge.e2e.ts): at a
 * compaction past the window compact-handoff asks the model, with `$.model.complete`, to
 * write the handoff from a digest of the conversation rather than from the whole of it.
 * The request is known by the first line of its one user message (the handoff request, or
 * its one repair), as a fork is by its own.
 *
 * Pure apart from the mod's openings: no file system, no `$`.
 */
import { DIGEST_HANDOFF_OPENING, DIGEST_REPAIR_OPENING } from '../../packages/compact-handoff/hooks/compaction/fork-prompt.js'
import type { MockRequest, ScriptedReply } from './mock-api.js'
import { conversationOf, textBlocksOf } from './request-messages.js'

export type DigestWriterKind = 'handoff' | 'repair'

/** Which digest writer's request this is, from the opening of its one user message. */
export function digestWriterKindOf(request: MockRequest): DigestWriterKind | undefined {
  const messages = conversationOf(request)
  if (messages.length !== 1 || messages[0]?.role !== 'user') return undefined
  const text = textBlocksOf(messages[0]).join('\n').trimStart()
  if (text.startsWith(DIGEST_REPAIR_OPENING)) return 'repair'
  if (text.startsWith(DIGEST_HANDOFF_OPENING)) return 'handoff'
  return undefined
}

export function isDigestWriterRequest(request: MockRequest): boolean {
  return digestWriterKindOf(request) !== undefined
}

/** The digest a digest writer's request carries, between its marks ('' when none). */
export function digestOf(request: MockRequest): string {
  const text = textBlocksOf(conversationOf(request)[0] ?? { role: 'user', content: '' }).join('\n')
  const start = text.indexOf('\n<digest>\n')
  const end = text.lastIndexOf('\n</digest>')
  return start < 0 || end < start ? '' : text.slice(start + '\n<digest>\n'.length, end)
}

/** The reply to the next digest writer's request of `kind` (default: the handoff request). */
export function digestWriterReply(text: string, kind: DigestWriterKind = 'handoff'): ScriptedReply {
  return { when: (r) => digestWriterKindOf(r) === kind, text }
}
