/**
 * Issue 33 in a real session, model scripted: after a replacement of the conversation
 * (a swap, and an automatic compaction answered by a fork's handoff) the model calls
 * `mcp__compact-handoff__recall` with a word from an earlier command's output and gets
 * that output's line back verbatim; a token the earlier command printed comes back
 * masked by the engine's own redact; the stub names the tool, and the first request
 * after the replacement lists it (it is registered at the session's start: one
 * registered at the replacement itself was missing from that request, seen here).
 */
import { describe, expect, it } from 'vitest'
import { AUTO_COMPACT_INPUT_TOKENS, forkReply, forkReplyText, isForkRequest } from '../harness/fork-script.js'
import { isSkillTurnFor, skillTurn } from '../harness/handoff-script.js'
import type { MockRequest } from '../harness/mock-api.js'
import { toolResultOf, userBlocks } from '../harness/request-messages.js'
import { STUB_OPENING } from '../../packages/compact-handoff/hooks/stub/swap-text.js'
import { RECALL_TOOL } from '../../packages/compact-handoff/hooks/recall/recall.js'
import { trackRuns } from './lifecycle.js'
import { startFlow, toolTurn, turnSettled, type Flow } from './flow-support.js'

const TOKEN = 'ghp_e2eRecallA1b2C3d4E5f6G7h8I9j0K1'
const WORD = 'E2E_RECALL_CODE_7F3'
/** The earlier command: a line only its output holds, and a token it prints. */
const COMMAND = `echo "export GH_TOKEN=${TOKEN}"; echo "${WORD}: ParseError is defined in src/errors/parse-error.ts"; for i in $(seq 1 300); do echo "filler line $i"; done`
const LINE = `${WORD}: ParseError is defined in src/errors/parse-error.ts`

function toolNamesOf(request: MockRequest): string[] {
  return (request.body?.tools ?? []).map((t) => (t as { name?: string }).name ?? '')
}

function resultText(request: MockRequest, id: string): string {
  const block = toolResultOf(request, id)
  const content = block?.content
  if (typeof content === 'string') return content
  return Array.isArray(content) ? content.map((b: { text?: string }) => b.text ?? '').join('\n') : ''
}

/** The earlier work: the command runs in a turn of its own, before any replacement. */
async function earlierCommand(flow: Flow, tag: string, extra: { inputTokens?: number } = {}): Promise<MockRequest> {
  const { mock, session } = flow
  const replies = toolTurn(`ask ${tag}`, [{ name: 'Bash', input: { command: COMMAND, description: 'Find the error class' } }], `REPLY-${tag}`)
  mock.script(...replies.slice(0, -1), { ...replies.at(-1)!, ...extra })
  await session.type(`ask ${tag}`)
  const first = await mock.waitForRequest((r) => r.lastUserText.includes(`ask ${tag}`), 30_000)
  const mark = session.logMark()
  await session.waitForScreen(new RegExp(`REPLY-${tag}`), 30_000)
  await turnSettled(session, mark)
  return first
}

/** The two recall calls the next context makes, then its answer; returns the ids. */
function recallCalls(when: string | ((r: MockRequest) => boolean), done: string): { replies: ReturnType<typeof toolTurn>; ids: [string, string] } {
  const replies = toolTurn('unused', [
    { name: RECALL_TOOL, input: { query: WORD } },
    { name: RECALL_TOOL, input: { query: 'GH_TOKEN' } },
  ], done)
  const ids = replies.slice(0, 2).map((r) => r.toolUses![0]!.id!) as [string, string]
  replies[0] = { ...replies[0]!, when: typeof when === 'string' ? (r: MockRequest) => !isForkRequest(r) && r.lastUserText.includes(when) : when }
  return { replies, ids }
}

