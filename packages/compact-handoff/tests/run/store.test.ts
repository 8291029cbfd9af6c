// The mod's store (`$.store`, one JSON file outside the project, 4 MiB in all,
// keys of at most 256 characters): held messages are kept there from the
// moment they are held, per session and folder, so a killed session leaves
// them for the next one, whatever the folder's path; one that cannot be kept
// is said on screen; a key or a list in any other shape is no record and no
// held entry; and the stand-in store refuses what the engine's refuses.
import { describe, expect, type Engine } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import type { On } from 'claude-code'
import { CWD, HANDOFF, world, type World, type WorldContext } from '../support/world.js'
import { STORE_KEY_LIMIT_CHARS, STORE_LIMIT_CHARS, answerStore } from '../support/beneath.js'
import { ownRecordsIn } from '../support/records.js'
import { endTurn, submitPrompt, typeCommand } from '../support/engine-calls.js'
import { handoffText, readyAnswer } from '../support/texts.js'
import { skillWritesFile, startSession, typeAndLaunch } from '../support/flow.js'
import { HEARTBEAT_MS, ORPHANED_AFTER_MS, heldBeatKeyOf, heldKeyOf } from '../../hooks/run/held-messages.js'
import { TOASTS } from '../../hooks/text/toasts.js'

const NOT_KEPT_TOAST = TOASTS.notKept().text
import { ownershipKeyOf, recordStoreKeyOf } from '../../hooks/ownership/ownership.js'

const HELD = 'typed while the run went on'
const SECOND = 'and a second thought'
/** This session's entry's key in the store. */
const ownKey = () => heldKeyOf('session-1', CWD)
const STOPPED_TOAST = /^2 message\(s\) you typed during a handoff run, held by a session here that stopped before it could deliver them \(last held .*\), are back in the prompt box\.$/

async function settle(w: World) {
  for (let i = 0; i < 3; i++) {
    await w.clock.settle()
    await w.clock.advance(0)
  }
  await w.clock.settle()
}

/** Settles until `isDone` holds, for at most ten rounds: a digest (crypto.subtle)
 * between two engine calls is no engine call, so one settle may return before
 * the step after it. */
async function settleUntil(w: World, isDone: () => boolean) {
  for (let i = 0; i < 10 && !isDone(); i++) await settle(w)
}

/** The engine is another session's from now on (a new process in the same
 * folder): this one's beat, which speaks for the session the engine names,
 * no longer refreshes the first session's, as when that one was killed. */
function anotherSession(w: World, id = 'session-2') {
  w.setSessionId(id)
}

/** Past the moment a killed session's entry counts as orphaned, and the next session's look again. */
async function pastOrphaned(w: World) {
  await w.clock.advance(ORPHANED_AFTER_MS + 2 * HEARTBEAT_MS)
  await settle(w)
}

/** A run under way holding two messages, as typed while its skill's turn ran. */
async function runHoldingTwo($: Engine, w: World) {
  await startSession($)
  await typeAndLaunch($, w, 'compact-handoff', '')
  expect(await submitPrompt($, HELD)).toEqual({ drop: 'held by compact-handoff until its swap is done' })
  expect(await submitPrompt($, SECOND)).toEqual({ drop: 'held by compact-handoff until its swap is done' })
  await settle(w)
}

/** A record of another handoff, its status `statusChars` characters long. */
function bloatedRecord(i: number, statusChars: number) {
  const path = `${CWD}/.claude/handoffs/HANDOFF_old${i}_2026-11-01.md`
  return { key: path, path, sha256: 'b'.repeat(64), bytes: 10, writtenAtMs: i, status: 'x'.repeat(statusChars) }
}

