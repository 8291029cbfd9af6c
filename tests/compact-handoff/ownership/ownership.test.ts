// The ownership records: the fingerprint, the one key, a store key per record
// (a record trusted only under its own), the budget, the ownership verdict
// and the one record the start offer may name.
import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { isOwnAfter } from '../../../packages/compact-handoff/hooks/ownership/ownership.js'
import {
  MAX_OWN_RECORDS,
  MAX_RECORD_CHARS,
  MAX_RECORD_PATH_CHARS,
  OWN_RECORDS_BUDGET_CHARS,
  RECORD_KEY_PREFIX,
  fingerprintOf,
  isRecordable,
  ownershipKeyOf,
  ownershipOf,
  recordCharsOf,
  recordKeysToDrop,
  recordStoreKeyOf,
  standsOver,
  storedRecordOf,
  type OwnRecord,
} from '../../../packages/compact-handoff/hooks/ownership/ownership.js'
import { OFFER_WITHIN_MS, offerRecordOf } from '../../../packages/compact-handoff/hooks/resume/resume.js'

const CWD = '/srv/app'
const NOW_MS = 10 * OFFER_WITHIN_MS

function recordOf(name: string, changes: Partial<OwnRecord> = {}): OwnRecord {
  const relPath = `.claude/handoffs/${name}`
  return { key: keyOf(CWD, relPath), path: `${CWD}/${relPath}`, sha256: 'a'.repeat(64), bytes: 10, writtenAtMs: NOW_MS - 1_000, status: 'in-progress', ...changes }
}

describe('fingerprintOf', () => {
  test('is SHA-256 of the UTF-8 bytes, as hex, with the byte count', async () => {
    for (const text of ['', 'plain', 'naïve — 日本語 😀\r\n']) {
      const expected = createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex')
      expect(await fingerprintOf(text)).toEqual({ sha256: expected, bytes: Buffer.byteLength(text, 'utf8') })
    }
  })
})

/** A handoff's key, which every test here names by a handoff of the project. */
function keyOf(cwd: string, path: string): string {
  const key = ownershipKeyOf(cwd, path)
  if (key === undefined) throw new Error(`${path} has no key in ${cwd}`)
  return key
}

const NAME = 'HANDOFF_x_2026-11-30.md'
const REL = `.claude/handoffs/${NAME}`

