// Messages a run held, kept in the mod's store per session and folder from the
// moment they are held, and what a prompt with attachments is told.
import { describe, expect, test } from 'vitest'
import {
  HELD_BUDGET_CHARS,
  HELD_BEAT_PREFIX,
  MAX_HELD_ENTRIES,
  ORPHANED_AFTER_MS,
  heldBeatKeyOf,
  heldBeatKeyOfEntryKey,
  heldBeatOf,
  isInBox,
  orphanedInMsOf,
  heldCharsOf,
  heldEntryOf,
  heldFolderPrefixOf,
  heldKeyOf,
  heldKeysToDrop,
  isHeldKey,
  letThroughTextOf,
  restoredToastOf,
} from '../../../packages/compact-handoff/hooks/run/held-messages.js'

const AT = '2026-11-30T10:00:00.000Z'

describe('the held entries', () => {
  test('one key per folder and session, 137 characters for any folder, Windows folders included, under its folder\'s prefix', async () => {
    const keys = new Set<string>()
    for (const cwd of ['/p', 'C:\\Users\\me\\proj', '/a:b', `/${'x'.repeat(999)}`, `C:\\${'y'.repeat(997)}`]) {
      for (const session of ['0b6f-uuid', 's'.repeat(300)]) {
        const key = await heldKeyOf(session, cwd)
        expect(key.length).toBe(137)
        expect(key.startsWith(await heldFolderPrefixOf(cwd))).toBe(true)
        expect(isHeldKey(key)).toBe(true)
        keys.add(key)
      }
    }
    expect(keys.size, 'no two folders or sessions share a key').toBe(10)
    expect(await heldKeyOf('a', '/p:b'), 'the parts cannot run into each other').not.toBe(await heldKeyOf('a:/p', 'b'))
  })

  test('no other key is a held entry\'s', () => {
    for (const other of ['held:0b6f-uuid:/p', 'held-at-session-end', 'owned:abc']) expect(isHeldKey(other), other).toBe(false)
  })

  test('reads only well-formed entries from what the store holds', () => {
    const good = { cwd: '/p', messages: ['a'], heldAt: AT }
    expect(heldEntryOf(good)).toEqual(good)
    expect(heldEntryOf({ ...good, endedAt: AT })).toEqual({ ...good, endedAt: AT })
    for (const bad of [undefined, null, 'x', { cwd: '/p' }, { ...good, messages: [1] }, { ...good, messages: [] }, { ...good, endedAt: 5 }]) expect(heldEntryOf(bad)).toBeUndefined()
  })

  test(`makes room by dropping the oldest other entries: at most ${MAX_HELD_ENTRIES}, and ${HELD_BUDGET_CHARS} characters`, () => {
    const others = Array.from({ length: MAX_HELD_ENTRIES }, (_, i) => ({ key: `k${i}`, chars: 100, heldAt: `2026-11-30T10:00:${String(59 - i).padStart(2, '0')}.000Z` }))
    expect(heldKeysToDrop(others, 100), 'the oldest held goes').toEqual([`k${MAX_HELD_ENTRIES - 1}`])
    expect(heldKeysToDrop(others.slice(0, 3), HELD_BUDGET_CHARS - 150)).toEqual(['k2', 'k1'])
    expect(heldKeysToDrop([], HELD_BUDGET_CHARS + 1), 'too long to keep at all').toBeUndefined()
    expect(heldKeysToDrop(others.slice(0, 3), 10)).toEqual([])
  })

  test('an entry counts its key and its JSON text', () => {
    const entry = { cwd: '/p', messages: ['a "quoted" one'], heldAt: AT }
    expect(heldCharsOf('held:s:/p', entry)).toBe('held:s:/p'.length + JSON.stringify(entry).length + 4)
  })

  test('the restore toast says when, and whether the session ended or stopped', () => {
    const ended = { cwd: '/p', messages: ['one', 'two'], heldAt: AT, endedAt: AT }
    expect(restoredToastOf([ended])).toBe(`2 message(s) you typed during a handoff run, held when the session here ended (${AT}), are back in the prompt box.`)
    expect(restoredToastOf([ended, { cwd: '/p', messages: ['three'], heldAt: '2026-11-30T11:00:00.000Z' }])).toBe(
      '3 message(s) you typed during a handoff run, held by a session here that stopped before it could deliver them (last held 2026-11-30T11:00:00.000Z), are back in the prompt box.',
    )
  })
})
describe("who may take another session's held entry (issue 39)", () => {
  const heldAtMs = Date.parse(AT)
  const live = { cwd: '/p', messages: ['one'], heldAt: AT }

  test('an entry whose owner ended with it is taken at once; a live one only once its last sign of life is ORPHANED_AFTER_MS old', () => {
    expect(orphanedInMsOf({ ...live, endedAt: AT }, undefined, heldAtMs)).toBe(0)
    expect(orphanedInMsOf(live, undefined, heldAtMs + 1_000), 'held a second ago, no beat yet').toBe(ORPHANED_AFTER_MS - 1_000)
    expect(orphanedInMsOf(live, heldAtMs + 20_000, heldAtMs + 40_000), 'the newer beat counts').toBe(ORPHANED_AFTER_MS - 20_000)
    expect(orphanedInMsOf(live, heldAtMs - 60_000, heldAtMs + 1_000), 'an older beat than the hold does not shorten it').toBe(ORPHANED_AFTER_MS - 1_000)
    expect(orphanedInMsOf(live, heldAtMs, heldAtMs + ORPHANED_AFTER_MS)).toBe(0)
    expect(orphanedInMsOf({ ...live, heldAt: 'not a time' }, undefined, heldAtMs), 'no readable sign of life').toBe(0)
  })

  test("a session's heartbeat key is its own, and an entry's key names it", async () => {
    const beat = await heldBeatKeyOf('session-1')
    expect(beat.startsWith(HELD_BEAT_PREFIX)).toBe(true)
    expect(beat.length).toBe(HELD_BEAT_PREFIX.length + 64)
    expect(isHeldKey(beat), 'no held entry').toBe(false)
    for (const cwd of ['/p', 'C:\\Users\\me']) expect(heldBeatKeyOfEntryKey(await heldKeyOf('session-1', cwd))).toBe(beat)
    expect([heldBeatOf(1_000), heldBeatOf('1000'), heldBeatOf(Number.NaN), heldBeatOf(undefined)]).toEqual([1_000, undefined, undefined, undefined])
  })

  test('a message counts as in the box only whole, on lines of its own', () => {
    expect(isInBox('fix it', 'fix it')).toBe(true)
    expect(isInBox('  fix it\n', 'fix it')).toBe(true)
    expect(isInBox('draft\n\nfix it', 'fix it')).toBe(true)
    expect(isInBox('fix it\n\ndraft', 'fix it')).toBe(true)
    expect(isInBox('a\nfix it\nb', 'fix it')).toBe(true)
    expect(isInBox('fix it later', 'fix it'), 'part of a line is the person\'s own draft').toBe(false)
    expect(isInBox('', 'fix it')).toBe(false)
  })
})

describe('a prompt with attachments let through', () => {
  test.each([
    [['image'], 'an image'],
    [['document'], 'a document'],
    [['audio'], 'an audio clip'],
    [['image', 'document'], '2 attachments (image, document)'],
  ])('names %j as %s and says what a swap would keep', (kinds, words) => {
    const text = letThroughTextOf(kinds)
    expect(text).toContain(`your message carries ${words}, which a plugin cannot hold and send again, so it went to Claude now instead of being held.`)
    expect(text).toContain('the new context keeps your words but not the attachment or the answer')
  })
})
