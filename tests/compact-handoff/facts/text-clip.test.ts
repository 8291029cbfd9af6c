// Cutting texts: what a record keeps, and what the engine's masking takes.
import { describe, expect, test } from 'vitest'
import { MAX_REDACT_CHARS, boundedSectionOf, headOf, redactableOf } from '../../../packages/compact-handoff/hooks/facts/text-clip.js'

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

describe('boundedSectionOf', () => {
  test('keeps the head and whole lines while they fit, newlines counted, then the mark', () => {
    // head (4) + '\n' + 'aaaa' (5) = 9; + '\n' + 'bbbb' would be 14 > 13.
    expect(boundedSectionOf('Head', ['aaaa', 'bbbb', 'cc'], 13, '[cut]')).toBe('Head\naaaa\n[cut]')
    expect(boundedSectionOf('Head', ['aaaa', 'bbbb'], 14, '[cut]')).toBe('Head\naaaa\nbbbb')
  })

  test('never cuts inside a line, and the head alone stands when nothing fits', () => {
    expect(boundedSectionOf('Head', ['x'.repeat(100)], 50, '[cut]')).toBe('Head\n[cut]')
    expect(boundedSectionOf('Head', [], 1, '[cut]')).toBe('Head')
  })
})
