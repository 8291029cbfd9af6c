// The mod's store (`$.store`, one JSON file outside the project, 4 MiB in all):
// held messages are kept there from the moment they are held, per session and
// folder, so a killed session leaves them for the next one; a store an earlier
// version filled still takes a new record and held messages; and another
// session's set of the records, made from an older read, drops nothing.
import { describe, expect, type Engine } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { CWD, HANDOFF, world, type World } from '../support/world.js'
import { STORE_LIMIT_CHARS } from '../support/beneath.js'
import { endTurn, submitPrompt, typeCommand } from '../support/engine-calls.js'
import { handoffText, readyAnswer } from '../support/texts.js'
import { skillWritesFile, startSession, typeAndLaunch } from '../support/flow.js'
import { LEGACY_KEPT_KEY, heldKeyOf } from '../../hooks/run/held-messages.js'
import { ownershipKeyOf, recordsOf } from '../../hooks/ownership/ownership.js'

const HELD = 'typed while the run went on'
const SECOND = 'and a second thought'
const OWN_KEY = heldKeyOf('session-1', CWD)
const STOPPED_TOAST = /^2 message\(s\) you typed during a handoff run, held by a session here that stopped before it could deliver them \(last held .*\), are back in the prompt box\.$/

async function settle(w: World) {
  for (let i = 0; i < 3; i++) {
    await w.clock.settle()
    await w.clock.advance(0)
  }
  await w.clock.settle()
}

/** A run under way holding two messages, as typed while its skill's turn ran. */
async function runHoldingTwo($: Engine, w: World) {
  await startSession($)
  await typeAndLaunch($, w, 'compact-handoff', '')
  expect(await submitPrompt($, HELD)).toEqual({ drop: 'held by compact-handoff until its swap is done' })
  expect(await submitPrompt($, SECOND)).toEqual({ drop: 'held by compact-handoff until its swap is done' })
  await settle(w)
}

/** A record as an earlier version stored it: the frontmatter's status kept whole. */
function bloatedRecord(i: number, statusChars: number) {
  const path = `${CWD}/.claude/handoffs/HANDOFF_old${i}_2026-11-01.md`
  return { key: path, path, sha256: 'b'.repeat(64), bytes: 10, writtenAtMs: i, status: 'x'.repeat(statusChars) }
}

