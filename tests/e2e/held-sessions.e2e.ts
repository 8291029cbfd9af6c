/**
 * Issue 39 in real sessions, model scripted: held messages and the sessions around them.
 * - Two sessions in one project, each holding a message of its own at once: the second
 *   leaves the first's alone (its owner still beats), each delivers its own, once, into
 *   its own conversation, and no prompt box keeps a copy.
 * - A session killed while it holds: the other session, already running, takes the
 *   message once the heartbeat has stopped.
 * - Held messages typed under load (two busy loops beside the session): the engine puts
 *   a dropped prompt back in the box once the whole hook chain has answered, which can
 *   land after the mod first looks; a mod outer to compact-handoff that answers a drop
 *   1.5 s late makes it land late every time. The box is still cleared, and a cancel
 *   gives each back once.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { isSkillTurnFor, skillTurn } from '../harness/handoff-script.js'
import { startMockApi } from '../harness/mock-api.js'
import { startSession } from '../harness/tmux-session.js'
import { createRunDir } from '../harness/run-dir.js'
import { writeMod } from '../harness/staging.js'
import { ORPHANED_AFTER_MS, HEARTBEAT_MS } from '../../packages/compact-handoff/hooks/run/held-messages.js'
import { trackRuns } from './lifecycle.js'
import { ANSWER_MOD, HANDOFF_MOD, PLUGIN_DIRS, messagesText, ordinaryTurn, pollUntil, promptBoxOf, requestAfter, reviewRunHolding, startFlow, turnSettled, type Flow } from './flow-support.js'

/** A second session in `flow`'s project, with a mock of its own, ready. */
async function secondSession(flow: Flow, track: Parameters<typeof startFlow>[1]): Promise<Flow> {
  const mock = await startMockApi({ logFile: join(flow.run.dir, 'mock-second.jsonl') })
  const session = await startSession({ run: flow.run, plugins: [PLUGIN_DIRS.handoff, PLUGIN_DIRS.answer, PLUGIN_DIRS.skills], mock })
  track(flow.run, session)
  await session.waitForReady({ mods: [HANDOFF_MOD, ANSWER_MOD] })
  return { run: flow.run, mock, session }
}

