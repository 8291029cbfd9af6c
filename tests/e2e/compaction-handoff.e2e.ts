/**
 * Issue 16 in a real session, model scripted: the engine's automatic compaction, forced
 * by the usage a reply reports, is answered by compact-handoff with a handoff written by
 * `$.model.fork`.
 * - In the middle of a tool-call turn and at a typed prompt: the scripted model answers
 *   the fork (in a ```markdown fence, or after a sentence of its own); a new handoff file
 *   that `handoff-check` accepts is on disk; the next request carries the handoff, where
 *   it is saved and the person's first words verbatim (and the typed prompt last), no
 *   earlier answer; no summariser request; the turn finishes.
 * - A fork that never writes a handoff (and a repair fork that does not either) falls
 *   back to the engine's summary, whose instructions carry the outline; no file is left.
 * - Option compactionHandoff: `all` answers the person's `/compact` too, their words the
 *   handoff's focus; `off` leaves every compaction to the engine's summary with the outline.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { APOLOGY_TEXT, AUTO_COMPACT_INPUT_TOKENS, forkKindOf, forkPromptOf, forkReply, forkReplyText, forkRequestsOf, isForkRequest, type ForkStyle } from '../harness/fork-script.js'
import { escapeRe } from '../harness/escape-re.js'
import type { HandoffDoc } from '../harness/handoff-script.js'
import type { MockRequest } from '../harness/mock-api.js'
import { repoRoot } from '../harness/repo-root.js'
import { userBlocks } from '../harness/request-messages.js'
import { OUTLINE } from '../../packages/compact-handoff/hooks/compaction/summary-instructions.js'
import { STUB_OPENING } from '../../packages/compact-handoff/hooks/stub/swap-text.js'
import { swapLogEntriesOf } from '../harness/swap-logs.js'
import { trackRuns } from './lifecycle.js'
import { HANDOFF_MOD, messagesText, ordinaryTurn, pollUntil, promptBoxOf, startFlow, turnSettled, type Flow } from './flow-support.js'

const DOC: Partial<HandoffDoc> = { focus: 'finish the parser' }
/** A line of the scripted handoff's Next step: only a request that carries the handoff holds it. */
const NEXT_STEP_MARK = 'Add the error-recovery case to `src/parser.ts`'
const HANDOFF_DIR = join('.claude', 'handoffs')

function handoffFilesIn(proj: string): string[] {
  const dir = join(proj, HANDOFF_DIR)
  return existsSync(dir) ? readdirSync(dir).filter((name) => /^HANDOFF_.*\.md$/.test(name)) : []
}

/** The one handoff file that is in `proj` now and was not in `before`. */
function newHandoffFile(proj: string, before: readonly string[]): string {
  const added = handoffFilesIn(proj).filter((name) => !before.includes(name))
  expect(added, 'exactly one new handoff file').toHaveLength(1)
  return join(HANDOFF_DIR, added[0]!)
}

