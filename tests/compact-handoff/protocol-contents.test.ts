// The value forms a handoff's frontmatter may carry: the format check and the
// handoff-tools schemas both judge a file by them, so an edge pinned here holds
// for both.
import { describe, expect, test } from 'vitest'
import { isChainValue, isFocusValue, isSeqValue } from '../../packages/compact-handoff/hooks/protocol-contents.js'

describe('the frontmatter values', () => {
  test('seq is a whole number from 1, as written', () => {
    for (const ok of ['1', '2', '10', '123456']) expect(isSeqValue(ok), ok).toBe(true)
    for (const bad of ['0', '01', '-1', '+1', '1.0', '1e0', ' 1', '', 'one']) expect(isSeqValue(bad), bad).toBe(false)
  })

  test('chain is a handoff file name without .md; focus is not blank', () => {
    expect(isChainValue('HANDOFF_x_2026-11-29')).toBe(true)
    expect(isChainValue('PLAN_x_2026-11-29')).toBe(false)
    expect(isChainValue('new')).toBe(false)
    expect(isFocusValue('none')).toBe(true)
    expect(isFocusValue(' \u3000\t')).toBe(false)
  })
})
