// The scripted fork the e2e suites and the bench send through the mock: fork requests
// are told apart by the fork prompt's first line, and the replies wrap the same handoff
// the skill turn writes.
import { describe, expect, it } from 'vitest'
import { formatProblems } from '../../packages/compact-handoff/hooks/format/handoff-format.js'
import { FORK_HANDOFF_OPENING, FORK_REPAIR_OPENING } from '../../packages/compact-handoff/hooks/protocol/protocol.js'
import { APOLOGY_TEXT, forkKindOf, forkReply, forkReplyText } from './fork-script.js'
import { handoffBodyText, handoffFileText } from './handoff-script.js'
import type { MockRequest } from './mock-api.js'
import type { Message } from './request-messages.js'

function request(messages: Message[]): MockRequest {
  return { seq: 1, method: 'POST', path: '/v1/messages', body: { messages }, promptTokens: 0, kind: 'main', lastUserText: '', status: 200 }
}

const conversation: Message[] = [
  { role: 'user', content: 'ask ONE' },
  { role: 'assistant', content: [{ type: 'text', text: 'REPLY-ONE' }] },
]

describe('fork-script', () => {
  it("tells the handoff fork and the repair fork by the last user message's first line, past the engine's system entries", () => {
    const fork = request([...conversation, { role: 'user', content: [{ type: 'text', text: `${FORK_HANDOFF_OPENING}\nThe sections…` }] }, { role: 'system', content: 'date' }])
    const repair = request([...conversation, { role: 'user', content: [{ type: 'text', text: 'ask TWO' }, { type: 'text', text: `${FORK_REPAIR_OPENING}\n- missing section` }] }])
    expect(forkKindOf(fork)).toBe('handoff')
    expect(forkKindOf(repair)).toBe('repair')
  })

  it('takes no ordinary request for a fork, even one whose earlier message or later words quote the opening', () => {
    const earlier = request([{ role: 'user', content: FORK_HANDOFF_OPENING }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'ask TWO' }])
    const quoted = request([...conversation, { role: 'user', content: `please do not send "${FORK_HANDOFF_OPENING}"` }])
    expect(forkKindOf(earlier)).toBeUndefined()
    expect(forkKindOf(quoted)).toBeUndefined()
    expect(forkKindOf(request(conversation))).toBeUndefined()
  })

  it('answers with the handoff body as is, in a markdown fence, or between sentences of its own', () => {
    const body = handoffBodyText().trimEnd()
    expect(forkReplyText({}, 'plain')).toBe(body)
    expect(forkReplyText({}, 'fenced')).toBe(`\`\`\`markdown\n${body}\n\`\`\``)
    const preamble = forkReplyText({}, 'preamble')
    expect(preamble.startsWith('Here is the handoff')).toBe(true)
    expect(preamble).toContain(`\n\n${body}\n\n`)
  })

  it('writes a body that, under the frontmatter the mod adds, passes the format check; the apology holds no handoff', () => {
    expect(handoffFileText().endsWith(handoffBodyText())).toBe(true)
    expect(formatProblems(handoffFileText(), 'handoff', { projectDir: '/p' })).toEqual([])
    expect(APOLOGY_TEXT).not.toMatch(/^# Handoff/m)
  })

  it('matches its reply to the fork of the kind asked for only', () => {
    const reply = forkReply('x', 'repair')
    const when = reply.when as (r: MockRequest) => boolean
    expect(when(request([...conversation, { role: 'user', content: `${FORK_REPAIR_OPENING}\n…` }]))).toBe(true)
    expect(when(request([...conversation, { role: 'user', content: `${FORK_HANDOFF_OPENING}\n…` }]))).toBe(false)
  })
})
