/**
 * No secret kept, in a real session (the engine's own `$.session.redact`): the model
 * runs shell commands holding a bearer token and an exported token. A `/compact` then
 * hands the summariser the recorded commands masked; `/compact-handoff` puts them in the
 * stub masked; the next context runs the token command again, and the swap log on disk
 * counts it, masked. The tokens reach none of these.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { isSkillTurnFor, skillTurn } from '../harness/handoff-script.js'
import type { MockRequest, ScriptedReply, ScriptedToolUse } from '../harness/mock-api.js'
import { carriesToolResult, userBlocks } from '../harness/request-messages.js'
import { swapLogRawLines } from '../harness/swap-logs.js'
import { trackRuns } from './lifecycle.js'
import { messagesText, pollUntil, requestAfter, startFlow, turnSettled, type Flow } from './flow-support.js'

const BEARER = 'sk-live-e2e4f9a8b7c6d5e4f3a2b1c0'
const EXPORTED = 'ghp_e2eA1b2C3d4E5f6G7h8I9j0K1l2M3n4'
const BEARER_COMMAND = `curl -s --max-time 1 -H "Authorization: Bearer ${BEARER}" http://127.0.0.1:9/ || true`
const EXPORT_COMMAND = `export GITHUB_TOKEN=${EXPORTED}; echo exported`

let toolSeq = 0

/** One model turn that makes `calls` one after another, then answers `text`. */
function toolTurn(when: string, calls: Omit<ScriptedToolUse, 'id'>[], text: string): ScriptedReply[] {
  const ids = calls.map(() => `toolu_mask_${++toolSeq}`)
  const replies: ScriptedReply[] = calls.map((call, i) => ({ toolUses: [{ ...call, id: ids[i]! }] }))
  replies.push({ text })
  return replies.map((reply, i) => ({ ...reply, when: i === 0 ? when : (r: MockRequest) => carriesToolResult(r, ids[i - 1]!) }))
}

function expectNoToken(text: string, where: string): void {
  expect(text, `${where} holds the bearer token`).not.toContain(BEARER)
  expect(text, `${where} holds the exported token`).not.toContain(EXPORTED)
}

/** The recorded command lines of a facts section ("- <command>  → exit N"). */
function commandLinesOf(text: string): string[] {
  return text.split('\n').filter((l) => /^- .* {2}→ /.test(l))
}

describe('commands holding tokens are masked wherever compact-handoff keeps them', () => {
  const { track } = trackRuns()
  let flow: Flow

  beforeAll(async () => {
    flow = await startFlow('masking', track)
  })

  it("a /compact hands the summariser the commands masked, by the engine's own rules", async () => {
    const { mock, session } = flow
    mock.script(
      ...toolTurn(
        'ask MASK-WORK',
        [
          { name: 'Bash', input: { command: BEARER_COMMAND, description: 'call the API' } },
          { name: 'Bash', input: { command: EXPORT_COMMAND, description: 'export a token' } },
        ],
        'REPLY-MASK-WORK',
      ),
    )
    await session.type('ask MASK-WORK')
    await mock.waitForRequest((r) => r.lastUserText.includes('ask MASK-WORK'), 30_000)
    const mark = session.logMark()
    await session.waitForScreen(/REPLY-MASK-WORK/, 30_000)
    await turnSettled(session, mark)

    const before = mock.requests.length
    await session.type('/compact keep the API work')
    const summary = await mock.waitForRequest((r) => r.seq > before && r.kind === 'summary', 30_000)
    const asked = summary.lastUserText
    const lines = commandLinesOf(asked)
    expect(lines, `the facts are in the summariser's instructions:\n${asked}`).toHaveLength(2)
    expect(lines.find((l) => l.startsWith('- curl -s --max-time 1 -H'))).toContain('[REDACTED]')
    expect(lines.find((l) => l.startsWith('- export GITHUB_TOKEN='))).toContain('[REDACTED]')
    expectNoToken(asked, "the summariser's instructions")
    await session.waitForScreen(/❯/, 30_000)
  })

  it('the stub carries them masked, and the swap log on disk never holds a token', async () => {
    const { mock, session, run } = flow
    const { proj } = run
    const turn = skillTurn({ proj, doc: { slug: 'masking-run', date: '2026-11-30', focus: 'masking' } })
    const after = toolTurn(
      turn.continuePrompt,
      [
        { name: 'Read', input: { file_path: turn.handoffFile } },
        { name: 'Bash', input: { command: BEARER_COMMAND, description: 'call the API again' } },
      ],
      'REPLY-MASK-AFTER',
    )
    mock.script(...turn.replies, ...after)
    const before = mock.requests.length
    await session.type('/compact-handoff masking')
    const skill = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'masking'), 30_000)
    const next = await requestAfter(mock, skill.seq, turn.continuePrompt)
    const stub = userBlocks(next).find((b) => b.includes('recorded by code from its tool calls')) ?? ''
    const lines = commandLinesOf(stub)
    expect(lines, `the stub names both commands:\n${stub}`).toHaveLength(2)
    for (const line of lines) expect(line).toContain('[REDACTED]')
    expectNoToken(messagesText(next), 'the request after the swap')
    await session.waitForScreen(/REPLY-MASK-AFTER/, 30_000)

    await session.type('/compact-handoff status')
    await session.waitForScreen(/1 command re-run/, 30_000)
    const log = await pollUntil('the follow-up line', 10_000, () => {
      const text = swapLogRawLines(proj).join('\n')
      return text.includes('"outcome":"meter"') ? text : undefined
    })
    expectNoToken(log, 'the swap log')
    const meter = log.split('\n').filter((l) => l.includes('"meter"')).map((l) => JSON.parse(l) as { repeatedCommands?: string[] }).at(-1)
    expect(meter?.repeatedCommands).toHaveLength(1)
    expect(meter?.repeatedCommands?.[0]).toMatch(/^curl -s --max-time 1 -H .*\[REDACTED\]/)
  })
})
