// The handoff spec itself: a list of distinct sections, and the count word
// prose uses. What is built from the spec and what is held to it is checked in
// tests/contract/handoff-spec.test.ts.
import { describe, expect, test } from 'vitest'
import {
  HANDOFF_SECTION_COUNT_WORD,
  HANDOFF_SECTION_HOLDS,
  HANDOFF_SECTIONS,
  HANDOFF_SPEC,
} from '../../../packages/compact-handoff/hooks/protocol/handoff-spec.js'
import { sectionNameOf } from '../../../packages/compact-handoff/hooks/protocol/protocol-contents.js'

describe('the handoff spec', () => {
  test('names each section once, with what it holds', () => {
    expect(new Set(HANDOFF_SECTIONS).size).toBe(HANDOFF_SPEC.length)
    for (const { name, holds } of HANDOFF_SPEC) {
      expect(HANDOFF_SECTION_HOLDS[name]).toBe(holds)
      expect(holds.trim(), `${name} says what it holds`).not.toBe('')
      expect(sectionNameOf(`${name}:`), `a heading "## ${name}" reads as its section`).toBe(name)
    }
  })

  test('says its count in words, as prose does', () => {
    const countWords = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve']
    expect(HANDOFF_SECTION_COUNT_WORD, 'change it in protocol/handoff-spec.ts with the sections').toBe(countWords[HANDOFF_SECTIONS.length])
  })
})
