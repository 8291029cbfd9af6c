// The context nudge: when it is due, and its text (its option: tests/compact-handoff/options/).
import { describe, expect, test } from 'vitest'
import { NUDGE_ARMED, nudgeDueAt, type Nudge } from '../../../packages/compact-handoff/hooks/thresholds/nudge.js'

describe('nudgeDueAt', () => {
  const FIRED: Nudge = { kind: 'fired', percent: 71 }

  test('is quiet just below the threshold', () => {
    expect(nudgeDueAt(NUDGE_ARMED, 69.9, 70)).toBeUndefined()
  })

  test('is due at the threshold, with the percent to announce', () => {
    expect(nudgeDueAt(NUDGE_ARMED, 70, 70)).toBe(70)
  })

  test('is due above the threshold', () => {
    expect(nudgeDueAt(NUDGE_ARMED, 93.4, 70)).toBe(93.4)
  })

  test('counts an unknown percent as 0, so it is quiet even at the lowest threshold', () => {
    expect(nudgeDueAt(NUDGE_ARMED, undefined, 1)).toBeUndefined()
  })

  test('never fires again once fired in this window', () => {
    for (const percent of [70, 99, 100, undefined]) expect(nudgeDueAt(FIRED, percent, 70)).toBeUndefined()
  })
})
