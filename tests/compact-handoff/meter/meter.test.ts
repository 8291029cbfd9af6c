// The rediscovery meter: what a window re-reads and re-runs after a swap, a
// resume or a compaction, compared against the facts recorded before it.
import { describe, expect, test } from 'vitest'
import { meterCountsTextOf } from '../../../packages/compact-handoff/hooks/swap-log/swap-log.js'
import { NO_FACTS, withCommand, withRead } from '../../../packages/compact-handoff/hooks/facts/facts.js'
import { METER_TURNS, NOT_WATCHING, meterAfterTurn, meterWithCommand, meterWithRead, meterWithRecall, watchingAfter } from '../../../packages/compact-handoff/hooks/meter/meter.js'

describe('the rediscovery meter', () => {
  const before = withCommand(withRead(withRead(NO_FACTS, '/a'), '/b'), 'pnpm test', 1)
  const after = { kind: 'swapped' as const, handoff: '/h.md' }

  test('counts files read again and commands run again, once each; the handoff itself is not a re-read', () => {
    let f = watchingAfter(after, before)
    for (const p of ['/a', '/a', '/c', '/h.md']) f = meterWithRead(f, p)
    for (const c of ['pnpm test', 'pnpm test', 'ls']) f = meterWithCommand(f, c)
    expect(f).toMatchObject({ reReads: ['/a'], repeatedCommands: ['pnpm test'], handoffRead: true })
  })

  test('closes after METER_TURNS turns with its counts', () => {
    let f = meterWithRead(watchingAfter(after, before), '/b')
    for (let i = 1; i < METER_TURNS; i++) {
      const step = meterAfterTurn(f)
      expect(step.closed).toBeUndefined()
      f = step.meter
    }
    const last = meterAfterTurn(f)
    expect(last.meter).toEqual(NOT_WATCHING)
    expect(last.closed?.reReads).toEqual(['/b'])
  })

  test('says the first turn went by without reading the handoff, once', () => {
    const first = meterAfterTurn(watchingAfter(after, before))
    expect(first.isUnread).toBe(true)
    expect(meterAfterTurn(first.meter).isUnread).toBe(false)
    expect(meterAfterTurn(meterWithRead(watchingAfter(after, before), '/h.md')).isUnread).toBe(false)
  })

  test('counts nothing when not watching', () => {
    expect(meterWithRead(NOT_WATCHING, '/a')).toBe(NOT_WATCHING)
    expect(meterAfterTurn(NOT_WATCHING)).toEqual({ meter: NOT_WATCHING, isUnread: false })
  })
})

describe('recall calls', () => {
  const after = { kind: 'swapped' as const, handoff: '/srv/app/plans/handoffs/HANDOFF_x.md' }

  test('are counted apart from files read and commands run again, only while a window is open', () => {
    const watching = meterWithRecall(meterWithRecall(watchingAfter(after, NO_FACTS)))
    expect(watching.kind === 'watching' && watching.recalls).toBe(2)
    expect(watching.kind === 'watching' && [watching.reReads, watching.repeatedCommands]).toEqual([[], []])
    expect(meterWithRecall(NOT_WATCHING)).toBe(NOT_WATCHING)
  })

  test('are said beside the re-reads and re-runs when there were any', () => {
    expect(meterCountsTextOf(1, 0, 3)).toBe('1 file re-read, no command re-run, 3 recalls')
    expect(meterCountsTextOf(0, 0)).toBe('no file re-read, no command re-run')
  })
})