async function expectRecalled(flow: Flow, ids: [string, string], afterSeq: number): Promise<void> {
  const { mock } = flow
  const first = await mock.waitForRequest((r) => r.seq > afterSeq && toolResultOf(r, ids[0]) !== undefined, 30_000)
  const found = resultText(first, ids[0])
  console.log(`e2e recall: the answer for ${WORD}:\n${found}`)
  expect(found, "the earlier output's line comes back verbatim").toContain(`\n${LINE}\n`)
  expect(found, 'named by its call and exit status').toMatch(/\[1\] Tool result of Bash: echo "export GH_TOKEN=\[REDACTED\].* {2}→ exit 0 /)
  expect(found.length, 'bounded: one window, not the whole output').toBeLessThan(4_000)
  const second = await mock.waitForRequest((r) => r.seq > afterSeq && toolResultOf(r, ids[1]) !== undefined, 30_000)
  const masked = resultText(second, ids[1])
  expect(masked, "the printed token comes back masked by the engine's redact").toContain('export GH_TOKEN=[REDACTED]')
  expect(masked).not.toContain(TOKEN)
  expect(JSON.stringify(second.body?.messages), 'the token reaches the model nowhere after the replacement').not.toContain(TOKEN)
}

describe('recall after a swap', () => {
  const { track } = trackRuns()

  it('is listed in the first request after the swap, named by the stub, and brings the output back verbatim and masked', async () => {
    const flow = await startFlow('recall-swap', track)
    const { mock, session, run } = flow
    await earlierCommand(flow, 'RECALL-SWAP')

    const turn = skillTurn({ proj: run.proj, doc: { slug: 'recall-run', date: '2026-12-01', focus: 'recall' } })
    const { replies, ids } = recallCalls(turn.continuePrompt, 'REPLY-RECALLED')
    mock.script(...turn.replies, ...replies)
    const since = mock.requests.length
    await session.type('/compact-handoff recall')
    const skill = await mock.waitForRequest((r) => r.seq > since && isSkillTurnFor(r.lastUserText, 'recall'), 30_000)
    const next = await mock.waitForRequest((r) => r.seq > skill.seq && r.lastUserText.includes(turn.continuePrompt), 30_000)
    expect(toolNamesOf(next), 'listed in the first request after the swap').toContain(RECALL_TOOL)
    const tool = (next.body?.tools ?? []).find((t) => (t as { name?: string }).name === RECALL_TOOL)
    console.log(`e2e recall: the tool costs ${JSON.stringify(tool).length} bytes of each request's tools once listed (${JSON.stringify(next.body?.tools ?? []).length} bytes in all)`)
    const stub = userBlocks(next).find((b) => b.startsWith(STUB_OPENING)) ?? ''
    expect(stub, 'the stub names the tool').toContain(`call the tool ${RECALL_TOOL} with a word you expect instead of guessing or running it again`)
    await expectRecalled(flow, ids, next.seq - 1)
    await session.waitForScreen(/REPLY-RECALLED/, 30_000)
  })
})

describe("recall after an automatic compaction answered by a fork's handoff", () => {
  const { track } = trackRuns()

  it('brings the output back verbatim and masked', async () => {
    const flow = await startFlow('recall-fork', track)
    const { mock, session } = flow
    await earlierCommand(flow, 'RECALL-FORK', { inputTokens: AUTO_COMPACT_INPUT_TOKENS })
    const typed = 'ask RECALL-AFTER: where is the error class defined?'
    const { replies, ids } = recallCalls(typed, 'REPLY-FORK-RECALLED')
    mock.script(forkReply(forkReplyText({ focus: 'the parser errors' }, 'fenced')), ...replies)
    const since = mock.requests.length
    await session.type(typed)
    const next = await mock.waitForRequest((r) => r.seq > since && r.kind === 'main' && !isForkRequest(r) && r.lastUserText.includes(typed), 30_000)
    expect(mock.requests.filter((r) => r.seq > since).some(isForkRequest), "the fork wrote the handoff").toBe(true)
    const stub = userBlocks(next).find((b) => b.startsWith(STUB_OPENING)) ?? ''
    expect(stub, "the fork's stub names the tool").toContain(`call the tool ${RECALL_TOOL}`)
    await expectRecalled(flow, ids, next.seq - 1)
    await session.waitForScreen(/REPLY-FORK-RECALLED/, 30_000)
    console.log(`e2e recall: after the fork's handoff, the tool is listed in request ${next.seq}: ${toolNamesOf(next).includes(RECALL_TOOL)}; in the next ones: ${mock.requests.filter((r) => r.seq > next.seq && r.kind === 'main').map((r) => toolNamesOf(r).includes(RECALL_TOOL)).join(',')}`)
  })
})