/** `handoff-check --project <proj> <file>`, the project's own validator (built by `pnpm build`). */
function handoffCheck(proj: string, file: string): { status: number | null; output: string } {
  const bin = join(repoRoot(), 'packages', 'handoff-tools', 'bin', 'handoff-check.js')
  const result = spawnSync(process.execPath, [bin, '--project', proj, join(proj, file)], { encoding: 'utf8' })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

/** A main-loop request that is not a fork, arriving after request `afterSeq`. */
function nextMainRequest(flow: Flow, afterSeq: number): Promise<MockRequest> {
  return flow.mock.waitForRequest((r) => r.seq > afterSeq && r.kind === 'main' && r.status === 200 && !isForkRequest(r), 30_000)
}

/** The checks every answered automatic compaction passes: one fork, no summariser, a new
 * checked file, and a next request holding the handoff, its path and the first words
 * but no earlier answer. */
function expectAnsweredByFork(flow: Flow, since: number, filesBefore: readonly string[], next: MockRequest, firstWords: string, earlierTags: readonly string[]): string {
  const { mock, run } = flow
  const forks = forkRequestsOf(mock.requests.filter((r) => r.seq > since))
  expect(forks.map(forkKindOf), 'one fork request, no repair').toEqual(['handoff'])
  expect(mock.requests.filter((r) => r.kind === 'summary'), 'no summariser request').toHaveLength(0)

  const file = newHandoffFile(run.proj, filesBefore)
  const checked = handoffCheck(run.proj, file)
  expect(checked, `handoff-check accepts ${file}`).toEqual({ status: 0, output: '' })
  expect(readFileSync(join(run.proj, file), 'utf8'), 'the file holds what the fork wrote').toContain(NEXT_STEP_MARK)

  const stub = userBlocks(next).find((b) => b.startsWith(STUB_OPENING))
  expect(stub, "the next request opens with compact-handoff's stub").toBeDefined()
  expect(stub, 'which carries the handoff inline').toContain(NEXT_STEP_MARK)
  const text = messagesText(next)
  expect(text, 'and where it is saved').toContain(file.split('\\').join('/'))
  expect(text, "and the person's first words verbatim").toContain(firstWords)
  for (const tag of earlierTags) expect(text, `the answer REPLY-${tag} is gone`).not.toContain(`REPLY-${tag}`)
  return file
}

/** A probe whose output is longer than a stub keeps of a result, with a token near its end. */
const PROBE_TOKEN = 'sk-live-e2e4f9a1c7'
const PROBE_COMMAND = `for i in $(seq 1 400); do echo "probe line $i"; done; echo "Authorization: Bearer ${PROBE_TOKEN}"; echo " Tests  1 failed | 399 passed (400)"`

describe('an automatic compaction in the middle of a tool-call turn', () => {
  const { track } = trackRuns()

  it('is answered by a fork handoff (written in a ```markdown fence), and the turn goes on from it', async () => {
    const flow = await startFlow('fork-mid-turn', track)
    const { mock, session, run } = flow
    const t0 = Date.now()
    await ordinaryTurn(flow, 'MID-ONE')

    const typed = 'ask MID-TWO: run the probe, then carry on'
    const toolId = `toolu_mid_probe_${Date.now().toString(36)}`
    mock.script(
      forkReply(forkReplyText(DOC, 'fenced')),
      {
        when: (r) => !isForkRequest(r) && r.lastUserText.includes(typed),
        toolUses: [{ id: toolId, name: 'Bash', input: { command: PROBE_COMMAND, description: 'Run the probe' } }],
        inputTokens: AUTO_COMPACT_INPUT_TOKENS,
      },
      { when: (r) => !isForkRequest(r), text: 'REPLY-MID-DONE' },
    )
    const filesBefore = handoffFilesIn(run.proj)
    const since = mock.requests.length
    const typedMark = session.logMark()
    await session.type(typed)
    const toolTurn = await mock.waitForRequest((r) => r.seq > since && r.lastUserText.includes(typed) && !isForkRequest(r), 30_000)
    const mark = session.logMark()
    const next = await nextMainRequest(flow, toolTurn.seq)
    console.log(`e2e compaction-handoff: mid-turn fork answered ${Date.now() - t0} ms`)

    expectAnsweredByFork(flow, since, filesBefore, next, 'ask MID-ONE', ['MID-ONE'])
    expect(messagesText(next), "the turn's own prompt is kept too").toContain(typed)
    expect(messagesText(next), 'and the model is told a turn was under way').toContain('A turn was under way')
    // The fork never saw the probe; the stub carries its call and the end of its output, masked by the real engine.
    const stub = userBlocks(next).find((b) => b.startsWith(STUB_OPENING)) ?? ''
    const step = stub.slice(stub.indexOf("The turn's latest step, which the handoff's writer did not see"))
    // The engine's redact masks "Authorization: Bearer <token>" as "Authorization: [REDACTED]" (seen here).
    expect(step, 'the latest step is in the stub, its call masked').toMatch(/\n- Bash: for i in \$\(seq 1 400\); do echo "probe line \$i"; done; echo "Authorization: \[REDACTED\][^\n]*  → exit 0\n/)
    expect(step, "its output's last lines, masked").toContain('probe line 400\nAuthorization: [REDACTED]\n Tests  1 failed | 399 passed (400)\n```')
    expect(step, 'its start left out, and that said').not.toContain('probe line 1\n')
    expect(step).toMatch(/earlier characters left out/)
    expect(messagesText(next), 'the token never reaches the model').not.toContain(PROBE_TOKEN)
    await session.waitForToast(/the automatic compaction became a checked handoff/, { mod: 'compact-handoff', since: typedMark, timeoutMs: 10_000 })
    await session.waitForScreen(/REPLY-MID-DONE/, 30_000)
    await turnSettled(session, mark)
  })
})

/** Types `typed` after a turn that reported usage near the window, the fork answered in
 * `style`; returns the request that follows and how many requests came before it. */
async function typedAtCompaction(flow: Flow, typed: string, reply: string, style: ForkStyle): Promise<{ next: MockRequest; since: number; mark: number }> {
  const { mock, session } = flow
  mock.script(forkReply(forkReplyText(DOC, style)), { when: (r) => !isForkRequest(r) && r.lastUserText.includes(typed), text: reply })
  const since = mock.requests.length
  await session.type(typed)
  const next = await nextMainRequest(flow, since)
  return { next, since, mark: session.logMark() }
}

/** The swap log's lines (the session's own file in the handoff folder's log folder). */
function swapLogLines(proj: string): Array<Record<string, unknown>> {
  return swapLogEntriesOf(proj)
}

describe('an automatic compaction at a typed prompt', () => {
  const { track } = trackRuns()
  let flow: Flow
  let first: string

  it('is answered by a fork handoff (after a sentence of its own), with the typed prompt last and verbatim', async () => {
    flow = await startFlow('fork-typed', track)
    const { session, run } = flow
    await ordinaryTurn(flow, 'TYPED-ONE')
    await ordinaryTurn(flow, 'TYPED-TWO', { inputTokens: AUTO_COMPACT_INPUT_TOKENS })

    const typed = 'ask TYPED-THREE: now the error recovery, keep the tests green'
    const filesBefore = handoffFilesIn(run.proj)
    const { next, since, mark } = await typedAtCompaction(flow, typed, 'REPLY-TYPED-THREE', 'preamble')
    first = expectAnsweredByFork(flow, since, filesBefore, next, 'ask TYPED-ONE', ['TYPED-ONE', 'TYPED-TWO'])
    expect(userBlocks(next).at(-1)?.trim(), 'the typed prompt is the last user text, verbatim').toBe(typed)
    await session.waitForScreen(/REPLY-TYPED-THREE/, 30_000)
    await turnSettled(session, mark)
  })

  it('continues the chain at the next one: a second file beside the first, its parent, seq 2, each logged', async () => {
    const { session, run } = flow
    await ordinaryTurn(flow, 'TYPED-FOUR', { inputTokens: AUTO_COMPACT_INPUT_TOKENS })
    const filesBefore = handoffFilesIn(run.proj)
    const typed = 'ask TYPED-FIVE: and then the positions'
    const { next, since, mark } = await typedAtCompaction(flow, typed, 'REPLY-TYPED-FIVE', 'plain')
    const second = expectAnsweredByFork(flow, since, filesBefore, next, 'ask TYPED-ONE', ['TYPED-THREE', 'TYPED-FOUR'])
    const firstText = readFileSync(join(run.proj, first), 'utf8')
    const secondText = readFileSync(join(run.proj, second), 'utf8')
    expect(firstText, 'the first file is left as it was').toMatch(/^seq: 1$/m)
    expect(secondText).toMatch(/^seq: 2$/m)
    expect(secondText, 'its parent is the first handoff').toMatch(new RegExp(`^parent: "?${escapeRe(first.split('\\').join('/'))}"?$`, 'm'))
    expect(secondText.match(/^chain: .*$/m)?.[0], 'one chain').toBe(firstText.match(/^chain: .*$/m)?.[0])
    const logged = swapLogLines(run.proj).filter((l) => l.outcome === 'compaction-handoff')
    expect(logged.map((l) => l.trigger), 'a log line each').toEqual(['automatic-compaction', 'automatic-compaction'])
    expect(JSON.stringify(logged.at(-1)?.files)).toContain(second.split('\\').join('/'))
    await session.waitForScreen(/REPLY-TYPED-FIVE/, 30_000)
    await turnSettled(session, mark)
  })
})

describe('a fork that never writes a handoff', () => {
  const { track } = trackRuns()

  it("falls back to the engine's summary with the outline, and leaves no file", async () => {
    const flow = await startFlow('fork-fallback', track)
    const { mock, session, run } = flow
    await ordinaryTurn(flow, 'FALL-ONE')
    await ordinaryTurn(flow, 'FALL-TWO', { inputTokens: AUTO_COMPACT_INPUT_TOKENS })

    const typed = 'ask FALL-THREE: carry on'
    mock.script(forkReply(APOLOGY_TEXT, 'handoff'), forkReply(APOLOGY_TEXT, 'repair'), { when: (r) => !isForkRequest(r) && r.lastUserText.includes(typed), text: 'REPLY-FALL-THREE' })
    const filesBefore = handoffFilesIn(run.proj)
    const since = mock.requests.length
    const mark = session.logMark()
    await session.type(typed)
    const summary = await mock.waitForRequest((r) => r.seq > since && r.kind === 'summary', 30_000)
    const next = await nextMainRequest(flow, summary.seq)

    expect(forkRequestsOf(mock.requests.filter((r) => r.seq > since)).map(forkKindOf), 'the fork, then the one repair fork, both before the summary').toEqual(['handoff', 'repair'])
    await session.waitForToast(/^no handoff was written; Claude Code's own summary replaced the conversation$/, { mod: 'compact-handoff', since: mark, timeoutMs: 10_000 })
    await session.waitForTranscriptLine(/no handoff was written at this compaction: the handoff failed the format check twice/, { plugin: 'compact-handoff', since: mark, timeoutMs: 10_000 })
    expect(summary.lastUserText, "the summariser's instructions carry the outline").toContain(OUTLINE)
    expect(summary.lastUserText, "and the person's words").toContain('ask FALL-ONE')
    expect(mock.requests.filter((r) => r.kind === 'summary'), 'one summariser request').toHaveLength(1)
    expect(handoffFilesIn(run.proj), 'no handoff file was written').toEqual(filesBefore)
    expect(messagesText(next), "the engine's summary is the conversation now").toContain('Mock summary of the conversation.')
    expect(userBlocks(next).at(-1)?.trim(), 'the typed prompt still goes last').toBe(typed)
    await session.waitForScreen(/REPLY-FALL-THREE/, 30_000)
    await turnSettled(session, mark)
  })
})

describe('Escape during the fork', () => {
  const { track } = trackRuns()

  it('keeps the conversation, asks for no summary, and the toast (named once) and the log say so', async () => {
    const flow = await startFlow('fork-escape', track)
    const { mock, session, run } = flow
    await ordinaryTurn(flow, 'ESC-ONE')
    await ordinaryTurn(flow, 'ESC-TWO', { inputTokens: AUTO_COMPACT_INPUT_TOKENS })

    const typed = 'ask ESC-THREE: carry on'
    mock.script({ ...forkReply(forkReplyText(DOC)), delayMs: 8_000 })
    const filesBefore = handoffFilesIn(run.proj)
    const since = mock.requests.length
    const mark = session.logMark()
    await session.type(typed)
    await mock.waitForRequest((r) => r.seq > since && isForkRequest(r), 30_000)
    session.pressKeys('Escape')

    const toast = await session.waitForToast(/^no handoff was written, so nothing was compacted: the conversation is kept$/, { mod: 'compact-handoff', since: mark, timeoutMs: 15_000 })
    const detail = await session.waitForTranscriptLine(/^no handoff was written at this compaction: the fork was cut short: the turn was interrupted\./, { plugin: 'compact-handoff', since: mark, timeoutMs: 15_000 })
    expect(`${toast.text} ${detail.text}`, 'no summary is said to have replaced anything').not.toMatch(/summary/)
    // The engine draws the plugin's name above the toast: the text does not say it again.
    // (The status line's row, `compact-handoff: handoff: context …`, and the detail's
    // transcript line, `● compact-handoff: no handoff was written …`, are the engine's prefix too.)
    const drawn = await session.waitForScreen(/no handoff was written/, 10_000)
    const boxes = drawn.split('\n').map((line) => line.slice(line.indexOf('│'))).filter((line) => line.startsWith('│'))
    expect(boxes.join('\n').match(/compact-handoff: /g) ?? [], 'no "compact-handoff:" inside the toast box').toEqual([])
    await pollUntil('the interrupted prompt back in the prompt box', 15_000, () => (promptBoxOf(session.screen()) === typed ? true : undefined))
    await pollUntil('the compaction logged', 10_000, () => swapLogLines(run.proj).find((l) => l.outcome === 'compaction-kept'))
    expect(swapLogLines(run.proj).at(-1)).toMatchObject({
      trigger: 'automatic-compaction',
      outcome: 'compaction-kept',
      files: [],
      reason: 'the fork was cut short: the turn was interrupted; the conversation was kept',
    })
    expect(mock.requests.filter((r) => r.kind === 'summary'), 'no summariser request').toHaveLength(0)
    expect(handoffFilesIn(run.proj), 'no handoff file was written').toEqual(filesBefore)

    // Sent again, the prompt meets the automatic compaction once more: the fork sees the
    // conversation as it was, every earlier turn in it and no summary.
    mock.script(forkReply(forkReplyText(DOC)), { when: (r) => !isForkRequest(r) && r.lastUserText.includes(typed), text: 'REPLY-ESC-THREE' })
    const again = mock.requests.length
    session.pressKeys('Enter')
    const fork = await mock.waitForRequest((r) => r.seq > again && isForkRequest(r), 30_000)
    const forkText = messagesText(fork)
    for (const tag of ['ESC-ONE', 'ESC-TWO']) expect(forkText, `REPLY-${tag} is still in the conversation`).toContain(`REPLY-${tag}`)
    expect(forkText, 'no summary replaced it').not.toContain('Mock summary of the conversation.')
    await session.waitForScreen(/REPLY-ESC-THREE/, 30_000)
  })
})

describe('option compactionHandoff: all', () => {
  const { track } = trackRuns()

  it("answers the person's /compact with a fork handoff whose focus is their words", async () => {
    const flow = await startFlow('fork-compact-all', track, { handoffOptions: { compactionHandoff: 'all' } })
    const { mock, session, run } = flow
    await ordinaryTurn(flow, 'ALL-ONE')
    await ordinaryTurn(flow, 'ALL-TWO')

    const words = 'keep the benchmarks'
    mock.script(forkReply(forkReplyText({ focus: words })))
    const filesBefore = handoffFilesIn(run.proj)
    const since = mock.requests.length
    const mark = session.logMark()
    await session.type(`/compact ${words}`)
    const fork = await mock.waitForRequest((r) => r.seq > since && isForkRequest(r), 30_000)
    await session.waitForHookSettled(HANDOFF_MOD, 'session.compact', { since: mark, timeoutMs: 30_000 })
    expect(forkPromptOf(fork), 'the fork is asked to focus on their words').toContain(words)

    const next = await ordinaryTurn(flow, 'ALL-THREE')
    const file = expectAnsweredByFork(flow, since, filesBefore, next, 'ask ALL-ONE', ['ALL-ONE', 'ALL-TWO'])
    expect(readFileSync(join(run.proj, file), 'utf8'), 'the frontmatter names the focus').toMatch(new RegExp(`^focus: "?${words}"?$`, 'm'))
  })
})

describe('option compactionHandoff: off', () => {
  const { track } = trackRuns()

  it("leaves the automatic compaction and /compact to the engine's summary with the outline, and forks nothing", async () => {
    const flow = await startFlow('fork-off', track, { handoffOptions: { compactionHandoff: 'off' } })
    const { mock, session, run } = flow
    await ordinaryTurn(flow, 'OFF-ONE')
    await ordinaryTurn(flow, 'OFF-TWO', { inputTokens: AUTO_COMPACT_INPUT_TOKENS })

    const typed = 'ask OFF-THREE: carry on'
    mock.script({ when: typed, text: 'REPLY-OFF-THREE' })
    const since = mock.requests.length
    const mark = session.logMark()
    await session.type(typed)
    const auto = await mock.waitForRequest((r) => r.seq > since && r.kind === 'summary', 30_000)
    expect(auto.lastUserText, "the automatic compaction's summariser gets the outline").toContain(OUTLINE)
    await session.waitForScreen(/REPLY-OFF-THREE/, 30_000)
    await turnSettled(session, mark)

    const beforeCompact = mock.requests.length
    await session.type('/compact keep the benchmarks')
    const manual = await mock.waitForRequest((r) => r.seq > beforeCompact && r.kind === 'summary', 30_000)
    expect(manual.lastUserText, "the person's /compact words and the outline reach the summariser").toContain('keep the benchmarks')
    expect(manual.lastUserText).toContain(OUTLINE)
    await ordinaryTurn(flow, 'OFF-FOUR')
    expect(forkRequestsOf(mock.requests), 'no fork request').toHaveLength(0)
    expect(handoffFilesIn(run.proj), 'no handoff file').toEqual([])
  })
})
