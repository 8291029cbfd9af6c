/**
 * Issue 38 in a real session, model scripted: a handoff at the window's edge. The mock
 * refuses every request past a size as the real API refuses a prompt past the model's
 * window (400 "prompt is too long: N tokens > M maximum"); three reports of about 28 KB,
 * printed early, put every request that carries the whole conversation past it.
 * - The automatic compaction (the engine's reactive one, raised by the refusal in the
 *   middle of the reports' turn), the person's `/compact`, `/compact-handoff` and
 *   `/compact-handoffplan` at a conversation past the window each end with a new handoff
 *   file that handoff-check accepts and the stub in the next request: the person's first
 *   words verbatim, the handoff's Next step, and not the engine's summary; the turn goes on.
 * - After the automatic compaction the next context recalls a value from the dropped
 *   report and gets it back.
 * - When every model request fails (the digest writer's too), the digest is the stub and
 *   the session goes on.
 * - No toast says a replacement happened that did not, nor one that did not that did.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isForkRequest, forkReplyText } from '../harness/fork-script.js'
import { digestOf, digestWriterKindOf, digestWriterReply, isDigestWriterRequest } from '../harness/digest-script.js'
import { isSkillTurnFor, skillTurn, type HandoffDoc } from '../harness/handoff-script.js'
import type { MockRequest } from '../harness/mock-api.js'
import { repoRoot } from '../harness/repo-root.js'
import type { RunDir } from '../harness/run-dir.js'
import { carriesToolResult, toolResultOf, userBlocks } from '../harness/request-messages.js'
import { STUB_OPENING } from '../../packages/compact-handoff/hooks/stub/swap-text.js'
import { DIGEST_OPENING } from '../../packages/compact-handoff/hooks/compaction/digest.js'
import { RECALL_TOOL } from '../../packages/compact-handoff/hooks/recall/recall.js'
import { trackRuns } from './lifecycle.js'
import { messagesText, startFlow, toolTurn, turnSettled, type Flow } from './flow-support.js'

const DOC: Partial<HandoffDoc> = { focus: 'finish the parser' }
/** A line of the scripted handoff's Next step: only a request that carries the handoff holds it. */
const NEXT_STEP_MARK = 'Add the error-recovery case to `src/parser.ts`'
const HANDOFF_DIR = join('.claude', 'handoffs')
/** The person's first words: the stub carries them verbatim. */
const FIRST_WORDS = 'ask EDGE-ONE: keep every failing parser case, and never drop the fixtures'
/** What the engine's own summary leaves in the request after it (real-session-testing.md). */
const ENGINE_SUMMARY_OPENING = 'This session is being continued from a previous conversation'

/** A value only the first report prints, as the product of two numbers its command
 * multiplies (so the command, which the stub's facts name, does not hold it): the
 * digest drops the report, the recall brings the value back. */
const FACTORS = [1_000 + Math.floor(Math.random() * 9_000), 1_000 + Math.floor(Math.random() * 9_000)] as const
const VALUE = `EDGE-VALUE-${FACTORS[0] * FACTORS[1]}`
const REPORT_LINES = 290
const REPORT_LINE_FILL = 'status ok, 0 errors, checked against the parser fixtures and the tokenizer'
/** Under the ~30,000 characters past which the engine keeps a Bash output in a file and
 * sends the model a preview (mods-api.md 19): the whole report stays in the conversation. */
function reportCommand(name: string, withValue: boolean): string {
  const value = withValue ? `; if [ $i = 145 ]; then echo "EDGE-VALUE-$((${FACTORS[0]} * ${FACTORS[1]})): the fixtures checksum"; fi` : ''
  return `for i in $(seq 1 ${REPORT_LINES}); do echo "report ${name} line $i: ${REPORT_LINE_FILL}"${value}; done`
}
/** One report's tokens as the mock counts them (its JSON-escaped characters / 4). */
const REPORT_TOKENS = Math.ceil(
  JSON.stringify(Array.from({ length: REPORT_LINES }, (_, i) => `report A line ${i + 1}: ${REPORT_LINE_FILL}`).join('\n')).length / 4,
)

function handoffFilesIn(proj: string): string[] {
  const dir = join(proj, HANDOFF_DIR)
  return existsSync(dir) ? readdirSync(dir).filter((name) => /^HANDOFF_.*\.md$/.test(name)) : []
}