describe('ownershipKeyOf', () => {
  test('is one spelling for a file however its folder is written', () => {
    expect(keyOf('/srv/app/', REL)).toBe(keyOf('/srv/app', REL))
    expect(keyOf('C:\\Users\\me\\proj', REL)).toBe(`C:/Users/me/proj/${REL}`)
    expect(keyOf('C:\\Users\\me\\proj\\', REL)).toBe(`C:/Users/me/proj/${REL}`)
    expect(keyOf('C:/Users/me/proj', REL)).toBe(`C:/Users/me/proj/${REL}`)
  })

  test('is one key whichever case of drive letter the engine reports the session folder with', () => {
    expect(keyOf('c:\\Users\\me\\proj', REL)).toBe(keyOf('C:\\Users\\me\\proj', REL))
    expect(keyOf('c:/Users/me/proj/', REL)).toBe(keyOf('C:\\Users\\me\\proj', REL))
  })

  test.each([
    ['backslashes', `C:\\Users\\me\\proj\\.claude\\handoffs\\${NAME}`],
    ['forward slashes', `C:/Users/me/proj/.claude/handoffs/${NAME}`],
    ['the drive letter in the other case', `c:\\Users\\me\\proj\\.claude\\handoffs\\${NAME}`],
    ['folders in another case', `C:\\USERS\\Me\\proj\\.Claude\\Handoffs\\${NAME}`],
    ['mixed and doubled separators', `C:/Users\\\\me/proj\\.claude//handoffs\\${NAME}`],
    ['a path from the drive’s root', `\\Users\\me\\proj\\.claude\\handoffs\\${NAME}`],
    ['a leading ./', `./.claude/handoffs/${NAME}`],
  ])('gives an absolute Windows path inside the project written with %s the key of its project-relative form', (_name, path) => {
    for (const cwd of ['C:\\Users\\me\\proj', 'C:\\Users\\me\\proj\\', 'c:/Users/me/proj']) {
      expect(keyOf(cwd, path)).toBe(keyOf(cwd, REL))
    }
  })

  test('gives an absolute POSIX path inside the project the key of its project-relative form', () => {
    expect(keyOf('/srv/app', `/srv/app/.claude/handoffs/${NAME}`)).toBe(keyOf('/srv/app', REL))
    expect(keyOf('/srv/app/', `/srv/app//plans/handoffs/${NAME}`)).toBe(keyOf('/srv/app', `plans/handoffs/${NAME}`))
  })

  test.each([
    ['another project whose name starts like it', `C:\\Users\\me\\proj2\\.claude\\handoffs\\${NAME}`],
    ['another drive', `D:\\Users\\me\\proj\\.claude\\handoffs\\${NAME}`],
    ['a climb out and into another project', `C:\\Users\\me\\proj\\..\\other\\.claude\\handoffs\\${NAME}`],
    ['a drive-relative path', `C:.claude\\handoffs\\${NAME}`],
    ['the project folder joined onto an absolute path', `C:\\Users\\me\\proj\\C:\\Users\\me\\proj\\.claude\\handoffs\\${NAME}`],
  ])('gives a path outside the project (%s) no key, so it matches no record of a file inside', (_name, path) => {
    expect(ownershipKeyOf('C:\\Users\\me\\proj', path)).toBeUndefined()
  })

  test('gives no key to a file that is no handoff or plan of a handoff folder', () => {
    expect(ownershipKeyOf('/srv/app', 'src/a.ts')).toBeUndefined()
    expect(ownershipKeyOf('/srv/app', `/srv/other/.claude/handoffs/${NAME}`)).toBeUndefined()
  })
})

describe('recordStoreKeyOf', () => {
  test('is the prefix and the SHA-256 of the file\'s key: 70 characters for any path, one per file', async () => {
    const key = keyOf(CWD, REL)
    expect(await recordStoreKeyOf(key)).toBe(`${RECORD_KEY_PREFIX}${createHash('sha256').update(key, 'utf8').digest('hex')}`)
    for (const cwd of [`/${'p'.repeat(999)}`, `C:\\${'w'.repeat(997)}`]) {
      expect((await recordStoreKeyOf(keyOf(cwd, REL))).length).toBe(70)
    }
    expect(await recordStoreKeyOf(keyOf(CWD, '.claude/handoffs/HANDOFF_a_2026-11-30.md'))).not.toBe(await recordStoreKeyOf(keyOf(CWD, '.claude/handoffs/HANDOFF_b_2026-11-30.md')))
  })
})

/** Records as stored under their keys: `storeKey` stands for the digest key. */
function storedOf(records: readonly OwnRecord[]) {
  return records.map((record) => ({ storeKey: `${RECORD_KEY_PREFIX}${record.key}`, record }))
}