/** `/compact-handoff apply` of the review run `slug` holds; the first request after its swap. */
async function applyReviewed(flow: Flow, slug: string) {
  const { mock, session, run } = flow
  const turn = skillTurn({ proj: run.proj, doc: { slug, focus: slug } })
  const mark = mock.requests.length
  const logMark = session.logMark()
  await session.type('/compact-handoff apply')
  const next = await requestAfter(mock, mark, turn.continuePrompt, 60_000)
  await turnSettled(session, logMark, 60_000)
  return next
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const LATE_DROP_MOD = 'late-drop'
const LATE_DROP_SOURCE = `import type { Register } from 'claude-code'

export const register: Register = (on) => {
  on('prompt.submit', async ($, e, next) => {
    const result = await next(e)
    if (result.drop !== undefined) await $.clock.sleep(1500)
    return result
  })
}
`

/** A text without its white space: the box wraps long lines on screen. */
const squashed = (text: string) => text.replace(/\s+/g, '')

describe('held messages between sessions in one project', () => {
  const { track } = trackRuns()

  it('two sessions holding at once: each delivers its own, once, into its own conversation', { timeout: 360_000 }, async () => {
    const a = await startFlow('held-sessions-two', track)
    await ordinaryTurn(a, 'TWO-A')
    const heldA = 'Session A: keep the old flag until the next release.'
    await reviewRunHolding(a, 'two-a', heldA)

    const b = await secondSession(a, track)
    // B's first look is at its start; two beats later A's entry is still A's.
    await sleep(2 * HEARTBEAT_MS)
    expect(promptBoxOf(b.session.screen()), "B leaves A's held message alone").toBe('')
    expect(b.session.toasts().filter((t) => /you typed during a handoff run/.test(t.text))).toEqual([])
    await ordinaryTurn(b, 'TWO-B')
    const heldB = 'Session B: the lexer stays as it is.'
    await reviewRunHolding(b, 'two-b', heldB)

    const [nextA, nextB] = await Promise.all([applyReviewed(a, 'two-a'), applyReviewed(b, 'two-b')])
    expect(messagesText(nextA).split(heldA).length - 1, "A's message, once, in A's conversation").toBe(1)
    expect(messagesText(nextA)).not.toContain(heldB)
    expect(messagesText(nextB).split(heldB).length - 1, "B's message, once, in B's conversation").toBe(1)
    expect(messagesText(nextB)).not.toContain(heldA)
    const seenByB = b.mock.requests.filter((r) => messagesText(r).includes(heldA)).map((r) => r.seq)
    expect(seenByB, "A's message never reaches B's model").toEqual([])
    expect(promptBoxOf(a.session.screen())).toBe('')
    expect(promptBoxOf(b.session.screen())).toBe('')
  })

  it('a session killed while it holds: the other one, running, takes the message once the heartbeat has stopped', { timeout: 300_000 }, async () => {
    const a = await startFlow('held-sessions-kill', track)
    await ordinaryTurn(a, 'KILL-A')
    const held = 'Do not rename the public API in this change.'
    await reviewRunHolding(a, 'kill-a', held)
    const b = await secondSession(a, track)
    await sleep(HEARTBEAT_MS)
    expect(promptBoxOf(b.session.screen()), 'A still runs: nothing taken yet').toBe('')
    const killedAt = Date.now()
    await a.session.crash()
    await b.session.waitForToast(/^1 message\(s\) you typed during a handoff run are back in the prompt box$/, { mod: 'compact-handoff', timeoutMs: ORPHANED_AFTER_MS + 60_000 })
    await pollUntil('the held text in the second prompt box', 15_000, () => (promptBoxOf(b.session.screen()) === held ? true : undefined))
    console.log(`e2e held-sessions: taken ${Date.now() - killedAt} ms after the kill`)
  })
})

describe('held messages typed under load', () => {
  const { track } = trackRuns()
  const loops: ChildProcess[] = []
  afterEach(() => {
    for (const loop of loops.splice(0)) loop.kill('SIGKILL')
  })

  it('with two busy loops beside the session and the drop landing late: each held message leaves the box, and a cancel gives each back once', { timeout: 300_000 }, async () => {
    const run = createRunDir('held-under-load')
    track(run)
    // Outer to compact-handoff (it depends on it), this mod answers a dropped prompt
    // 1.5 s late: the engine puts the text back only then, as it does late under load.
    const late = writeMod(run, LATE_DROP_MOD, {
      '.claude-plugin/plugin.json': JSON.stringify({ name: LATE_DROP_MOD, version: '0.0.0', description: 'e2e throwaway mod', author: { name: 'e2e' }, dependencies: ['compact-handoff'] }),
      'hooks/register.ts': LATE_DROP_SOURCE,
    })
    const mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl') })
    const session = await startSession({ run, plugins: [PLUGIN_DIRS.handoff, PLUGIN_DIRS.answer, PLUGIN_DIRS.skills, late], mock })
    track(run, session)
    await session.waitForReady({ mods: [HANDOFF_MOD, ANSWER_MOD, `${LATE_DROP_MOD}@inline`] })
    const flow: Flow = { run, mock, session }
    await ordinaryTurn(flow, 'LOAD-ONE')
    const turn = skillTurn({ proj: run.proj, doc: { slug: 'held-load', focus: 'held load' } })
    // The skill's answer waits long enough for three messages typed under load;
    // the cancel, typed during the turn, is queued behind it.
    turn.replies[1] = { ...turn.replies[1]!, delayMs: 25_000 }
    mock.script(...turn.replies)
    const before = mock.requests.length
    await session.type('/compact-handoff held load')
    await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'held load'), 30_000)
    for (let i = 0; i < 2; i++) loops.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }))
    const held = ['Under load, first: keep the CRLF case.', 'Under load, second: keep the tests green.', 'Under load, third: no new dependencies.']
    for (const text of held) {
      const mark = session.logMark()
      await session.type(text)
      await session.waitForDebugLog(/prompt\.submit: dropped \(held by compact-handoff/, { since: mark, timeoutMs: 30_000 })
      // Past the put-back: the box must end empty and stay so.
      await pollUntil(`"${text}" to leave the prompt box`, 15_000, () => (promptBoxOf(session.screen()) === '' ? true : undefined))
      await sleep(1_500)
      expect(promptBoxOf(session.screen()), `"${text}" stays out of the box`).toBe('')
    }
    for (const loop of loops.splice(0)) loop.kill('SIGKILL')
    await session.type('/compact-handoff cancel')
    await pollUntil('the held texts back in the prompt box', 60_000, () => (held.every((t) => squashed(promptBoxOf(session.screen())).includes(squashed(t))) ? true : undefined))
    await sleep(1_500)
    const box = squashed(promptBoxOf(session.screen()))
    for (const text of held) expect(box.split(squashed(text)).length - 1, `"${text}" given back once`).toBe(1)
  })
})
