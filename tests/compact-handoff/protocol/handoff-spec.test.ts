// The handoff spec itself: each version a list of distinct sections, the
// older shapes older than the current one and newest first, and the count word
// prose uses. What is built from the spec and what is held to it is checked in
// tests/contract/handoff-spec.test.ts.
import { describe, expect, test } from 'vitest'
import {
  HANDOFF_SECTION_COUNT_WORD,
  HANDOFF_SECTION_HOLDS,
  HANDOFF_SECTIONS,
  HANDOFF_SHAPE_VERSION,
  HANDOFF_SPEC,
  OLDER_HANDOFF_SHAPES,
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

  test('keeps its older shapes below the current version, newest first, each a different list of sections', () => {
    const versions = [HANDOFF_SHAPE_VERSION, ...OLDER_HANDOFF_SHAPES.map((shape) => shape.version)]
    expect(versions).toEqual([...versions].sort((a, b) => b - a))
    expect(new Set(versions).size).toBe(versions.length)
    const lists = [HANDOFF_SECTIONS, ...OLDER_HANDOFF_SHAPES.map((shape) => shape.sections)].map((sections) => sections.join('|'))
    expect(new Set(lists).size).toBe(lists.length)
    // Version 1 is the first: as many versions as the numbers say.
    expect(versions.at(-1)).toBe(HANDOFF_SHAPE_VERSION - OLDER_HANDOFF_SHAPES.length)
  })

  test('says its count in words, as prose does', () => {
    const countWords = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve']
    expect(HANDOFF_SECTION_COUNT_WORD, 'change it in protocol/handoff-spec.ts with the sections').toBe(countWords[HANDOFF_SECTIONS.length])
  })
})
