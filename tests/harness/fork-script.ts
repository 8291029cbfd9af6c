/**
 * The engine's automatic compaction and compact-handoff's fork, scripted at the mock
 * (tests/e2e, `pnpm bench`):
 * - an automatic compaction is forced by the usage a reply reports: near the window, the
 *   engine compacts before its next request, in the middle of a tool-call turn (the reply
 *   that holds the tool_use reports it) or at the next typed prompt (the turn's answer
 *   reports it);
 * - a fork request is one whose last user message has a text block opening with the fork
 *   prompt's first line (the handoff fork, or the one repair fork), and is answered the way
 *   a real model answers: the handoff's title and sections, sometimes in a ```markdown
 *   fence or after a sentence of its own, or an apology that holds no handoff at all.
 *
 * Pure apart from the protocol's fork openings: no file system, no `$`.
 */
import { FORK_HANDOFF_OPENING, FORK_REPAIR_OPENING } from '../../packages/compact-handoff/hooks/protocol/protocol.js'
import { handoffBodyText, type HandoffDoc } from './handoff-script.js'
import type { MockRequest, ScriptedReply } from './mock-api.js'
import { blocksOf, textBlocksOf, type Message } from './request-messages.js'

/**
 * Input tokens a reply reports to force the engine's automatic compaction before its next
 * request. The default model's window is 1,000,000 tokens; Claude Code 2.1.332 keeps
 * 20,000 for the answer (980,000 effective) and compacts above 967,000 ("autocompact: …
 * threshold 967000" in the debug log). 975,000 is above that threshold and still below
 * the point where the engine refuses the request as too long.
 */
export const AUTO_COMPACT_INPUT_TOKENS = 975_000

export type ForkKind = 'handoff' | 'repair'

/** How the scripted model wraps the handoff it writes. */
export type ForkStyle = 'plain' | 'fenced' | 'preamble'

function lastUserMessageOf(request: MockRequest): Message | undefined {
  return (request.body?.messages ?? []).filter((m) => m.role === 'user').at(-1)
}

/** Which fork a request is, read from the first line of its last user message's text blocks. */
export function forkKindOf(request: MockRequest): ForkKind | undefined {
  const last = lastUserMessageOf(request)
  if (last === undefined) return undefined
  const texts = textBlocksOf(last).map((t) => t.trimStart())
  if (texts.some((t) => t.startsWith(FORK_REPAIR_OPENING))) return 'repair'
  if (texts.some((t) => t.startsWith(FORK_HANDOFF_OPENING))) return 'handoff'
  return undefined
}

export function isForkRequest(request: MockRequest): boolean {
  return forkKindOf(request) !== undefined
}

/** The fork prompt's text block (the one that opens with a fork's first line). */
export function forkPromptOf(request: MockRequest): string {
  const last = lastUserMessageOf(request)
  const texts = last === undefined ? [] : textBlocksOf(last).map((t) => t.trimStart())
  return texts.find((t) => t.startsWith(FORK_REPAIR_OPENING) || t.startsWith(FORK_HANDOFF_OPENING)) ?? ''
}

/** The handoff as the scripted model writes it in answer to a fork, wrapped as `style` says. */
export function forkReplyText(doc: Partial<HandoffDoc> = {}, style: ForkStyle = 'plain'): string {
  const body = handoffBodyText(doc).trimEnd()
  switch (style) {
    case 'plain':
      return body
    case 'fenced':
      return ['```markdown', body, '```'].join('\n')
    case 'preamble':
      return ['Here is the handoff for this session, following the format you gave.', '', body, '', 'Let me know if anything should change.'].join('\n')
  }
}

/** A model's answer that holds no handoff: what a fork that will not write one sends. */
export const APOLOGY_TEXT = "I'm sorry, but I can't write that handoff right now. Could you tell me more about what you need?"

/** The reply to the next fork request of `kind` (default: the handoff fork). */
export function forkReply(text: string, kind: ForkKind = 'handoff'): ScriptedReply {
  return { when: (r) => forkKindOf(r) === kind, text }
}

/** Fork requests among `requests` (the handoff fork and the repair fork). */
export function forkRequestsOf(requests: readonly MockRequest[]): MockRequest[] {
  return requests.filter(isForkRequest)
}

/** Whether a request's last user message holds a tool_result (the turn going on after a tool). */
export function carriesAnyToolResult(request: MockRequest): boolean {
  const last = lastUserMessageOf(request)
  return last !== undefined && blocksOf(last).some((b) => b.type === 'tool_result')
}
