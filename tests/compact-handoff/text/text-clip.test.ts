// Cutting texts: what a record keeps, and what the engine's masking takes.
import { describe, expect, test } from 'vitest'
import { MAX_REDACT_CHARS, boundedListOf, boundedSectionOf, headOf, redactableOf } from '../../../packages/compact-handoff/hooks/text/text-clip.js'

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
  const mark = (leftOut: number) => `[${leftOut} cut]`
  test('keeps the head and whole lines while they fit, newlines counted, then the mark of how many it left out', () => {
    // head (4) + '\n' + 'aaaa' (5) = 9; + '\n' + 'bbbb' would be 14 > 13.
    expect(boundedSectionOf('Head', ['aaaa', 'bbbb', 'cc'], 13, mark)).toBe('Head\naaaa\n[2 cut]')
    expect(boundedSectionOf('Head', ['aaaa', 'bbbb'], 14, mark)).toBe('Head\naaaa\nbbbb')
  })

  test('never cuts inside a line, and the head alone stands when nothing fits', () => {
    expect(boundedSectionOf('Head', ['x'.repeat(100)], 50, mark)).toBe('Head\n[1 cut]')
    expect(boundedSectionOf('Head', [], 1, mark)).toBe('Head')
  })
})

describe('boundedListOf', () => {
  test('keeps whole items while they fit and says how many it left out', () => {
    expect(boundedListOf('Files: ', ['a.ts', 'b.ts', 'c.ts'], 20)).toBe('Files: a.ts, b.ts, and 1 more')
    expect(boundedListOf('Files: ', ['a.ts', 'b.ts'], 20)).toBe('Files: a.ts, b.ts')
  })

  test('cuts a first item longer than the bound visibly', () => {
    expect(boundedListOf('Files: ', ['x'.repeat(50), 'b.ts'], 20)).toBe(`Files: ${'x'.repeat(13)} […], and 1 more`)
  })
})
