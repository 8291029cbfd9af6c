// The start-of-session offer: only the person's own handoff (written through a
// Write the mod heard, unchanged since), recent and never used; none where
// nobody is at the prompt; one file read, whatever the folders hold.
import { describe, expect } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import type { Engine } from 'claude-code/testing'
import { CWD, swapLogEntries, world, type World } from '../support/world.js'
import { TOASTS } from '../../hooks/text/toasts.js'
import { ANSWER_STAND_IN } from '../support/answer-stand-in.js'
import { skillWrite, typeCommand } from '../support/engine-calls.js'
import { skillWritesFile, skillWritesHandoff, startSession, typeAndLaunch } from '../support/flow.js'
import { DIR, HOUR_MS, placeOnDisk, settle, settleOffer, withHandoffStatus } from '../support/resume-support.js'
import { ownRecordsIn } from '../support/records.js'
import { recordStoreKeyOf } from '../../hooks/ownership/ownership.js'

const MINE = `${DIR}/HANDOFF_recent_2026-11-30.md`

/** An earlier session wrote the handoff, `ageMs` passes, and a new session starts. */
async function writtenThenNewSession($: Engine, w: World, ageMs: number, isInteractive = true) {
  await skillWritesFile($, w, MINE, withHandoffStatus('in-progress'))
  await w.clock.advance(ageMs)
  w.seen.reads.length = 0
  await $.session.start({ cwd: CWD, surface: isInteractive ? 'terminal' : null, isInteractive })
  await settleOffer(w)
}

function offers(w: World): string[] {
  return w.seen.toasts.filter((t) => t.includes('picks up your handoff of'))
}

describe('the start-of-session offer', () => {
  test('names the newest own recent handoff with work left, once', async ($, on) => {
    const w = world(on)
    await writtenThenNewSession($, w, 2 * HOUR_MS)
    expect(w.seen.toasts).toEqual([TOASTS.offer(MINE, 2 * HOUR_MS).text])
    expect(w.seen.toasts[0]).toMatch(/^\/compact-handoff resume picks up your handoff of 2 h ago: .*HANDOFF_recent_2026-11-30\.md$/)
    expect(w.seen.gitCalls).toEqual([])
  })

  test("never names a file whose record is stored under another file's key", async ($, on) => {
    const w = world(on)
    await skillWritesFile($, w, MINE, withHandoffStatus('in-progress'))
    const [record] = ownRecordsIn(w.store)
    // Moved by a hand edit of the store: under another file's key, the record names MINE, which is on disk as it says.
    for (const key of [...w.store.keys()]) if (key.startsWith('owned:')) w.store.delete(key)
    w.store.set(await recordStoreKeyOf(`${CWD}/${DIR}/HANDOFF_other_2026-11-30.md`), record)
    await w.clock.advance(HOUR_MS)
    await $.session.start({ cwd: CWD, surface: 'terminal', isInteractive: true })
    await settleOffer(w)
    expect(offers(w)).toEqual([])
  })

  test('never names a handoff placed from elsewhere, however recent', async ($, on) => {
    const w = world(on)
    placeOnDisk(w, [{ name: 'HANDOFF_unpacked_2026-11-30.md', status: 'in-progress', ageMs: 10 }])
    await startSession($)
    await settleOffer(w)
    expect(w.seen.toasts).toEqual([])
    expect(w.seen.gitCalls).toEqual([])
  })

  test('stays quiet for an own handoff over 24 hours old', async ($, on) => {
    const w = world(on)
    await writtenThenNewSession($, w, 25 * HOUR_MS)
    expect(w.seen.toasts).toEqual([])
  })

  test('stays quiet once the file was resumed', async ($, on) => {
    const w = world(on)
    await writtenThenNewSession($, w, HOUR_MS)
    expect(offers(w).length).toBe(1)
    await typeCommand($, 'compact-handoff', 'resume')
    await settle(w)
    await $.session.start({ cwd: CWD, surface: 'terminal', isInteractive: true })
    await settleOffer(w)
    expect(offers(w).length).toBe(1)
  })

  test('stays quiet once the file was swapped in', { plugins: [ANSWER_STAND_IN] }, async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    expect(swapLogEntries(w).at(-1)?.outcome).toBe('swapped')
    await $.session.start({ cwd: CWD, surface: 'terminal', isInteractive: true })
    await settleOffer(w)
    expect(offers(w)).toEqual([])
  })

  test('stays quiet once the file changed since it was written', async ($, on) => {
    const w = world(on)
    await startSession($)
    await skillWritesFile($, w, MINE, withHandoffStatus('in-progress'))
    w.writeFile(MINE, withHandoffStatus('in-progress').replace('42 passed', '43 passed'))
    await $.session.start({ cwd: CWD, surface: 'terminal', isInteractive: true })
    await settleOffer(w)
    expect(w.seen.toasts).toEqual([])
  })

  test('is made again after /clear, which starts a fresh conversation without a session start', async ($, on) => {
    const w = world(on)
    await writtenThenNewSession($, w, 10)
    await $.session.end({ reason: 'clear', sessionId: 'session-1', resume: { sessionId: 'session-1' } as never })
    await settleOffer(w)
    expect(offers(w).length).toBe(2)
  })

  test('stays quiet when the conversation was resumed, not new', async ($, on) => {
    const w = world(on, { messageCount: 4 })
    await writtenThenNewSession($, w, 10)
    expect(w.seen.toasts).toEqual([])
  })

  test('is not made where nobody is at the prompt (-p, the SDK), at start or after /clear', async ($, on) => {
    const w = world(on)
    await writtenThenNewSession($, w, 10, false)
    await $.session.end({ reason: 'clear', sessionId: 'session-1', resume: { sessionId: 'session-1' } as never })
    await settleOffer(w)
    expect(w.seen.toasts).toEqual([])
    expect(w.seen.reads).toEqual([])
  })

  test('reads one file, whatever else the folders hold', async ($, on) => {
    const w = world(on)
    placeOnDisk(w, Array.from({ length: 300 }, (_, i) => ({ name: `HANDOFF_other-${i}_2026-11-30.md`, status: 'in-progress', ageMs: i })))
    await writtenThenNewSession($, w, 10)
    expect(offers(w).length).toBe(1)
    expect(w.seen.reads.map((r) => r.path)).toEqual([`${CWD}/${MINE}`])
  })
})

describe('the records of own files', () => {
  test('keep both files of one turn\'s parallel Writes (a handoff and its plan): neither write loses the other\'s record', async ($, on) => {
    const w = world(on)
    await startSession($)
    const plan = `${DIR}/PLAN_recent_2026-11-30.md`
    w.writeFile(MINE, withHandoffStatus('in-progress'))
    w.writeFile(plan, withHandoffStatus('in-progress'))
    await Promise.all([skillWrite($, MINE, withHandoffStatus('in-progress')), skillWrite($, plan, withHandoffStatus('in-progress'))])
    await settleOffer(w)
    const keys = ownRecordsIn(w.store).map((r) => r.key).sort()
    expect(keys).toEqual([`${CWD}/${MINE}`, `${CWD}/${plan}`].sort())
  })
})
