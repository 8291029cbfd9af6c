// The ownership records: the fingerprint, the one key, the bounded list, the
// ownership verdict and the one record the start offer may name.
import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { isOwnAfter } from '../../../packages/compact-handoff/hooks/ownership/ownership.js'
import {
  MAX_OWN_RECORDS,
  MAX_RECORD_PATH_CHARS,
  OWN_RECORDS_BUDGET_CHARS,
  fingerprintOf,
  holdsRecord,
  isRecordable,
  ownershipKeyOf,
  ownershipOf,
  recordsOf,
  withRecord,
  withUse,
  type OwnRecord,
} from '../../../packages/compact-handoff/hooks/ownership/ownership.js'
import { OFFER_WITHIN_MS, offerRecordOf } from '../../../packages/compact-handoff/hooks/resume/resume.js'

const CWD = '/srv/app'
const NOW_MS = 10 * OFFER_WITHIN_MS

function recordOf(name: string, changes: Partial<OwnRecord> = {}): OwnRecord {
  const relPath = `.claude/handoffs/${name}`
  return { key: ownershipKeyOf(CWD, relPath), path: `${CWD}/${relPath}`, sha256: 'a'.repeat(64), bytes: 10, writtenAtMs: NOW_MS - 1_000, status: 'in-progress', ...changes }
}

describe('fingerprintOf', () => {
  test('is SHA-256 of the UTF-8 bytes, as hex, with the byte count', async () => {
    for (const text of ['', 'plain', 'naïve — 日本語 😀\r\n']) {
      const expected = createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex')
      expect(await fingerprintOf(text)).toEqual({ sha256: expected, bytes: Buffer.byteLength(text, 'utf8') })
    }
  })
})

describe('ownershipKeyOf', () => {
  test('is one spelling for a file however its folder is written', () => {
    expect(ownershipKeyOf('/srv/app/', '.claude/handoffs/H.md')).toBe(ownershipKeyOf('/srv/app', '.claude/handoffs/H.md'))
    expect(ownershipKeyOf('C:\\Users\\me\\proj', '.claude/handoffs/H.md')).toBe('C:/Users/me/proj/.claude/handoffs/H.md')
  })
})

describe('the records', () => {
  test('keep one record per file, the newest written last', () => {
    const first = withRecord([], recordOf('HANDOFF_a_2026-11-30.md', { sha256: '1'.repeat(64) }))
    const both = withRecord(first, recordOf('HANDOFF_b_2026-11-30.md'))
    const rewritten = withRecord(both, recordOf('HANDOFF_a_2026-11-30.md', { sha256: '2'.repeat(64) }))
    expect(rewritten.map((r) => [r.path.slice(-23), r.sha256[0]])).toEqual([
      ['HANDOFF_b_2026-11-30.md', 'a'],
      ['HANDOFF_a_2026-11-30.md', '2'],
    ])
  })

  test(`are bounded to the newest ${MAX_OWN_RECORDS}`, () => {
    let records: OwnRecord[] = []
    for (let i = 0; i < MAX_OWN_RECORDS + 7; i++) records = withRecord(records, recordOf(`HANDOFF_n${i}_2026-11-30.md`))
    expect(records.length).toBe(MAX_OWN_RECORDS)
    expect(records[0]?.path).toContain('HANDOFF_n7_')
    expect(records.at(-1)?.path).toContain(`HANDOFF_n${MAX_OWN_RECORDS + 6}_`)
  })

  test(`take at most ${OWN_RECORDS_BUDGET_CHARS} characters of JSON, the oldest written dropped first`, () => {
    let records: OwnRecord[] = []
    const long = `${'d/'.repeat(1_900)}`
    for (let i = 0; i < 100; i++) records = withRecord(records, recordOf(`${long}HANDOFF_n${i}_2026-11-30.md`, { writtenAtMs: i }))
    expect(JSON.stringify(records).length).toBeLessThanOrEqual(OWN_RECORDS_BUDGET_CHARS)
    expect(records.length).toBeLessThan(100)
    expect(records.at(-1)?.path).toContain('HANDOFF_n99_')
    expect(records[0]?.path).toContain(`HANDOFF_n${100 - records.length}_`)
  })

  test('merge by file, the newest written wins', () => {
    const older = recordOf('HANDOFF_a_2026-11-30.md', { sha256: '1'.repeat(64), writtenAtMs: 5 })
    const newer = recordOf('HANDOFF_a_2026-11-30.md', { sha256: '2'.repeat(64), writtenAtMs: 9 })
    expect(withRecord([newer], older), 'a record written later by another session stands').toEqual([newer])
    expect(withRecord([older], newer)).toEqual([newer])
    expect(holdsRecord([newer], older)).toBe(true)
    expect(holdsRecord([older], newer)).toBe(false)
    expect(holdsRecord([newer], newer)).toBe(true)
  })

  test(`keep a path of at most ${MAX_RECORD_PATH_CHARS} characters, and a known handoff status only`, () => {
    const good = recordOf('HANDOFF_a_2026-11-30.md')
    const long = `${CWD}/${'x'.repeat(MAX_RECORD_PATH_CHARS)}`
    expect(isRecordable(good)).toBe(true)
    expect(isRecordable({ key: long, path: long })).toBe(false)
    expect(recordsOf([{ ...good, path: long }, { ...good, key: long }])).toEqual([])
    const { status: _status, ...noStatus } = good
    expect(recordsOf([{ ...good, status: 'in-progress' }, { ...good, status: 'x'.repeat(1_000_000) }, { ...good, status: 7 }])).toEqual([good, noStatus, noStatus])
    expect(recordsOf([{ ...good, sha256: 'z'.repeat(64) }, { ...good, sha256: 'a'.repeat(1_000_000) }, { ...good, bytes: -1 }, { ...good, usedAtMs: 'x' }])).toEqual([])
  })

  test('read from the store drop anything that is not a record', () => {
    const good = recordOf('HANDOFF_a_2026-11-30.md')
    expect(recordsOf([good, { key: 1 }, null, 'x', { ...good, bytes: '10' }])).toEqual([good])
    expect(recordsOf({ records: [good] })).toEqual([])
    expect(recordsOf(undefined)).toEqual([])
  })

  test('mark the one used', () => {
    const records = [recordOf('HANDOFF_a_2026-11-30.md'), recordOf('HANDOFF_b_2026-11-30.md')]
    expect(withUse(records, records[1]!.key, 5).map((r) => r.usedAtMs)).toEqual([undefined, 5])
  })
})

describe('ownershipOf', () => {
  const record = recordOf('HANDOFF_a_2026-11-30.md')
  test('is own only while the fingerprint matches', () => {
    expect(ownershipOf([record], record.key, record.sha256)).toBe('own')
    expect(ownershipOf([record], record.key, 'b'.repeat(64))).toBe('changed')
    expect(ownershipOf([record], ownershipKeyOf(CWD, '.claude/handoffs/HANDOFF_other_2026-11-30.md'), record.sha256)).toBe('not-written-here')
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
