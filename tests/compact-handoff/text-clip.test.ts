// Cutting texts: what a record keeps, and what the engine's masking takes.
import { describe, expect, test } from 'vitest'
import { MAX_REDACT_CHARS, headOf, redactableOf } from '../../packages/compact-handoff/hooks/text-clip.js'

describe('headOf', () => {
  test('keeps a text that fits, whole', () => {
    expect(headOf('abc', 3)).toBe('abc')
    expect(headOf('', 0)).toBe('')
  })

  test('cuts to the first n code units', () => {
    expect(headOf('abcdef', 4)).toBe('abcd')
  })

  test('never splits a surrogate pair: one fewer when the cut falls between its halves', () => {
    expect(headOf('ab🙂cd', 3)).toBe('ab')
    expect(headOf('ab🙂cd', 4)).toBe('ab🙂')
  })
})

describe('redactableOf', () => {
  test("is at most what the engine's redact takes (100,000 code units)", () => {
    expect(MAX_REDACT_CHARS).toBe(100_000)
    expect(redactableOf('x'.repeat(250_000))).toHaveLength(MAX_REDACT_CHARS)
    expect(redactableOf('short')).toBe('short')
  })
})