describe('held messages in the store', () => {
  test('are kept the moment they are held, so a session killed mid-run (no session.end) leaves them for the next one here, once its heartbeat has stopped', async ($, on) => {
    const w = world(on)
    await runHoldingTwo($, w)
    expect(w.store.get(await ownKey()), 'outside the session at once').toEqual({ cwd: CWD, messages: [HELD, SECOND], heldAt: expect.any(String) })
    // Killed: no session.end. The next process in this folder is another session.
    anotherSession(w)
    await startSession($)
    await settle(w)
    expect(w.box(), 'the first session may still run: its entry is its own').toBe('')
    await pastOrphaned(w)
    expect(w.box()).toBe(`${HELD}\n\n${SECOND}`)
    expect(w.seen.toasts.at(-1)).toBe('2 message(s) you typed during a handoff run are back in the prompt box')
    expect(w.seen.logs).toContainEqual(expect.stringMatching(STOPPED_TOAST))
    expect(w.store.has(await ownKey()), 'taken once the box has them').toBe(false)
  })

  test("are per session and folder: another folder's stay, and a hot reload leaves its own run's alone", async ($, on) => {
    const elsewhere = await heldKeyOf('session-9', '/srv/other')
    const theirs = { cwd: '/srv/other', messages: ['for the other project'], heldAt: '2026-11-30T10:00:00.000Z' }
    const w = world(on, { store: { [elsewhere]: theirs } })
    await runHoldingTwo($, w)
    // A hot reload runs session.start again in the same session: its run still holds them.
    await startSession($)
    await settle(w)
    expect(w.box()).toBe('')
    expect(w.store.get(await ownKey())).toMatchObject({ messages: [HELD, SECOND] })
    anotherSession(w)
    await startSession($)
    await pastOrphaned(w)
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
    expect(w.store.has(await ownKey()), 'delivered: nothing left for a next session').toBe(false)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await submitPrompt($, HELD)
    await settle(w)
    expect(w.store.has(await ownKey())).toBe(true)
    await typeCommand($, 'compact-handoff', 'cancel')
    await settle(w)
    expect(w.box()).toBe(HELD)
    expect(w.store.has(await ownKey()), 'given back: nothing left for a next session').toBe(false)
  })

  test('leave the store once /clear gives them back, though the session id changed with it', async ($, on) => {
    const w = world(on)
    await runHoldingTwo($, w)
    w.setSessionId('session-after-clear')
    await $.session.end({ reason: 'clear', sessionId: 'session-1', resume: { id: 'session-1' } })
    await settle(w)
    expect(w.box()).toBe(`${HELD}\n\n${SECOND}`)
    expect([...w.store.keys()].filter((k) => k.startsWith('held')), 'nothing left for a next session to give back again').toEqual([])
  })

  test("a key of another shape (a list, the folder in the key) is no held entry: nothing is put back, and it is left as it is", async ($, on) => {
    const mine = { cwd: CWD, messages: [HELD], heldAt: '2026-11-30T10:00:00.000Z', endedAt: '2026-11-30T10:00:00.000Z' }
    const store = { 'held-at-session-end': [mine], [`held:session-0:${CWD}`]: mine }
    const w = world(on, { store })
    await startSession($)
    await settle(w)
    expect(w.box()).toBe('')
    expect(Object.fromEntries(w.store)).toEqual(store)
  })
})

describe('two sessions in one folder, one of them holding (issue 39)', () => {
  test('the other leaves a live session\'s held messages alone: the owner delivers them, once, and no box gets a copy', async ($, on) => {
    const w = world(on)
    await runHoldingTwo($, w)
    // Session 2 starts in the same folder while session 1's run still holds them.
    anotherSession(w)
    await startSession($)
    await settle(w)
    expect(w.box(), 'not taken into the second session\'s box').toBe('')
    expect(w.store.get(await ownKey()), 'still the first session\'s').toMatchObject({ messages: [HELD, SECOND] })
    // Session 1 goes on beating and finishes its run.
    w.setSessionId('session-1')
    await w.clock.advance(2 * HEARTBEAT_MS)
    expect(typeof w.store.get(await heldBeatKeyOf('session-1')), 'the owner beats while it holds').toBe('number')
    await skillWritesFile($, w, HANDOFF, handoffText())
    await endTurn($, readyAnswer([HANDOFF], 'Go on.'))
    await settle(w)
    const delivered = w.seen.submits.filter((s) => s.asUser).map((s) => s.text)
    expect(delivered).toEqual([expect.stringContaining(SECOND)])
    expect(delivered[0]!.split(HELD).length - 1, 'delivered once').toBe(1)
    // The second session's later look finds nothing left to take.
    anotherSession(w)
    await pastOrphaned(w)
    expect(w.box()).toBe('')
    expect([...w.store.keys()].filter((k) => k.startsWith('held')), 'entry and heartbeat gone').toEqual([])
  })

  test('a session that exits with them marks its entry ended: the other takes it at once, with no wait for a heartbeat', async ($, on) => {
    const w = world(on)
    await runHoldingTwo($, w)
    await $.session.end({ reason: 'prompt_input_exit', sessionId: 'session-1', resume: { id: 'session-1' } })
    await settle(w)
    expect(w.store.get(await ownKey())).toMatchObject({ endedAt: expect.any(String) })
    expect(w.store.has(await heldBeatKeyOf('session-1')), 'the beat stops at the end').toBe(false)
    anotherSession(w)
    await startSession($)
    await settle(w)
    expect(w.box()).toBe(`${HELD}\n\n${SECOND}`)
  })
})

