// The bounds on the person's recorded words, over random sessions: the total
// stays bounded and the first request is never lost, and no clipping (this
// of the words, or of a typed answer quoted back) splits a surrogate pair.
import { describe, expect, test } from 'vitest'
import {
  MAX_MESSAGE_CHARS,
  MAX_WORDS_CHARS,
  NO_WORDS,
  clippedMessageOf,
  userWordsSectionOf,
} from '../../../packages/compact-handoff/hooks/words/user-words.js'
import { askVerdictOf } from '../../../packages/compact-handoff/hooks/ask/ask.js'
import { forAll, type Rand } from '../../support/property.js'
import { CUT_MARK, HEADING, total, wordsOf } from '../../support/user-words-text.js'
import { LOADED_MACHINE_TIMEOUT_MS } from '../../support/loaded-machine.js'

describe('withUserMessage over random sessions (property)', () => {
  function messageOf(rand: Rand, i: number): string {
    const length = rand.pick([
      () => rand.int(40),
      () => 100 + rand.int(1_500),
      () => 1_900 + rand.int(200),
      () => 2_000 + rand.int(8_000),
      () => 0,
    ])()
    const blank = rand.int(10) === 0
    return blank ? ' \n'.slice(0, rand.int(3)) : `#${i}`.padEnd(length, rand.pick(['x', ' ', '\n', 'é']))
  }

  function sessionOf(rand: Rand): string[] {
    return Array.from({ length: rand.int(40) }, (_, i) => messageOf(rand, i))
  }

  test('stays within 12,000 characters except by the first and the newest, never loses the first, drops only the oldest', { timeout: LOADED_MACHINE_TIMEOUT_MS }, () => {
    forAll(sessionOf, (session) => {
      const words = wordsOf(...session)
      const recorded = session.filter((m) => m.trim() !== '').map(clippedMessageOf)
      const { messages, dropped } = words

      // Nothing is lost without being counted.
      expect(messages.length + dropped).toBe(recorded.length)
      if (recorded.length === 0) return expect(words).toEqual(NO_WORDS)

      // The first request and the newest message are always there.
      expect(messages[0]).toBe(recorded[0])
      expect(messages.at(-1)).toBe(recorded.at(-1))

      // The bound holds, unless only the first and the newest are left.
      const first = recorded[0] ?? ''
      const newest = recorded.at(-1) ?? ''
      expect(total(messages)).toBeLessThanOrEqual(Math.max(MAX_WORDS_CHARS, first.length + (recorded.length > 1 ? newest.length : 0)))
      if (messages.length > 2) expect(total(messages)).toBeLessThanOrEqual(MAX_WORDS_CHARS)

      // The oldest go first: the kept ones are the first plus the newest run, in order.
      expect(messages.slice(1)).toEqual(recorded.slice(1 + dropped))

      // No more is dropped than needed: the newest dropped one would not have fit.
      const lastDropped = recorded[dropped]
      if (dropped > 0 && lastDropped !== undefined) expect(total(messages) + lastDropped.length).toBeGreaterThan(MAX_WORDS_CHARS)
    })
  })

  test('the stub section lists every kept message verbatim in order and marks a cut exactly when there was one', () => {
    forAll(sessionOf, (session) => {
      const words = wordsOf(...session)
      const section = userWordsSectionOf(words)
      if (words.messages.length === 0) return expect(section).toBeUndefined()
      expect(section?.startsWith(`${HEADING}\n[user message 1]\n${words.messages[0]}`)).toBe(true)
      let at = 0
      words.messages.forEach((message, i) => {
        const block = `[user message ${i + 1}]\n${message}`
        const found = section?.indexOf(block, at) ?? -1
        expect(found, `message ${i + 1}`).toBeGreaterThanOrEqual(at)
        at = found + block.length
      })
      expect(section?.includes('were dropped here')).toBe(words.dropped > 0)
    }, { runs: 500 })
  })
})

describe('clipping never splits a surrogate pair (property)', () => {
  const LONE_SURROGATE_RE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

  /** Text around the clipping bound, of one- and two-unit characters, so the
   * bound falls between the halves of a pair about half the time. */
  function textNearBoundOf(rand: Rand, pieces: readonly string[]): string {
    const length = rand.pick([MAX_MESSAGE_CHARS - 2, MAX_MESSAGE_CHARS - 1, MAX_MESSAGE_CHARS, MAX_MESSAGE_CHARS + 1, MAX_MESSAGE_CHARS + 2, 1 + rand.int(3 * MAX_MESSAGE_CHARS)])
    let text = ''
    while (text.length < length) text += rand.pick(pieces)
    return text
  }
  const WELL_FORMED = ['a', ' ', '\n', 'é', '中', '🙂', '𝄞', '👍🏽'] as const
  const WITH_LONE_HALVES = [...WELL_FORMED, '\ud83d', '\ude42'] as const

  test('a well-formed message is kept whole up to the bound, else cut at it or one unit before, between characters', () => {
    forAll((rand) => textNearBoundOf(rand, WELL_FORMED), (text) => {
      const clipped = clippedMessageOf(text)
      expect(LONE_SURROGATE_RE.test(clipped), 'no lone surrogate').toBe(false)
      if (text.length <= MAX_MESSAGE_CHARS) return expect(clipped).toBe(text)
      expect(clipped.endsWith(CUT_MARK)).toBe(true)
      const kept = clipped.slice(0, -CUT_MARK.length)
      expect(text.startsWith(kept), 'the kept part is the start of the message').toBe(true)
      expect(kept.length).toBeGreaterThanOrEqual(MAX_MESSAGE_CHARS - 1)
      expect(kept.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS)
    })
  })

  test('no lone surrogate reaches the recorded words or the stub section, even from a message that held one', () => {
    forAll((rand) => Array.from({ length: 1 + rand.int(4) }, () => textNearBoundOf(rand, WITH_LONE_HALVES)), (session) => {
      const words = wordsOf(...session)
      for (const message of words.messages) {
        expect(LONE_SURROGATE_RE.test(message)).toBe(false)
        expect(message.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS + CUT_MARK.length)
      }
      expect(LONE_SURROGATE_RE.test(userWordsSectionOf(words) ?? '')).toBe(false)
    }, { runs: 500 })
  })

  test('the quoting of a typed answer to askAfterCompaction splits no pair either', () => {
    forAll((rand) => textNearBoundOf(rand, WELL_FORMED), (text) => {
      const verdict = askVerdictOf(text)
      const quoted = verdict.kind === 'deny' ? verdict.text : ''
      expect(LONE_SURROGATE_RE.test(quoted), 'no lone surrogate').toBe(false)
    }, { runs: 500 })
  })

  test('a lone half is shown as U+FFFD, and a pair cut at the bound goes whole to the next message', () => {
    expect(clippedMessageOf('a\ud83db')).toBe('a\ufffdb')
    expect(clippedMessageOf('\ude42')).toBe('\ufffd')
    const straddling = `${'a'.repeat(MAX_MESSAGE_CHARS - 1)}🙂tail`
    expect(clippedMessageOf(straddling)).toBe(`${'a'.repeat(MAX_MESSAGE_CHARS - 1)}${CUT_MARK}`)
  })
})
