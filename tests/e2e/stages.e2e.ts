/**
 * The run's stages live, in a real session with the scripted model: the go stage held
 * open, a refused compaction retried, and a cancel at each stage whose window the
 * scripted model can hold open. Another mod, staged for the test and outer to
 * compact-handoff, does what any plugin may:
 * - it sends a prompt of its own from the skill turn's turn.complete, and the mock holds
 *   that prompt's reply open. Sent after compact-handoff's hook has queued the
 *   go-command, the prompt's turn starts right after the go-command's hook took the go
 *   step, so the engine refuses the compaction ("a turn is running"): the run goes back
 *   to the go stage and retries the go step until that turn ends, then the answer mod
 *   answers with the stub and the continue-prompt follows. Sent before, it runs first
 *   and the queued go-command waits behind it: the run sits at the go stage, where a
 *   cancel stops it, and the go-command, when it runs, changes nothing.
 * - it wraps compact-handoff's compaction and takes its time: a cancel typed while the
 *   compaction is in flight is run by the engine only once it has returned, so the swap
 *   completes and the cancel finds no run (the kit holds the "too late" answer).
 * - it holds a /compact-handoff start until the engine has taken a cancel typed after
 *   it: the engine runs that cancel before the skill's turn, which would otherwise make
 *   it wait for the turn's end on a loaded machine.
 * The launching and checking stages last a timer and a few file reads: a cancel there
 * is met live at launching (or writing, before the skill's turn) and held exactly in the
 * kit (packages/compact-handoff/tests/run/control.test.ts, interleaving.test.ts).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isSkillTurnFor, skillTurn } from '../harness/handoff-script.js'
import { startMockApi } from '../harness/mock-api.js'
import { createRunDir } from '../harness/run-dir.js'
import { writeMod } from '../harness/staging.js'
import { startSession } from '../harness/tmux-session.js'
import { trackRuns } from './lifecycle.js'
import { ANSWER_MOD, HANDOFF_MOD, PLUGIN_DIRS, expectConversationKept, expectSwapped, logEntries, messagesText, ordinaryTurn, pollUntil, promptBoxOf, requestAfter, turnSettled, type Flow } from './flow-support.js'
import { GO_COMMAND, GO_REFUSED_TEXT, STAGE_TEXT } from '../../packages/compact-handoff/hooks/run/run.js'

const PINGER = 'e2e-pinger'
const PING = 'PLUGIN-PING'
/** How long the mock holds the other mod's prompt's reply: several retries long. */
const PING_HELD_MS = 2_500
/** How long the other mod holds compact-handoff's compaction: long enough to type a cancel. */
const COMPACTION_HELD_MS = 3_000
/** The longest the other mod holds a start for the release file, so a test that dies never wedges the session. */
const START_HELD_MAX_MS = 30_000
/** The file whose existence releases a held start (in the project folder, where the mod may look). */
const START_RELEASE_FILE = '.e2e-release-start'

/** A mod that, armed by `/e2e-ping before|after`, sends one prompt of its own from the
 * next main-loop turn.complete whose answer holds the READY sentinel: before the hooks
 * beneath it run (compact-handoff's among them), or after; armed by `/e2e-ping hold`, it
 * holds compact-handoff's next compaction this long before passing it on; armed by
 * `/e2e-ping start`, it holds the next /compact-handoff before compact-handoff's hook
 * sees it, until `releaseFile` exists, as any slow hook of another plugin may. */