describe('held messages in the store', () => {
  test('are kept the moment they are held, so a session killed mid-run (no session.end) leaves them for the next one here', async ($, on) => {
    const w = world(on)
    await runHoldingTwo($, w)
    expect(w.store.get(OWN_KEY), 'outside the session at once').toEqual({ cwd: CWD, messages: [HELD, SECOND], heldAt: expect.any(String) })
    // Killed: no session.end. The next process in this folder is another session.
    w.setSessionId('session-2')
    await startSession($)
    await settle(w)
    expect(w.box()).toBe(`${HELD}\n\n${SECOND}`)
    expect(w.seen.toasts.at(-1)).toBe('2 message(s) you typed during a handoff run are back in the prompt box')
    expect(w.seen.logs).toContainEqual(expect.stringMatching(STOPPED_TOAST))
    expect(w.store.has(OWN_KEY), 'taken once the box has them').toBe(false)
  })

  test("are per session and folder: another folder's stay, and a hot reload leaves its own run's alone", async ($, on) => {
    const elsewhere = heldKeyOf('session-9', '/srv/other')
    const theirs = { cwd: '/srv/other', messages: ['for the other project'], heldAt: '2026-11-30T10:00:00.000Z' }
    const w = world(on, { store: { [elsewhere]: theirs } })
    await runHoldingTwo($, w)
    // A hot reload runs session.start again in the same session: its run still holds them.
    await startSession($)
    await settle(w)
    expect(w.box()).toBe('')
    expect(w.store.get(OWN_KEY)).toMatchObject({ messages: [HELD, SECOND] })
    w.setSessionId('session-2')
    await startSession($)
    await settle(w)
    expect(w.box()).toBe(`${HELD}\n\n${SECOND}`)
    expect(w.store.get(elsewhere), "another project's messages are not this folder's").toEqual(theirs)
  })

  test('leave the store once delivered by the swap, and once given back by a cancel', async ($, on) => {
    const w = world(on)
    await runHoldingTwo($, w)
    await skillWritesFile($, w, HANDOFF, handoffText())
    await endTurn($, readyAnswer([HANDOFF], 'Go on.'))
    await settle(w)
    expect(w.seen.submits.filter((s) => s.asUser).map((s) => s.text)).toEqual([expect.stringContaining(SECOND)])
    expect(w.store.has(OWN_KEY), 'delivered: nothing left for a next session').toBe(false)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await submitPrompt($, HELD)
    await settle(w)
    expect(w.store.has(OWN_KEY)).toBe(true)
    await typeCommand($, 'compact-handoff', 'cancel')
    await settle(w)
    expect(w.box()).toBe(HELD)
    expect(w.store.has(OWN_KEY), 'given back: nothing left for a next session').toBe(false)
  })

  test('leave the store once /clear gives them back, though the session id changed with it', async ($, on) => {
    const w = world(on)
    await runHoldingTwo($, w)
    w.setSessionId('session-after-clear')
    await $.session.end({ reason: 'clear', sessionId: 'session-1', resume: { id: 'session-1' } })
    await settle(w)
    expect(w.box()).toBe(`${HELD}\n\n${SECOND}`)
    expect([...w.store.keys()].filter((k) => k.startsWith('held:')), 'nothing left for a next session to give back again').toEqual([])
  })

  test("an earlier version's one list still gives back this folder's, and keeps the others'", async ($, on) => {
    const other = { cwd: '/srv/other', messages: ['theirs'], endedAt: '2026-11-30T09:00:00.000Z' }
    const w = world(on, { store: { [LEGACY_KEPT_KEY]: [{ cwd: CWD, messages: [HELD], endedAt: '2026-11-30T10:00:00.000Z' }, other] } })
    await startSession($)
    await settle(w)
    expect(w.box()).toBe(HELD)
    expect(w.store.get(LEGACY_KEPT_KEY)).toEqual([other])
  })
})

describe('a store an earlier version filled', () => {
  test('still keeps held messages and records a new handoff', async ($, on) => {
    // Eight records whose status was kept whole: the store just under its limit.
    const records = Array.from({ length: 8 }, (_, i) => bloatedRecord(i, 520_000))
    const w = world(on, { store: { ownedFiles: records } })
    expect(JSON.stringify(Object.fromEntries(w.store)).length).toBeGreaterThan(STORE_LIMIT_CHARS - 100_000)
    await runHoldingTwo($, w)
    expect(w.store.get(OWN_KEY), 'held messages have room').toMatchObject({ messages: [HELD, SECOND] })
    await skillWritesFile($, w, HANDOFF, handoffText())
    expect(recordsOf(w.store.get('ownedFiles')).map((r) => r.key)).toContain(ownershipKeyOf(CWD, HANDOFF))
    expect(recordsOf(w.store.get('ownedFiles')).filter((r) => r.status !== undefined), 'no status but a known one').toEqual([
      expect.objectContaining({ key: ownershipKeyOf(CWD, HANDOFF), status: 'in-progress' }),
    ])
    expect(JSON.stringify(w.store.get('ownedFiles')).length).toBeLessThan(1024 * 1024)
  })
})

describe('two sessions setting the records', () => {
  test("one that set them from a read older than this one's set drops nothing: both records stay", async ($, on) => {
    const w = world(on)
    const theirs = bloatedRecord(1, 0)
    const { status: _status, ...theirRecord } = theirs
    // The other session read the records (none yet) before this one's set, and sets its own after it.
    w.setAfterNextSet('ownedFiles', () => [theirRecord])
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesFile($, w, HANDOFF, handoffText())
    await settle(w)
    expect(recordsOf(w.store.get('ownedFiles')).map((r) => r.key).sort()).toEqual([theirRecord.key, ownershipKeyOf(CWD, HANDOFF)].sort())
  })
})
