// The context nudge: its threshold option, when it is due, and its text.
import { describe, expect, test } from 'vitest'
import { NUDGE_ARMED, DEFAULT_NUDGE_PERCENT, nudgeDueAt, nudgePercentOf, nudgeTextOf, type Nudge } from '../../../packages/compact-handoff/hooks/thresholds/nudge.js'

describe('nudgePercentOf', () => {
  test.each([
    [1, 1],
    [99, 99],
    [85, 85],
    [72.5, 72.5],
    ['60', 60],
  ])('takes %j as %d', (option, percent) => {
    expect(nudgePercentOf(option)).toBe(percent)
  })

  test.each([0, 0.5, 99.5, 100, -10, Number.NaN, Number.POSITIVE_INFINITY, undefined, null, '', '  ', 'seventy', '70%', {}, true, [50], '0x32'])(
    'falls back to the default for %j',
    (option) => {
      expect(DEFAULT_NUDGE_PERCENT).toBe(70)
      expect(nudgePercentOf(option)).toBe(DEFAULT_NUDGE_PERCENT)
    },
  )
})

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

describe('nudgeTextOf', () => {
  test('announces the rounded percent and recommends the command', () => {
    expect(nudgeTextOf(71.6)).toBe('context at 72%. /compact-handoff is recommended.')
  })
})