const pingerMod = (releaseFile: string): string => `import type { Register, EngineInterface } from 'claude-code'

let armed: string | undefined

function ping($: EngineInterface): void {
  $.prompt.submit({ text: ${JSON.stringify(PING)} }).then(
    () => $.ui.log('e2e-pinger: ping turn started', { to: 'debug' }),
    (error: unknown) => $.ui.toast('e2e-pinger refused: ' + String(error)),
  )
}

export const register: Register = (on) => {
  on('session.start', async ($, e, next) => {
    const started = await next(e)
    await $.command.register({ name: 'e2e-ping', description: 'sends one prompt at the next READY turn end, or holds the next compaction' })
    return started
  })
  on('command.run', { command: 'e2e-ping' }, ($, e) => {
    armed = e.args.trim()
    return { text: 'armed: ' + armed }
  })
  on('turn.complete', async ($, e, next) => {
    const isReady = e.agentId === undefined && (armed === 'before' || armed === 'after') && e.answer.includes('COMPACT-HANDOFF-READY')
    const when = isReady ? armed : undefined
    if (isReady) armed = undefined
    if (when === 'before') ping($)
    const completed = await next(e)
    if (when === 'after') ping($)
    return completed
  })
  on('session.compact', async ($, e, next) => {
    if (armed !== 'hold' || next.origin.plugin !== 'compact-handoff') return next(e)
    armed = undefined
    $.ui.log('e2e-pinger: holding the compaction', { to: 'debug' })
    await $.clock.sleep(${COMPACTION_HELD_MS})
    return next(e)
  })
  on('command.run', { command: 'compact-handoff' }, async ($, e, next) => {
    if (armed !== 'start') return next(e)
    armed = undefined
    $.ui.log('e2e-pinger: holding the start', { to: 'debug' })
    for (let heldMs = 0; heldMs < ${START_HELD_MAX_MS} && !(await $.fs.exists(${JSON.stringify(releaseFile)})); heldMs += 100) await $.clock.sleep(100)
    return next(e)
  })
}
`

