// The options as register.ts resolves them from `register`'s second argument:
// each option's accepted values, its default when unset, and what a value of
// the wrong kind or out of bounds reads as.
import { describe, expect, test } from 'vitest'
import { COMPACTION_HANDOFF_VALUES, OPTION_SPECS, optionsOf, type Options } from '../../../packages/compact-handoff/hooks/options/options.js'
import { AUTO_HANDOFF_OFF } from '../../../packages/compact-handoff/hooks/thresholds/auto-handoff.js'

const DEFAULTS: Options = { nudgePercent: 70, autoHandoffPercent: 0, compactionHandoff: 'auto', askAfterCompaction: false }

test('with nothing set, every option is its default', () => {
  expect(optionsOf({})).toEqual(DEFAULTS)
})

test("the auto handoff's default is its off value", () => {
  expect(optionsOf({}).autoHandoffPercent).toBe(AUTO_HANDOFF_OFF)
})

test('each option is read from its own key only', () => {
  expect(optionsOf({ nudgePercent: 50 })).toEqual({ ...DEFAULTS, nudgePercent: 50 })
  expect(optionsOf({ autoHandoffPercent: 80 })).toEqual({ ...DEFAULTS, autoHandoffPercent: 80 })
  expect(optionsOf({ compactionHandoff: 'all' })).toEqual({ ...DEFAULTS, compactionHandoff: 'all' })
  expect(optionsOf({ askAfterCompaction: true })).toEqual({ ...DEFAULTS, askAfterCompaction: true })
  expect(optionsOf({ nudge: 50, autoPercent: 80, askAfterCompactions: true })).toEqual(DEFAULTS)
})

describe('nudgePercent', () => {
  test.each([
    [1, 1],
    [99, 99],
    [85, 85],
    [72.5, 72.5],
    ['60', 60],
    [' 60 ', 60],
  ])('takes %j as %d', (option, percent) => {
    expect(optionsOf({ nudgePercent: option }).nudgePercent).toBe(percent)
  })

  test.each([0, 0.5, 99.5, 100, -10, Number.NaN, Number.POSITIVE_INFINITY, undefined, null, '', '  ', 'seventy', '70%', {}, true, [50], '0x32'])(
    'falls back to the default for %j',
    (option) => {
      expect(optionsOf({ nudgePercent: option }).nudgePercent).toBe(70)
    },
  )
})

describe('autoHandoffPercent', () => {
  test.each([
    [80, 80],
    ['75', 75],
    [99, 99],
    [0.5, 0.5],
    [0, AUTO_HANDOFF_OFF],
    [-0, AUTO_HANDOFF_OFF],
    [100, AUTO_HANDOFF_OFF],
    [-5, AUTO_HANDOFF_OFF],
    ['', AUTO_HANDOFF_OFF],
    ['80%', AUTO_HANDOFF_OFF],
    [undefined, AUTO_HANDOFF_OFF],
    [true, AUTO_HANDOFF_OFF],
  ])('reads %j as %d', (option, percent) => {
    expect(optionsOf({ autoHandoffPercent: option }).autoHandoffPercent).toBe(percent)
  })
})

describe('compactionHandoff', () => {
  test('reads each known value as itself', () => {
    expect(COMPACTION_HANDOFF_VALUES).toEqual(['auto', 'all', 'off'])
    for (const value of COMPACTION_HANDOFF_VALUES) expect(optionsOf({ compactionHandoff: value }).compactionHandoff).toBe(value)
  })

  test('reads anything else as the default, auto', () => {
    for (const value of [undefined, '', 'AUTO', ' all', 'none', 'true', true, 0, ['all']]) expect(optionsOf({ compactionHandoff: value }).compactionHandoff, String(value)).toBe('auto')
  })
})

describe('askAfterCompaction', () => {
  test('is on only for true', () => {
    expect(optionsOf({ askAfterCompaction: true }).askAfterCompaction).toBe(true)
    for (const value of [false, undefined, 'true', 'on', 1, ['true']]) expect(optionsOf({ askAfterCompaction: value }).askAfterCompaction, String(value)).toBe(false)
  })
})

test('OPTION_SPECS names exactly the options resolved', () => {
  expect(Object.keys(OPTION_SPECS).sort()).toEqual(Object.keys(optionsOf({})).sort())
})
