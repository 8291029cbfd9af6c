// One reader per kind of option value: percent, on/off, choice.
import { describe, expect, test } from 'vitest'
import { choiceOf, onOffOf, percentOf } from '../../../packages/compact-handoff/hooks/options/options.js'
import { cpuMsOf } from '../../support/cpu-time.js'

describe('percentOf', () => {
  const BOUNDS = { min: 1, max: 99 }
  test('takes a number or a decimal string within the bounds, the bounds included', () => {
    expect([1, 99, 42.5, '7', '\t12.25\n'].map((v) => percentOf(v, BOUNDS))).toEqual([1, 99, 42.5, 7, 12.25])
  })
  test('is undefined for anything else', () => {
    for (const value of [0.99, 99.01, Number.NaN, Number.NEGATIVE_INFINITY, '1e1', '.5', '5.', '+5', '-5', '5 %', 'five', null, false, [5], { value: 5 }]) {
      expect(percentOf(value, BOUNDS), String(value)).toBeUndefined()
    }
  })
  test('reads a 250,000-character string in linear time', () => {
    const ms = cpuMsOf(() => {
      expect(percentOf(`${' '.repeat(250_000)}x`, BOUNDS)).toBeUndefined()
      expect(percentOf(`${'1'.repeat(250_000)}.`, BOUNDS)).toBeUndefined()
    })
    expect(ms, 'CPU ms, which other load does not stretch').toBeLessThan(500)
  })
})

describe('onOffOf', () => {
  test('takes a boolean only', () => {
    expect([true, false, 'true', 'false', 1, 0, null, undefined].map(onOffOf)).toEqual([true, false, undefined, undefined, undefined, undefined, undefined, undefined])
  })
})

describe('choiceOf', () => {
  test('takes one of the values exactly', () => {
    const VALUES = ['auto', 'all', 'off'] as const
    expect(['auto', 'all', 'off', 'Auto', ' off', 'of', '', 0, undefined].map((v) => choiceOf(v, VALUES))).toEqual(['auto', 'all', 'off', undefined, undefined, undefined, undefined, undefined, undefined])
  })
})