describe('the records', () => {
  test('a later write stands over an earlier one; at the same moment neither does, and the one set last wins', () => {
    const first = recordOf('HANDOFF_a_2026-11-30.md', { sha256: '1'.repeat(64), writtenAtMs: 5 })
    const second = { ...first, sha256: '0'.repeat(64), usedAtMs: 8 }
    expect(standsOver(first, second), 'the same moment: neither stands over the other').toBe(false)
    expect(standsOver({ ...first, writtenAtMs: 6 }, second)).toBe(true)
  })

  test("are trusted only under their own file's key: one stored under another file's is none", async () => {
    const a = recordOf('HANDOFF_a_2026-11-30.md')
    const b = recordOf('HANDOFF_b_2026-11-30.md')
    expect(await storedRecordOf(await recordStoreKeyOf(a.key), a)).toEqual(a)
    expect(await storedRecordOf(await recordStoreKeyOf(b.key), a), "a's record under b's key").toBeUndefined()
    expect(await storedRecordOf(`${RECORD_KEY_PREFIX}${a.key}`, a), 'under a key that is not the digest').toBeUndefined()
  })

  test(`are bounded to the newest ${MAX_OWN_RECORDS}: the oldest written are dropped, in any stored order`, () => {
    const records = Array.from({ length: MAX_OWN_RECORDS + 7 }, (_, i) => recordOf(`HANDOFF_n${i}_2026-11-30.md`, { writtenAtMs: i }))
    const dropped = recordKeysToDrop(storedOf([...records].reverse()))
    expect(dropped.sort()).toEqual(storedOf(records.slice(0, 7)).map((s) => s.storeKey).sort())
    expect(recordKeysToDrop(storedOf(records.slice(0, MAX_OWN_RECORDS)))).toEqual([])
  })

  test(`take at most ${OWN_RECORDS_BUDGET_CHARS} characters of the store, keys included, the oldest written dropped first`, () => {
    const long = `${'d/'.repeat(1_900)}`
    // Paths no handoff folder holds, so no key of ownershipKeyOf: only their length counts here.
    const longPathOf = (i: number) => `${CWD}/.claude/handoffs/${long}HANDOFF_n${i}_2026-11-30.md`
    const records = Array.from({ length: 100 }, (_, i) => recordOf(`HANDOFF_n${i}_2026-11-30.md`, { key: longPathOf(i), path: longPathOf(i), writtenAtMs: i }))
    const dropped = new Set(recordKeysToDrop(storedOf(records)))
    const kept = records.filter((r) => !dropped.has(`${RECORD_KEY_PREFIX}${r.key}`))
    expect(kept.reduce((sum, r) => sum + recordCharsOf(r), 0)).toBeLessThanOrEqual(OWN_RECORDS_BUDGET_CHARS)
    expect(kept.length).toBeLessThan(100)
    expect(kept).toEqual(records.slice(100 - kept.length))
  })

  test(`keep a path of at most ${MAX_RECORD_PATH_CHARS} characters, and a known handoff status only`, async () => {
    const good = recordOf('HANDOFF_a_2026-11-30.md')
    const long = `${CWD}/${'x'.repeat(MAX_RECORD_PATH_CHARS)}`
    expect(isRecordable(good)).toBe(true)
    expect(isRecordable({ ...good, key: long, path: long })).toBe(false)
    // Within the path cap, but escaped in JSON past what one record may take.
    const quoted = `${CWD}/${'"'.repeat(MAX_RECORD_PATH_CHARS - 20)}`
    expect(isRecordable({ ...good, key: quoted, path: quoted })).toBe(false)
    expect(MAX_RECORD_CHARS * Math.floor(OWN_RECORDS_BUDGET_CHARS / MAX_RECORD_CHARS)).toBeLessThanOrEqual(OWN_RECORDS_BUDGET_CHARS)
    const key = await recordStoreKeyOf(good.key)
    const stored = (values: readonly unknown[]) => Promise.all(values.map((value) => storedRecordOf(key, value)))
    expect(await stored([{ ...good, path: long }])).toEqual([undefined])
    const { status: _status, ...noStatus } = good
    expect(await stored([{ ...good, status: 'in-progress' }, { ...good, status: 'x'.repeat(1_000_000) }, { ...good, status: 7 }])).toEqual([good, noStatus, noStatus])
    expect(await stored([{ ...good, sha256: 'z'.repeat(64) }, { ...good, sha256: 'a'.repeat(1_000_000) }, { ...good, bytes: -1 }, { ...good, usedAtMs: 'x' }])).toEqual([undefined, undefined, undefined, undefined])
  })

  test('read from the store drop anything that is not a record', async () => {
    const good = recordOf('HANDOFF_a_2026-11-30.md')
    const key = await recordStoreKeyOf(good.key)
    for (const value of [{ key: 1 }, null, 'x', { ...good, bytes: '10' }, [good], { records: [good] }, undefined]) expect(await storedRecordOf(key, value), JSON.stringify(value)).toBeUndefined()
  })

})