describe('a held message the engine puts back in the box late (issue 39)', () => {
  test('is cleared when the drop lands after the first look at the box, and a cancel then gives it back once', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    expect(await submitPrompt($, HELD)).toEqual({ drop: 'held by compact-handoff until its swap is done' })
    // The clearing timer reads the box before the engine has taken the drop.
    await settle(w)
    w.putInBox(HELD)
    await w.clock.advance(1_000)
    expect(w.box(), 'cleared once the drop landed').toBe('')
    await typeCommand($, 'compact-handoff', 'cancel')
    await settle(w)
    expect(w.box()).toBe(HELD)
  })

  test('still in the box when the run is cancelled: given back without a second copy', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await submitPrompt($, HELD)
    await submitPrompt($, SECOND)
    // Put back after the watch ended (or typed again by the person): the box holds one of them.
    await w.clock.advance(10_000)
    w.putInBox(SECOND)
    await typeCommand($, 'compact-handoff', 'cancel')
    await settle(w)
    expect(w.box()).toBe(`${SECOND}\n\n${HELD}`)
  })
})

/** A project folder of `chars` characters, of folders of 16 on the platform's separator. */
function longFolder(chars: number, windows: boolean): string {
  const separator = windows ? '\\' : '/'
  const start = windows ? 'C:\\Users\\me\\' : '/srv/'
  return `${start}${`long-folder-name${separator}`.repeat(Math.ceil(chars / 17))}`.slice(0, chars - 1) + 'x'
}

describe('a project path of 1,000 characters', () => {
  for (const windows of [false, true]) {
    test(`${windows ? 'on Windows (C:\\…)' : 'on Linux'}: held messages are kept and put back, the handoff is recorded and marked used, every key within ${STORE_KEY_LIMIT_CHARS}`, async ($, on) => {
      const cwd = longFolder(1_000, windows)
      expect(cwd.length).toBe(1_000)
      const w = world(on, { cwd, ...(windows ? { platform: 'windows' as const } : {}) })
      const separator = windows ? '\\' : '/'
      const written = `${cwd}${separator}${HANDOFF.split('/').join(separator)}`
      await startSession($, { cwd })
      await typeAndLaunch($, w, 'compact-handoff', '')
      await submitPrompt($, HELD)
      await settle(w)
      expect(w.store.get(await heldKeyOf('session-1', cwd)), 'kept at once').toMatchObject({ cwd, messages: [HELD] })
      w.files.set(written, { text: handoffText(), mtimeMs: w.clock.now() })
      await $.tool.call({ tool: 'Write', tool_use_id: 'tu-long', file_path: written, content: handoffText() })
      await endTurn($, readyAnswer([HANDOFF], 'Go on.'))
      await settle(w)
      expect(w.seen.submits.filter((s) => s.asUser).map((s) => s.text), 'swapped, the held message delivered').toEqual([expect.stringContaining(HELD)])
      await settleUntil(w, () => ownRecordsIn(w.store).some((r) => r.usedAtMs !== undefined))
      expect(ownRecordsIn(w.store).map((r) => [r.key, r.usedAtMs !== undefined])).toEqual([[ownershipKeyOf(cwd, HANDOFF), true]])
      await typeAndLaunch($, w, 'compact-handoff', '')
      await submitPrompt($, SECOND)
      await settle(w)
      // Killed mid-run; the next session in the folder puts it back once its heartbeat has stopped.
      anotherSession(w)
      await startSession($, { cwd })
      await pastOrphaned(w)
      expect(w.box()).toBe(SECOND)
      expect([...w.store.keys()].filter((k) => k.length > STORE_KEY_LIMIT_CHARS)).toEqual([])
      expect(w.seen.logs.filter((l) => /could not|over the/.test(l)), 'nothing refused').toEqual([])
    })
  }
})

describe('a held message the store cannot keep', () => {
  test('is said on screen at once, in a toast short enough for its box, and the run still delivers it', async ($, on) => {
    // Another key of the mod's own fills the store to its limit: every set is refused.
    const w = world(on, { store: { filler: 'x'.repeat(STORE_LIMIT_CHARS - 20) } })
    await runHoldingTwo($, w)
    expect(w.seen.toasts.filter((t) => t === NOT_KEPT_TOAST).length).toBeGreaterThan(0)
    expect(NOT_KEPT_TOAST.length).toBeLessThanOrEqual(100)
    expect(NOT_KEPT_TOAST.startsWith('Held message not saved')).toBe(true)
    await skillWritesFile($, w, HANDOFF, handoffText())
    await endTurn($, readyAnswer([HANDOFF], 'Go on.'))
    await settle(w)
    expect(w.seen.submits.filter((s) => s.asUser).map((s) => s.text)).toEqual([expect.stringContaining(SECOND)])
  })
})

