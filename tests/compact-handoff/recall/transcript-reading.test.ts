// How recall reads the transcript: by range, a character cut by a range's edge
// carried to the next, and the short wait for the engine's queued writes when
// a search has read no boundary.
import { describe, expect, test } from 'vitest'
import { LAG_POLL_MS, LAG_POLLS, waitsForWritesOf, wholeCharsLengthOf } from '../../../packages/compact-handoff/hooks/recall/transcript-reading.js'

describe('wholeCharsLengthOf', () => {
  test('leaves out an incomplete character at the end of a range, and only that', () => {
    const bytes = new TextEncoder().encode('aé€😀')
    expect(wholeCharsLengthOf(bytes)).toBe(bytes.length)
    for (let cut = 1; cut <= bytes.length; cut++) {
      const whole = wholeCharsLengthOf(bytes.subarray(0, cut))
      expect(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, whole)), `cut at ${cut}`).toBe(new TextDecoder().decode(bytes.subarray(0, whole)))
      expect(cut - whole).toBeLessThan(4)
    }
  })
})

describe('waitsForWritesOf', () => {
  const NOTHING_YET = { isCut: false, boundaries: 0, hasSeenCall: false, polls: 0 }

  test('a search that read no boundary nor its own call waits, about 1.5 s in all', () => {
    let polls = 0
    while (waitsForWritesOf({ ...NOTHING_YET, polls })) polls++
    expect(polls).toBe(LAG_POLLS)
    expect(LAG_POLLS * LAG_POLL_MS).toBe(1_500)
  })

  test('stops at a boundary read, at its own call read (all before it is on disk), and after its budget cut it', () => {
    expect(waitsForWritesOf({ ...NOTHING_YET, boundaries: 1 })).toBe(false)
    expect(waitsForWritesOf({ ...NOTHING_YET, hasSeenCall: true })).toBe(false)
    expect(waitsForWritesOf({ ...NOTHING_YET, isCut: true })).toBe(false)
  })
})