describe('ownershipOf', () => {
  const record = recordOf('HANDOFF_a_2026-11-30.md')
  test('is own only while the fingerprint matches', () => {
    expect(ownershipOf(record, record.sha256)).toBe('own')
    expect(ownershipOf(record, 'b'.repeat(64))).toBe('changed')
    expect(ownershipOf(undefined, record.sha256)).toBe('not-written-here')
  })
})

describe('offerRecordOf', () => {
  test('names the newest unused own handoff of this project with work left, written within the offer window', () => {
    const older = recordOf('HANDOFF_older_2026-11-30.md', { writtenAtMs: NOW_MS - 5_000 })
    const newer = recordOf('HANDOFF_newer_2026-11-30.md', { writtenAtMs: NOW_MS - 2_000 })
    expect(offerRecordOf([newer, older], CWD, NOW_MS)).toEqual({ record: newer, relPath: '.claude/handoffs/HANDOFF_newer_2026-11-30.md' })
  })

  test('passes over used, done, old, future-stamped, plan and other projects\' records', () => {
    const skipped = [
      recordOf('HANDOFF_used_2026-11-30.md', { usedAtMs: NOW_MS - 10 }),
      recordOf('HANDOFF_done_2026-11-30.md', { status: 'done' }),
      recordOf('HANDOFF_nostatus_2026-11-30.md', { status: undefined }),
      recordOf('HANDOFF_old_2026-11-30.md', { writtenAtMs: NOW_MS - OFFER_WITHIN_MS - 1 }),
      recordOf('HANDOFF_future_2026-11-30.md', { writtenAtMs: NOW_MS + 1 }),
      recordOf('PLAN_a_2026-11-30.md'),
      { ...recordOf('HANDOFF_elsewhere_2026-11-30.md'), key: '/srv/other/.claude/handoffs/HANDOFF_elsewhere_2026-11-30.md', path: '/srv/other/.claude/handoffs/HANDOFF_elsewhere_2026-11-30.md' },
    ]
    expect(offerRecordOf(skipped, CWD, NOW_MS)).toBeUndefined()
    const kept = recordOf('HANDOFF_kept_2026-11-30.md', { writtenAtMs: NOW_MS - OFFER_WITHIN_MS })
    expect(offerRecordOf([...skipped, kept], CWD, NOW_MS)?.record).toBe(kept)
  })

  test('names a handoff recorded where the engine reported the folder with the drive letter in the other case', () => {
    const path = `c:\\Users\\me\\proj\\.claude\\handoffs\\${NAME}`
    const record = recordOf(NAME, { key: keyOf('c:\\Users\\me\\proj', path), path })
    expect(offerRecordOf([record], 'C:\\Users\\me\\proj', NOW_MS)).toEqual({ record, relPath: REL })
  })
})

describe("isOwnAfter: only writing the whole file makes it the person's own", () => {
  test('a Write, whatever was there before', () => {
    expect(isOwnAfter({ tool: 'Write' }, undefined)).toBe(true)
  })

  test('an Edit only of a file that was own before it', () => {
    expect(isOwnAfter({ tool: 'Edit', originalFile: 'x' }, 'own')).toBe(true)
    expect(isOwnAfter({ tool: 'Edit', originalFile: 'x' }, 'not-written-here'), 'a cloned handoff').toBe(false)
    expect(isOwnAfter({ tool: 'Edit', originalFile: 'x' }, 'changed'), 'changed since it was written here').toBe(false)
    expect(isOwnAfter({ tool: 'Edit', originalFile: null }, undefined), 'the tool did not say what was there').toBe(false)
  })
})