/** The stand-in store's own answers, called as the engine beneath the mod would call them. */
function standInStore(entries: Record<string, unknown>) {
  const store = new Map<string, unknown>(Object.entries(entries))
  const answers = new Map<string, (_$: unknown, e: unknown) => unknown>()
  const capture = ((event: string, answer: (_$: unknown, e: unknown) => unknown) => void answers.set(event, answer)) as unknown as On
  answerStore(capture, { store, seen: { storeSets: [] } } as unknown as WorldContext)
  const call = (event: string, e: Record<string, unknown>) => answers.get(event)!(undefined, e) as { deny?: string; value?: unknown }
  return { store, call }
}

describe('the stand-in store refuses what the engine refuses', () => {
  test(`a key of ${STORE_KEY_LIMIT_CHARS + 1} characters, in the engine's words, to get, set and delete; one of ${STORE_KEY_LIMIT_CHARS} is taken`, () => {
    const { store, call } = standInStore({})
    const long = 'k'.repeat(STORE_KEY_LIMIT_CHARS + 1)
    for (const event of ['store.get', 'store.set', 'store.delete']) {
      expect(call(event, { key: long, value: 1 }).deny).toBe(`$.${event}: the key is ${STORE_KEY_LIMIT_CHARS + 1} characters, over the ${STORE_KEY_LIMIT_CHARS} limit`)
    }
    expect(call('store.set', { key: 'k'.repeat(STORE_KEY_LIMIT_CHARS), value: 1 }).deny).toBeUndefined()
    expect([...store.keys()]).toEqual(['k'.repeat(STORE_KEY_LIMIT_CHARS)])
  })

  test(`a set that would take the whole store past ${STORE_LIMIT_CHARS} characters; one that still fits is taken`, () => {
    const { store, call } = standInStore({ a: 'x'.repeat(STORE_LIMIT_CHARS - 100) })
    expect(call('store.set', { key: 'b', value: 'y'.repeat(200) }).deny).toMatch(/^\$\.store\.set: the store would be \d+ characters, over the 4194304 limit$/)
    expect(call('store.set', { key: 'c', value: 'y' }).deny).toBeUndefined()
    expect(call('store.set', { key: 'd', value: 'y'.repeat(200) }).deny).toMatch(/over the 4194304 limit/)
    expect([...store.keys()]).toEqual(['a', 'c'])
  })
})

describe('a list of records in one key', () => {
  test('is no record: a file it names is asked about at resume, never taken as the person\'s own', async ($, on) => {
    const path = `${CWD}/${HANDOFF}`
    const w = world(on)
    await startSession($)
    await skillWritesFile($, w, HANDOFF, handoffText())
    const [record] = ownRecordsIn(w.store)
    // A clone's record put in the one list an unreleased build kept: no key of its own.
    for (const key of [...w.store.keys()]) w.store.delete(key)
    w.store.set('ownedFiles', [record])
    expect(record?.key).toBe(ownershipKeyOf(CWD, HANDOFF))
    const said = (await typeCommand($, 'compact-handoff', `resume ${path}`)).text ?? ''
    expect(said).not.toBe(`Resuming from ${HANDOFF}.`)
    expect(said).toContain('not written in your Claude Code sessions')
  })
})

describe('two sessions setting records', () => {
  test("this session sets only its own file's record: another session's is never read back and set, so a set of theirs at any moment stays", async ($, on) => {
    const theirs = { ...bloatedRecord(1, 0), status: 'in-progress' }
    const w = world(on, { store: { [await recordStoreKeyOf(theirs.key)]: theirs } })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesFile($, w, HANDOFF, handoffText())
    await endTurn($, readyAnswer([HANDOFF], 'Go on.'))
    await settle(w)
    const key = ownershipKeyOf(CWD, HANDOFF) ?? 'a handoff of the project has a key'
    const mine = await recordStoreKeyOf(key)
    expect(new Set(w.seen.storeSets.filter((k) => !k.startsWith('held'))), 'recorded, then marked used: one key').toEqual(new Set([mine]))
    expect(ownRecordsIn(w.store).map((r) => r.key).sort()).toEqual([theirs.key, key].sort())
  })
})
