import { describe, expect, test } from 'vitest'
import { MAX_STUB_ROWS, mayBeStub, sizeTextOf, stubRowLineOf, stubRowOf, withStubRow, type StubRow } from '../../../packages/compact-handoff/hooks/stub-row/stub-row.js'
import { buildStub, STUB_OPENING } from '../../../packages/compact-handoff/hooks/stub/swap-text.js'
import { fingerprintOf } from '../../../packages/compact-handoff/hooks/ownership/ownership.js'

const HANDOFF = '.claude/handoffs/HANDOFF_parser_2026-12-01.md'
const row = (over: Partial<StubRow> = {}): StubRow => ({ kind: 'swap', sha256: 'a'.repeat(64), handoff: HANDOFF, bytes: 6_246, ...over })
/** The user row's lead ("❯ ") and one spare cell. */
const roomOf = (columns: number): number => columns - 3

describe("the stub's row line", () => {
  test('a wide surface gets the whole sentence and path', () => {
    expect(stubRowLineOf(row(), 160)).toBe(`compact-handoff: the conversation is now ${HANDOFF} (6.1 KB) · ctrl+o to read`)
    expect(stubRowLineOf(row({ kind: 'compaction' }), 160)).toBe(`compact-handoff: compacted; the conversation is now ${HANDOFF} (6.1 KB) · ctrl+o to read`)
  })

  test('fits one line at the default 80 columns, the name whole where it can be', () => {
    for (const kind of ['swap', 'compaction'] as const) {
      const line = stubRowLineOf(row({ kind }))
      expect(line.length, line).toBeLessThanOrEqual(roomOf(80))
      expect(line).toContain('HANDOFF_parser_2026-12-01.md (6.1 KB) · ctrl+o')
    }
  })

  test('shortens a long path, then the name, from the left: its date and extension stay', () => {
    const long = `${'deep/'.repeat(30)}.claude/handoffs/HANDOFF_a-very-long-focus-slug-written-by-the-model_2026-12-01.md`
    for (const columns of [64, 80, 120, 160]) {
      const line = stubRowLineOf(row({ handoff: long }), columns)
      expect(line.length, `${columns}: ${line}`).toBeLessThanOrEqual(roomOf(columns))
      expect(line).toContain('_2026-12-01.md (6.1 KB)')
      expect(line, 'the folders go first').not.toContain('deep/deep')
    }
  })

  test('a Windows path is shortened at its backslashes', () => {
    const line = stubRowLineOf(row({ handoff: 'C:\\Users\\someone\\work\\project\\.claude\\handoffs\\HANDOFF_parser_2026-12-01.md' }), 100)
    expect(line.length).toBeLessThanOrEqual(roomOf(100))
    expect(line).toMatch(/…\\[^ ]*HANDOFF_parser_2026-12-01\.md \(6\.1 KB\)/)
  })

  test('a surface too narrow for any form keeps the name\'s tail and wraps', () => {
    const line = stubRowLineOf(row(), 30)
    expect(line).toBe('compact-handoff: swapped to …26-12-01.md (6.1 KB) · ctrl+o')
  })

  test('sizes read as a person reads them', () => {
    expect([0, 812, 1024, 6_246, 1_048_576, 3_500_000].map(sizeTextOf)).toEqual(['0 B', '812 B', '1.0 KB', '6.1 KB', '1.0 MB', '3.3 MB'])
  })
})

describe('the stubs remembered', () => {
  test('keep the newest few, once each', () => {
    let rows: StubRow[] = []
    for (let i = 0; i < MAX_STUB_ROWS + 2; i++) rows = withStubRow(rows, row({ sha256: String(i) }))
    rows = withStubRow(rows, row({ sha256: '3', bytes: 1 }))
    expect(rows.map((r) => r.sha256)).toEqual(['2', '4', '5', '3'])
    expect(stubRowOf(rows, '3')?.bytes).toBe(1)
    expect(stubRowOf(rows, '0')).toBeUndefined()
  })

  test('a row is a stub only by its whole text: a typed row with the stub\'s words has another digest', async () => {
    const stub = buildStub({ handoff: HANDOFF }, { messages: ['ask ONE'], dropped: 0 })
    const rows = withStubRow([], row({ sha256: (await fingerprintOf(stub)).sha256 }))
    expect(stubRowOf(rows, (await fingerprintOf(stub)).sha256)).toBeDefined()
    for (const typed of [stub.split('\n')[0]!, `${stub} `, `${stub}\nmore`, STUB_OPENING]) {
      expect(mayBeStub(typed)).toBe(true)
      expect(stubRowOf(rows, (await fingerprintOf(typed)).sha256), typed.slice(-20)).toBeUndefined()
    }
    expect(mayBeStub('ask ONE: fix the parser')).toBe(false)
  })
})