describe('the run stage by stage: the go stage held open, a refused compaction retried, a cancel at each stage', () => {
  const { track } = trackRuns()
  let flow: Flow

  beforeAll(async () => {
    const run = createRunDir('stages')
    track(run)
    const pinger = writeMod(run, PINGER, { 'hooks/register.ts': pingerMod(join(run.proj, START_RELEASE_FILE)) })
    const mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl') })
    // The first --plugin-dir is outermost: the pinger's turn.complete wraps compact-handoff's.
    const session = await startSession({ run, plugins: [pinger, PLUGIN_DIRS.handoff, PLUGIN_DIRS.answer, PLUGIN_DIRS.skills], mock })
    track(run, session)
    await session.waitForReady({ mods: [`${PINGER}@inline`, HANDOFF_MOD, ANSWER_MOD] })
    flow = { run, mock, session }
    await ordinaryTurn(flow, 'RETRY-ONE')
  })

  afterAll(async () => {
    await flow?.mock.close()
  })

  /** The swap log's next aborted line after the `seen` ones there are: a cancel's screen
   * line is the same each time, so an earlier one still on screen proves nothing. */
  function abortedAfter(seen: number): Promise<{ reason?: string }> {
    return pollUntil('a new aborted line in the swap log', 15_000, () => logEntries(flow).filter((e) => e.outcome === 'aborted')[seen])
  }
  const abortedCount = (): number => logEntries(flow).filter((e) => e.outcome === 'aborted').length

  /** Where each of `res` first matches in the debug log from `mark`, each after the one before (-1 once one is missing). */
  function inOrder<T extends readonly RegExp[]>(mark: number, res: T): { [K in keyof T]: number } {
    const log = flow.session.debugLog().slice(mark)
    let pos = 0
    return res.map((re) => {
      const i = pos < 0 ? -1 : log.slice(pos).search(re)
      pos = i < 0 ? -1 : pos + i
      const at = pos
      if (pos >= 0) pos++
      return at
    }) as { [K in keyof T]: number }
  }

  /** Where `re` last matches in `text`, -1 if nowhere. */
  function lastAt(text: string, re: RegExp): number {
    let at = -1
    for (const m of text.matchAll(new RegExp(re.source, 'g'))) at = m.index
    return at
  }

  it('a compaction refused while another turn runs goes back to the go stage, and the retried go step swaps', async () => {
    const { mock, session, run } = flow
    const t0 = Date.now()
    await session.type('/e2e-ping after')
    await session.waitForScreen(/armed: after/, 15_000)
    const turn = skillTurn({ proj: run.proj, doc: { slug: 'retried', date: '2026-12-01', focus: 'retried' }, continuePrompt: 'Continue from the retried handoff.' })
    mock.script(...turn.replies, { when: PING, text: 'REPLY-PLUGIN-PING', delayMs: PING_HELD_MS }, { when: turn.continuePrompt, text: 'REPLY-AFTER-RETRY' })
    const mark = session.logMark()
    const before = mock.requests.length
    await session.type('/compact-handoff retried')
    const skill = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'retried'), 30_000)
    const ping = await requestAfter(mock, skill.seq, PING)
    const next = await requestAfter(mock, ping.seq, turn.continuePrompt)
    console.log(`e2e stages: refused then retried ${Date.now() - t0} ms`)
    expectSwapped(next, turn.continuePrompt, [`Handoff file: ${turn.handoffPath}`])
    expect(mock.requests.some((r) => r.kind === 'summary'), 'no summariser request').toBe(false)
    await session.waitForScreen(/REPLY-AFTER-RETRY/, 30_000)
    await session.waitForDebugLog(/session\.compact \(plugin\)[^\n]*core never ran/, { since: mark, timeoutMs: 15_000 })

    // The stages: the go stage, the go-command queued and answered by compact-handoff's
    // own hook, the go step; the other turn starts and the compaction is refused; back
    // at the go stage, the go step again, until that turn has ended and one goes through.
    // The retry timer takes the go step whenever it fires: under load the one that swaps
    // was seen taken 4 ms before the engine logged the turn's end (2.1.332). What must
    // wait for the end is the compaction that go step puts on a timer.
    const [going, queued, ran, swapping, pingStart, refused, back, pingEnd, stood] = inOrder(mark, [
      /\$\.ui\.status \(compact-handoff\): handoff: swap queued/,
      /\$\.command\.run \(compact-handoff\): \d+ chars queued/,
      /compact-handoff@inline: command\.run nested in/,
      /\$\.ui\.status \(compact-handoff\): handoff: replacing the conversation/,
      /\[engine\] turn \d+ start/,
      /\$\.ui\.log[^\n]*the swap's compaction was refused \([^\n]*a turn is running/,
      /\$\.ui\.status \(compact-handoff\): handoff: swap queued/,
      /\[engine\] turn \d+ end/,
      /session\.compact \(plugin\)[^\n]*core never ran/,
    ] as const)
    const log = session.debugLog().slice(mark)
    // The go step whose compaction stood, and the last refusal and go stage before it.
    const beforeStood = log.slice(0, Math.max(stood, 0))
    const lastRefused = lastAt(beforeStood, /the swap's compaction was refused/)
    const lastBack = lastAt(beforeStood, /\$\.ui\.status \(compact-handoff\): handoff: swap queued/)
    const retried = lastAt(beforeStood, /\$\.ui\.status \(compact-handoff\): handoff: replacing the conversation/)
    const refusals = (log.slice(pingStart, pingEnd).match(/the swap's compaction was refused/g) ?? []).length
    console.log(`e2e stages: ${refusals} compaction(s) refused while the other turn ran`)
    expect(going, 'the go stage').toBeGreaterThan(-1)
    expect(queued, 'the go-command queued').toBeGreaterThan(going)
    expect(ran, "compact-handoff's own command.run hook ran it").toBeGreaterThan(queued)
    expect(swapping, 'the go step taken').toBeGreaterThan(ran)
    expect(pingStart, "the other mod's turn started after the go step").toBeGreaterThan(swapping)
    expect(refused, 'the engine refused the compaction while that turn ran').toBeGreaterThan(pingStart)
    expect(back, 'back at the go stage').toBeGreaterThan(refused)
    expect(pingEnd, 'that turn ended').toBeGreaterThan(back)
    expect(stood, 'the compaction the answer mod answered, once that turn had ended').toBeGreaterThan(pingEnd)
    expect(lastBack, 'back at the go stage after the last refusal').toBeGreaterThan(lastRefused)
    expect(retried, 'the go step retried from there').toBeGreaterThan(lastBack)
    expect(log.slice(0, pingEnd), 'no compaction went through while the turn ran').not.toMatch(/core never ran/)
    // The swap's line is written once the continue-prompt's turn has started.
    const swapped = await pollUntil('the swap log line', 10_000, () => logEntries(flow).find((e) => e.outcome === 'swapped'))
    expect(swapped.files).toEqual([turn.handoffPath])
  })

  it('with the go-command queued behind another turn, the run waits at the go stage, where a cancel stops it', async () => {
    const { mock, session, run } = flow
    const t0 = Date.now()
    await ordinaryTurn(flow, 'RETRY-TWO')
    await session.type('/e2e-ping before')
    await session.waitForScreen(/armed: before/, 15_000)
    const turn = skillTurn({ proj: run.proj, doc: { slug: 'go-cancelled', date: '2026-12-01', focus: 'go cancelled' } })
    mock.script(...turn.replies, { when: PING, text: 'REPLY-PLUGIN-PING-TWO', delayMs: 3 * PING_HELD_MS })
    const start = session.logMark()
    const before = mock.requests.length
    await session.type('/compact-handoff go cancelled')
    const skill = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'go cancelled'), 30_000)
    await requestAfter(mock, skill.seq, PING)
    await session.waitForDebugLog(/\$\.ui\.status \(compact-handoff\): handoff: swap queued/, { since: start, timeoutMs: 15_000 })
    const mark = session.logMark()
    const aborts = abortedCount()
    await session.type('/compact-handoff cancel')
    await session.waitForScreen(/Handoff run cancelled\. The conversation is unchanged\./, 15_000)
    const aborted = await abortedAfter(aborts)
    expect(aborted.reason, 'the swap log names the stage').toBe(`cancelled at "${STAGE_TEXT.going}"`)
    expect(session.debugLog().slice(start, mark), 'the go-command had not run yet').not.toMatch(/compact-handoff@inline: command\.run nested in/)
    // The other turn ends; the go-command queued behind it then runs and finds no run.
    await session.waitForScreen(/REPLY-PLUGIN-PING-TWO/, 30_000)
    await session.waitForDebugLog(/compact-handoff@inline: command\.run nested in/, { since: mark, timeoutMs: 15_000 })
    await turnSettled(session, mark)
    const probe = await expectConversationKept(flow, 'PROBE-GO-CANCEL', ['RETRY-TWO', 'PLUGIN-PING-TWO'], start)
    // What the go-command that ran after the cancel left in the conversation the model reads.
    const text = messagesText(probe)
    const at = text.indexOf(GO_COMMAND)
    console.log(`e2e stages: the stale go-command in the next request: ${at < 0 ? 'absent' : text.slice(Math.max(0, at - 200), at + 400)}`)
    // The engine keeps a plugin-run command as a command row the model reads; the run id
    // is not in it (2.1.332 records the arguments empty).
    expect(text, 'the go-command is a command row of the conversation').toContain(`<command-name>/${GO_COMMAND}</command-name>`)
    expect(text.slice(at, at + 300)).toContain('<command-args></command-args>')
    expect(text, 'its answer is for the person alone: the model does not read it').not.toContain(GO_REFUSED_TEXT)
    console.log(`e2e stages: cancel at the go stage ${Date.now() - t0} ms`)
  })

  it('a cancel typed while the compaction is in flight never stops it: the swap completes, and the cancel says so or finds no run', async () => {
    const { mock, session, run } = flow
    const t0 = Date.now()
    await ordinaryTurn(flow, 'RETRY-THREE')
    await session.type('/e2e-ping hold')
    await session.waitForScreen(/armed: hold/, 15_000)
    const turn = skillTurn({ proj: run.proj, doc: { slug: 'too-late', date: '2026-12-01', focus: 'too late' }, continuePrompt: 'Continue from the too-late handoff.' })
    mock.script(...turn.replies, { when: turn.continuePrompt, text: 'REPLY-AFTER-TOO-LATE' })
    const start = session.logMark()
    const before = mock.requests.length
    await session.type('/compact-handoff too late')
    const skill = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'too late'), 30_000)
    await session.waitForDebugLog(/e2e-pinger: holding the compaction/, { since: start, timeoutMs: 30_000 })
    const mark = session.logMark()
    await session.type('/compact-handoff cancel')
    // Seen both ways live (2.1.332): the engine runs the typed command once the
    // compaction has returned (no run is left), or while it is still in flight
    // (the run is swapping: too late). Neither stops the swap.
    const screen = await session.waitForScreen(/compact-handoff: (?:No handoff run to cancel\.|Too late to cancel)/, 15_000)
    const isTooLate = /compact-handoff: Too late to cancel/.test(screen)
    console.log(`e2e stages: the cancel typed during the compaction was answered ${isTooLate ? 'while it was in flight (too late)' : 'after it returned (no run)'}`)
    const log = session.debugLog().slice(mark)
    expect(log.indexOf('core never ran'), 'the answer mod answered the compaction').toBeGreaterThan(-1)
    if (!isTooLate) expect(log.indexOf('core never ran'), 'the compaction returned before the cancel ran').toBeLessThan(log.search(/compact-handoff@inline command\.run settled/))
    const next = await requestAfter(mock, skill.seq, turn.continuePrompt)
    expectSwapped(next, turn.continuePrompt, [`Handoff file: ${turn.handoffPath}`])
    await session.waitForScreen(/REPLY-AFTER-TOO-LATE/, 30_000)
    await pollUntil('the swap log line', 10_000, () => logEntries(flow).find((e) => e.outcome === 'swapped' && e.files?.[0] === turn.handoffPath))
    console.log(`e2e stages: a cancel typed during the compaction ${Date.now() - t0} ms`)
  })

  it('a cancel at review stops the reviewed run: apply then finds nothing, and the conversation is kept', async () => {
    const { mock, session, run } = flow
    await ordinaryTurn(flow, 'REVIEW-ONE')
    const turn = skillTurn({ proj: run.proj, doc: { slug: 'review-cancelled', date: '2026-12-01', focus: 'review cancelled' } })
    mock.script(...turn.replies)
    const start = session.logMark()
    const before = mock.requests.length
    await session.type('/compact-handoff review review cancelled')
    await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'review cancelled'), 30_000)
    await session.waitForScreen(/\/compact-handoff apply/, 30_000)
    const aborts = abortedCount()
    await session.type('/compact-handoff cancel')
    expect((await abortedAfter(aborts)).reason, 'the swap log names the stage').toBe(`cancelled at "${STAGE_TEXT.reviewed}"`)
    await session.type('/compact-handoff apply')
    await session.waitForScreen(/Nothing to apply: start one with \/compact-handoff review/, 15_000)
    await expectConversationKept(flow, 'PROBE-REVIEW-CANCEL', ['REVIEW-ONE'], start)
  })

  it('a cancel typed straight after the start stops the run before the skill writes anything', async () => {
    const { mock, session, run } = flow
    await ordinaryTurn(flow, 'LAUNCH-ONE')
    const turn = skillTurn({ proj: run.proj, doc: { slug: 'launch-cancelled', date: '2026-12-01', focus: 'launch cancelled' } })
    mock.script(...turn.replies)
    await session.type('/e2e-ping start')
    await session.waitForScreen(/armed: start/, 15_000)
    const start = session.logMark()
    const before = mock.requests.length
    const aborts = abortedCount()
    // A slash command typed while a turn runs waits for that turn's end (2.1.332: "Queued"),
    // so a cancel the engine takes once the skill's turn has started meets the check. The
    // other mod holds the start until the engine has taken the typed cancel: the engine
    // then runs the cancel after the start, before the skill's turn, however slow the typing.
    await session.type('/compact-handoff launch cancelled')
    await session.waitForDebugLog(/e2e-pinger: holding the start/, { since: start, timeoutMs: 15_000 })
    await session.type('/compact-handoff cancel')
    await pollUntil('the engine to take the typed cancel', 15_000, () => (promptBoxOf(session.screen()).includes('cancel') ? undefined : true))
    writeFileSync(join(run.proj, START_RELEASE_FILE), '')
    const { reason } = await abortedAfter(aborts)
    console.log(`e2e stages: the cancel typed after the start met: ${reason}`)
    expect(reason).toMatch(new RegExp(`^cancelled at "(?:${STAGE_TEXT.launching}|${STAGE_TEXT.writing})"$`))
    // Met at launching, the launch timer finds nothing to do: the skill never runs.
    if (reason === `cancelled at "${STAGE_TEXT.launching}"`) await expectConversationKept(flow, 'PROBE-LAUNCH-CANCEL', ['LAUNCH-ONE'], start)
    else await session.waitForScreen(/COMPACT-HANDOFF-READY: \.claude\/handoffs\/HANDOFF_launch-cancelled/, 30_000)
    if (reason === `cancelled at "${STAGE_TEXT.launching}"`) expect(mock.requests.slice(before).some((r) => isSkillTurnFor(r.lastUserText, 'launch cancelled')), 'the skill never ran').toBe(false)
    else await expectConversationKept(flow, 'PROBE-LAUNCH-CANCEL', ['LAUNCH-ONE'], start)
  })
})