/** `handoff-check --project <proj> <file>`, the project's own validator (built by `pnpm build`). */
function handoffCheck(proj: string, file: string): { status: number | null; output: string } {
  const bin = join(repoRoot(), 'packages', 'handoff-tools', 'bin', 'handoff-check.js')
  const result = spawnSync(process.execPath, [bin, '--project', proj, join(proj, file)], { encoding: 'utf8' })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

/** A request of the main loop: not a fork, not the summariser, not the digest writer. */
function isMainLoop(request: MockRequest): boolean {
  return request.kind === 'main' && !isForkRequest(request) && !isDigestWriterRequest(request)
}

function stubOf(request: MockRequest): string | undefined {
  return userBlocks(request).find((b) => b.startsWith(STUB_OPENING))
}

/** The first answered main-loop request after `afterSeq` whose last user text holds `text` (any, when empty). */
function answeredAfter(flow: Flow, afterSeq: number, text = '', timeoutMs = 60_000): Promise<MockRequest> {
  return flow.mock.waitForRequest((r) => r.seq > afterSeq && r.status === 200 && isMainLoop(r) && r.lastUserText.includes(text), timeoutMs)
}

/** The person's setting "Auto-compact: off" (/config), kept in the global config. */
function turnAutoCompactOff(run: RunDir): void {
  const path = join(run.home, '.claude.json')
  writeFileSync(path, JSON.stringify({ ...(JSON.parse(readFileSync(path, 'utf8')) as object), autoCompactEnabled: false }, null, 2))
}

interface Edge {
  flow: Flow
  /** Tokens past which the mock refuses: the window's edge. */
  limitTokens: number
  /** The tool_use ids of the three reports. */
  reportIds: string[]
  /** The debug log's end, the request count and the handoff files before the reports' turn. */
  mark: number
  sinceSeq: number
  filesBefore: string[]
}

/**
 * A session whose first turn is the person's first words, then a turn that prints the
 * three reports. The window is set below the three reports and the base request:
 * `refusedMidTurn` sets it before the reports' turn, so the request carrying the third
 * report is refused in the middle of it; otherwise after, so the conversation as it
 * stands is past the window and the next request that carries it is refused.
 */
async function startAtEdge(name: string, track: Parameters<typeof startFlow>[1], refusedMidTurn: boolean, options: { isAutoCompactOff?: boolean } = {}): Promise<Edge> {
  const prepare = options.isAutoCompactOff === true ? turnAutoCompactOff : undefined
  const flow = await startFlow(name, track, prepare === undefined ? {} : { prepare })
  const { mock, session } = flow
  mock.script({ when: FIRST_WORDS, text: 'REPLY-EDGE-ONE' })
  let mark = session.logMark()
  await session.type(FIRST_WORDS)
  const first = await mock.waitForRequest((r) => r.lastUserText.includes(FIRST_WORDS), 30_000)
  await session.waitForScreen(/REPLY-EDGE-ONE/, 30_000)
  await turnSettled(session, mark)

  // The base request and two and a half reports: two fit, the third does not.
  const limitTokens = first.promptTokens + Math.round(2.5 * REPORT_TOKENS)
  const replies = toolTurn(
    'ask EDGE-TWO',
    ['A', 'B', 'C'].map((n, i) => ({ name: 'Bash', input: { command: reportCommand(n, i === 0), description: `Print report ${n}` } })),
    'REPLY-EDGE-TWO',
  )
  const reportIds = replies.slice(0, 3).map((r) => r.toolUses![0]!.id!)
  // The turn's answer follows the third report, or, the request carrying it refused, the compaction.
  // With auto-compact off the refusal ends the turn, and nothing answers it.
  const isAfterRefusal = (r: MockRequest): boolean => options.isAutoCompactOff !== true && mock.requests.some((q) => q.status === 400 && q.seq < r.seq)
  replies[3] = { ...replies[3]!, when: (r) => isMainLoop(r) && (carriesToolResult(r, reportIds[2]!) || isAfterRefusal(r)) }
  mock.script(...replies, digestWriterReply(forkReplyText(DOC)))
  if (refusedMidTurn) mock.refusePast(limitTokens)
  const filesBefore = handoffFilesIn(flow.run.proj)
  const sinceSeq = mock.requests.length
  mark = session.logMark()
  const reportsMark = mark
  await session.type('ask EDGE-TWO: print the three parser reports')
  if (!refusedMidTurn) {
    const last = await mock.waitForRequest((r) => carriesToolResult(r, reportIds[2]!), 30_000)
    await session.waitForScreen(/REPLY-EDGE-TWO/, 30_000)
    await turnSettled(session, mark)
    expect(last.promptTokens, 'the conversation as it stands is past the window').toBeGreaterThan(limitTokens)
    mock.refusePast(limitTokens)
  }
  console.log(`e2e ${name}: window ${limitTokens} tokens (a report ${REPORT_TOKENS}, the first request ${first.promptTokens})`)
  return { flow, limitTokens, reportIds, mark: reportsMark, sinceSeq, filesBefore }
}

type Replaced = 'stub' | 'summary' | 'none'

function replacedIn(request: MockRequest): Replaced {
  if (stubOf(request) !== undefined) return 'stub'
  return messagesText(request).includes(ENGINE_SUMMARY_OPENING) ? 'summary' : 'none'
}

interface Happened {
  /** The debug log's end, and the request count, when the case began. */
  mark: number
  sinceSeq: number
  /** The debug log's end where the toasts to check stop (default: all). */
  until?: number
  /** What replaced the conversation, read from the request after it. */
  replaced: Replaced
  /** The handoff file written, if any. */
  handoff: string | undefined
}

/** Whether an answered main-loop request after `sinceSeq` carries the digest itself. */
function digestInstalled(flow: Flow, sinceSeq: number): boolean {
  return flow.mock.requests.some((r) => r.seq > sinceSeq && r.status === 200 && isMainLoop(r) && messagesText(r).includes(DIGEST_OPENING))
}

function answeredSince(flow: Flow, sinceSeq: number, which: (r: MockRequest) => boolean): boolean {
  return flow.mock.requests.some((r) => r.seq > sinceSeq && r.status === 200 && which(r))
}

/**
 * Every toast compact-handoff showed since `mark` (up to `until`) says only what
 * happened: what replaced the conversation is read from the request after it, the
 * handoff from disk, the digest and the summary from the requests the mock answered.
 */
function expectToastsTrue(flow: Flow, happened: Happened): void {
  const { replaced, handoff, sinceSeq } = happened
  const shown = flow.session.toasts(happened.mark)
  const later = happened.until === undefined ? 0 : flow.session.toasts(happened.until).length
  const toasts = shown.slice(0, shown.length - later).filter((t) => t.mod === 'compact-handoff')
  console.log(`e2e window-edge: toasts ${JSON.stringify(toasts.map((t) => t.text))}, replaced by ${replaced}, handoff ${handoff ?? 'none'}`)
  for (const { text } of toasts) {
    const says = (claim: string): string => `"${text}": ${claim}`
    if (/^context at \d+%\. \/compact-handoff is recommended/.test(text)) continue
    if (/^Claude did not read the handoff after the swap/.test(text)) {
      // The meter: true here, the scripted model answers the continue-prompt without a Read.
      expect(replaced, says('a swap replaced the conversation')).toBe('stub')
    } else if (/became a (checked )?handoff/.test(text)) {
      expect(replaced, says("a handoff's stub replaced the conversation")).toBe('stub')
      expect(handoff, says('a handoff file was written')).toBeDefined()
      if (/from a digest/.test(text)) expect(answeredSince(flow, sinceSeq, isDigestWriterRequest), says("the digest writer's request was answered")).toBe(true)
    } else if (/Claude Code's own summary replaced the conversation/.test(text)) {
      expect(replaced, says("the engine's summary replaced the conversation")).toBe('summary')
      expect(answeredSince(flow, sinceSeq, (r) => r.kind === 'summary'), says("a summariser request was answered")).toBe(true)
    } else if (/^no handoff or summary could be written; compact-handoff's digest replaced the conversation/.test(text)) {
      expect(replaced, says('the digest replaced the conversation')).toBe('stub')
      expect(handoff, says('no handoff file was written')).toBeUndefined()
      expect(answeredSince(flow, sinceSeq, (r) => r.kind === 'summary'), says('no summariser request was answered')).toBe(false)
    } else if (/a digest replaced the conversation; the skill writes from it/.test(text)) {
      expect(digestInstalled(flow, sinceSeq), says("the skill's turn went on from the digest")).toBe(true)
    } else if (/nothing replaced the conversation|nothing was compacted|the conversation is (kept|unchanged)/.test(text)) {
      expect(replaced, says('the conversation was kept')).toBe('none')
    } else if (/replaced the conversation/.test(text)) {
      expect(replaced, says('something replaced the conversation')).not.toBe('none')
    } else {
      expect(text, 'a toast about a compaction this test does not know: say what it claims here').not.toMatch(/compact|replac|digest|summar|handoff/i)
    }
  }
}

/** The handoff was written from the digest: one request of the digest writer (no repair),
 * a completion (not streamed, no tools) that carried the digest and fitted the window. */
function expectWrittenFromDigest(flow: Flow, sinceSeq: number): void {
  const writers = flow.mock.requests.filter((r) => r.seq > sinceSeq && isDigestWriterRequest(r))
  expect(writers.map((r) => [digestWriterKindOf(r), r.status]), "one digest writer's request, answered").toEqual([['handoff', 200]])
  const writer = writers[0]!
  expect(writer.body?.stream === true || (writer.body?.tools ?? []).length > 0, 'a completion: not streamed, no tools').toBe(false)
  expect(digestOf(writer).startsWith(DIGEST_OPENING), 'it carries the digest').toBe(true)
  expect(flow.mock.requests.filter((r) => r.seq > sinceSeq && isForkRequest(r) && r.status === 200), 'no fork was answered').toEqual([])
}

/** What every case past the window ends with: a checked handoff file and its stub in
 * `next`, no engine summary. A compaction's stub carries the handoff inline; a swap's
 * names it, and its continue-prompt asks for its Next step (`inline: false`). */
function expectHandoffAndStub(flow: Flow, filesBefore: readonly string[], next: MockRequest, inline = true): string {
  const { mock, run } = flow
  const added = handoffFilesIn(run.proj).filter((f) => !filesBefore.includes(f))
  expect(added, 'exactly one new handoff file').toHaveLength(1)
  const file = join(HANDOFF_DIR, added[0]!)
  expect(handoffCheck(run.proj, file), `handoff-check accepts ${file}`).toEqual({ status: 0, output: '' })
  expect(readFileSync(join(run.proj, file), 'utf8'), "the file holds the handoff's Next step").toContain(NEXT_STEP_MARK)
  expect(mock.requests.filter((r) => r.kind === 'summary' && r.status === 200), "no summariser request was answered").toHaveLength(0)
  const stub = stubOf(next)
  expect(stub, `request ${next.seq} opens with compact-handoff's stub`).toBeDefined()
  expect(stub, "which carries the person's first words verbatim").toContain(FIRST_WORDS)
  if (inline) expect(stub, "and the handoff's Next step").toContain(NEXT_STEP_MARK)
  else expect(stub, 'and names the handoff').toContain(`Handoff file: ${file.split('\\').join('/')}`)
  const text = messagesText(next)
  expect(text, "not the engine's summary").not.toContain(ENGINE_SUMMARY_OPENING)
  expect(text).not.toContain('<summary>')
  return file
}

describe('the automatic compaction past the window', () => {
  const { track } = trackRuns()

  it('ends with a checked handoff and its stub, the turn goes on, and a recall brings a dropped value back', async () => {
    const t0 = Date.now()
    const edge = await startAtEdge('edge-auto', track, true)
    const { flow } = edge
    const { mock, session } = flow
    const { mark, sinceSeq, filesBefore } = edge
    const refused = await mock.waitForRequest((r) => r.status === 400 && carriesToolResult(r, edge.reportIds[2]!), 30_000)
    const next = await answeredAfter(flow, refused.seq)
    console.log(`e2e edge-auto: the request after the refusal ${Date.now() - t0} ms`)
    const file = expectHandoffAndStub(flow, filesBefore, next)
    expectWrittenFromDigest(flow, sinceSeq)
    expect(messagesText(next), 'the first report is no longer in the conversation').not.toContain(VALUE)
    await session.waitForScreen(/REPLY-EDGE-TWO/, 30_000)
    await turnSettled(session, mark)
    expectToastsTrue(flow, { mark, sinceSeq, replaced: replacedIn(next), handoff: file })

    // The next context asks for the dropped value, and gets it.
    const typed = 'ask EDGE-RECALL: what was the fixtures checksum?'
    const recall = toolTurn(typed, [{ name: RECALL_TOOL, input: { query: VALUE } }], 'REPLY-EDGE-RECALLED')
    const recallId = recall[0]!.toolUses![0]!.id!
    mock.script(...recall)
    const before = mock.requests.length
    await session.type(typed)
    const answered = await mock.waitForRequest((r) => r.seq > before && r.status === 200 && carriesToolResult(r, recallId), 30_000)
    const found = JSON.stringify(toolResultOf(answered, recallId)?.content ?? '')
    console.log(`e2e edge-auto: recall of ${VALUE}: ${found.slice(0, 300)}`)
    expect(found, 'the recall returns the dropped value').toContain(`${VALUE}: the fixtures checksum`)
    await session.waitForScreen(/REPLY-EDGE-RECALLED/, 30_000)
  })
})

describe("the person's /compact past the window", () => {
  const { track } = trackRuns()

  it('ends with a checked handoff and its stub, and the next turn goes on from it', async () => {
    // Auto-compact off (/config): the refused request ends the turn, "Context limit
    // reached · /compact or /clear to continue", and the person types /compact.
    const edge = await startAtEdge('edge-compact', track, true, { isAutoCompactOff: true })
    const { mock, session, run } = edge.flow
    const refused = await mock.waitForRequest((r) => r.status === 400 && carriesToolResult(r, edge.reportIds[2]!), 30_000)
    await turnSettled(session, edge.mark, 30_000)
    expect(mock.requests.length, 'no request after the refusal: the turn ended there, nothing compacted').toBe(refused.seq)
    const filesBefore = handoffFilesIn(run.proj)
    const mark = session.logMark()
    const before = mock.requests.length
    await session.type('/compact')
    await session.waitForHookSettled('compact-handoff@inline', 'session.compact', { since: mark, timeoutMs: 60_000 })
    const typed = 'ask EDGE-THREE: carry on with the parser'
    mock.script({ when: (r) => isMainLoop(r) && r.lastUserText.includes(typed), text: 'REPLY-EDGE-THREE' })
    await session.type(typed)
    const next = await answeredAfter(edge.flow, before, typed)
    const file = expectHandoffAndStub(edge.flow, filesBefore, next)
    expectWrittenFromDigest(edge.flow, before)
    expect(userBlocks(next).at(-1)?.trim(), 'the typed prompt is the last user text').toBe(typed)
    await session.waitForScreen(/REPLY-EDGE-THREE/, 30_000)
    await turnSettled(session, mark)
    expectToastsTrue(edge.flow, { mark, sinceSeq: before, replaced: replacedIn(next), handoff: file })
  })
})

for (const mode of ['handoff', 'plan'] as const) {
  const command = mode === 'plan' ? '/compact-handoffplan' : '/compact-handoff'
  describe(`${command} past the window`, () => {
    const { track } = trackRuns()

    it('the refused skill turn goes on from the digest, and ends with a checked handoff and its stub', async () => {
      const edge = await startAtEdge(`edge-${mode}`, track, false)
      const { mock, session, run } = edge.flow
      const focus = `edge ${mode}`
      const turn = skillTurn({ proj: run.proj, mode, doc: { ...DOC, slug: `edge-${mode}`, date: '2026-12-02', focus } })
      // The next context does as the continue-prompt says: it reads the handoff, then goes on.
      const goOn = toolTurn(turn.continuePrompt, [{ name: 'Read', input: { file_path: turn.handoffFile } }], 'REPLY-EDGE-GO-ON')
      const readId = goOn[0]!.toolUses![0]!.id!
      mock.script(...turn.replies, ...goOn)
      const filesBefore = handoffFilesIn(run.proj)
      const mark = session.logMark()
      const before = mock.requests.length
      await session.type(`${command} ${focus}`)
      const refused = await mock.waitForRequest((r) => r.seq > before && r.status === 400 && isSkillTurnFor(r.lastUserText, focus), 30_000)
      const resumed = await answeredAfter(edge.flow, refused.seq)
      expect(isSkillTurnFor(resumed.lastUserText, focus), "the skill's turn goes on: its invocation is kept").toBe(true)
      expect(messagesText(resumed), 'from the digest').toContain(DIGEST_OPENING)
      const next = await answeredAfter(edge.flow, refused.seq, turn.continuePrompt)
      const file = expectHandoffAndStub(edge.flow, filesBefore, next, false)
      expect(file.split('\\').join('/'), 'the file the skill wrote').toBe(turn.handoffPath)
      if (turn.planFile !== undefined) expect(existsSync(turn.planFile), 'and its plan').toBe(true)
      expect(userBlocks(next).at(-1)?.trim(), 'the continue-prompt is the last user text').toBe(turn.continuePrompt)
      const read = await mock.waitForRequest((r) => r.seq > next.seq && r.status === 200 && carriesToolResult(r, readId), 30_000)
      expect(JSON.stringify(toolResultOf(read, readId)?.content ?? ''), "the next context reads the handoff's Next step").toContain(NEXT_STEP_MARK)
      await session.waitForScreen(/REPLY-EDGE-GO-ON/, 30_000)
      await turnSettled(session, mark)
      expectToastsTrue(edge.flow, { mark, sinceSeq: before, replaced: replacedIn(next), handoff: file })
    })
  })
}

describe('every model request failing past the window', () => {
  const { track } = trackRuns()

  it('ends with the digest as the stub, and the session goes on', async () => {
    const edge = await startAtEdge('edge-fails', track, false)
    const { mock, session, run } = edge.flow
    const filesBefore = handoffFilesIn(run.proj)
    mock.refusePast(0)
    const mark = session.logMark()
    const before = mock.requests.length
    await session.type('ask EDGE-FAIL: carry on with the parser')
    await mock.waitForRequest((r) => r.seq > before && r.status === 400, 30_000)
    await turnSettled(session, mark, 60_000)
    const refusedAll = mock.requests.filter((r) => r.seq > before)
    console.log(`e2e edge-fails: while every request failed: ${refusedAll.map((r) => `${r.seq}:${r.status}${isDigestWriterRequest(r) ? ' digest-writer' : ''}${r.kind === 'summary' ? ' summary' : ''}`).join(', ')}`)
    expect(refusedAll.every((r) => r.status === 400), 'every model request failed').toBe(true)

    // The API answers again: the session goes on from the digest. The first request
    // after shows what the failing turn left, before anything compacts again.
    mock.refusePast(edge.limitTokens)
    const typed = 'ask EDGE-AFTER: carry on with the parser'
    mock.script({ when: (r) => isMainLoop(r) && r.lastUserText.includes(typed), text: 'REPLY-EDGE-AFTER' })
    const since = mock.requests.length
    const afterMark = session.logMark()
    await session.type(typed)
    const first = await mock.waitForRequest((r) => r.seq > since && isMainLoop(r), 30_000)
    expectToastsTrue(edge.flow, { mark, sinceSeq: before, until: afterMark, replaced: replacedIn(first), handoff: undefined })
    expect(refusedAll.some(isDigestWriterRequest), "the digest writer's among them").toBe(true)
    const next = await answeredAfter(edge.flow, since, typed)
    const stub = stubOf(next)
    expect(stub, `request ${next.seq} opens with compact-handoff's stub`).toBeDefined()
    expect(stub, 'the digest is the stub').toContain(DIGEST_OPENING)
    expect(stub, "which carries the person's first words verbatim").toContain(FIRST_WORDS)
    expect(messagesText(next), "not the engine's summary").not.toContain(ENGINE_SUMMARY_OPENING)
    expect(handoffFilesIn(run.proj), 'no handoff file was written').toEqual(filesBefore)
    expect(first.seq, 'that request was answered: nothing compacted again').toBe(next.seq)
    await session.waitForScreen(/REPLY-EDGE-AFTER/, 30_000)
    await turnSettled(session, afterMark)
    expectToastsTrue(edge.flow, { mark: afterMark, sinceSeq: since, replaced: replacedIn(next), handoff: undefined })
  })
})
