// The person's own words, recorded at prompt.submit and carried verbatim into
// the stub: which prompts count as theirs, how one message is clipped, how the
// total is bounded (oldest dropped first, the first request always kept), and
// the stub's section that lists them.
import { describe, expect, test } from 'vitest'
import {
  MAX_MESSAGE_CHARS,
  MAX_WORDS_CHARS,
  NO_WORDS,
  clippedMessageOf,
  isTypedByUser,
  userWordsSectionOf,
  withUserMessage,
  wordsSizeOf,
  type PromptInput,
} from '../../../packages/compact-handoff/hooks/words/user-words.js'
import { CUT_MARK, HEADING, total, wordsOf } from '../../support/user-words-text.js'

/** A message of exactly `length` characters, recognisable by its tag. */
function sized(tag: string, length: number): string {
  return `${tag}:`.padEnd(length, '.')
}

describe('isTypedByUser', () => {
  test.each(['composer', 'sdk', 'bridge'])('records a prompt from %s', (kind) => {
    expect(isTypedByUser({ origin: { kind } })).toBe(true)
  })

  test.each([
    'plugin',
    'task-notification',
    'peer',
    'peer-send-message',
    'scheduled-trigger',
    'projects-relay',
    'channel',
    'coordinator',
    'observer',
    'observer-activity',
    'auto-continuation',
    'unclassified',
  ])('leaves out a prompt from %s', (kind) => {
    expect(isTypedByUser({ origin: { kind } })).toBe(false)
  })

  test.each(['composer', 'sdk', 'bridge'])('counts a slash command typed at %s as typed (prompt-steps.ts records only words)', (kind) => {
    expect(isTypedByUser({ origin: { kind }, command: { name: 'clear', args: '' } })).toBe(true)
  })

  test.each(['composer', 'sdk', 'bridge'])('leaves out a meta row from %s', (kind) => {
    expect(isTypedByUser({ origin: { kind }, isMeta: true })).toBe(false)
  })

  test('reads the origin kind only, so a plugin submitting as the user is still a plugin', () => {
    const prompt: PromptInput = { origin: { kind: 'plugin' } }
    expect(isTypedByUser(prompt)).toBe(false)
  })
})

describe('clippedMessageOf', () => {
  test('keeps a message of up to 2,000 characters as it is', () => {
    expect(MAX_MESSAGE_CHARS).toBe(2_000)
    const exact = sized('m', 2_000)
    expect(clippedMessageOf(exact)).toBe(exact)
    expect(clippedMessageOf('  fix it\n\n')).toBe('  fix it\n\n')
    expect(clippedMessageOf('')).toBe('')
  })

  test('cuts a longer message at 2,000 characters and marks the cut visibly', () => {
    const long = `${'a'.repeat(2_000)}THE REST`
    const clipped = clippedMessageOf(long)
    expect(clipped).toBe(`${'a'.repeat(2_000)}${CUT_MARK}`)
    expect(clipped).not.toContain('THE REST')
    expect(clipped).toContain('cut')
  })

  test('cuts a message one character over the bound', () => {
    const clipped = clippedMessageOf(sized('m', 2_001))
    expect(clipped.slice(0, 2_000)).toBe(sized('m', 2_000))
    expect(clipped.slice(2_000)).toBe(CUT_MARK)
  })
})

describe('withUserMessage', () => {
  test('appends messages verbatim, oldest first', () => {
    expect(wordsOf('first', '  second\n  with lines  ', 'third')).toEqual({ messages: ['first', '  second\n  with lines  ', 'third'], dropped: 0 })
  })

  test('ignores a blank message', () => {
    const words = wordsOf('first')
    expect(withUserMessage(words, '')).toBe(words)
    expect(withUserMessage(words, ' \n\t ')).toBe(words)
  })

  test('does not change the words it was given', () => {
    const words = wordsOf('first')
    withUserMessage(words, 'second')
    expect(words).toEqual({ messages: ['first'], dropped: 0 })
  })

  test('clips a long message as it records it', () => {
    const long = 'x'.repeat(5_000)
    expect(wordsOf('first', long).messages[1]).toBe(clippedMessageOf(long))
  })

  test('keeps everything up to exactly 12,000 characters', () => {
    expect(MAX_WORDS_CHARS).toBe(12_000)
    const messages = ['a', 'b', 'c', 'd', 'e', 'f'].map((tag) => sized(tag, 2_000))
    const words = wordsOf(...messages)
    expect(words).toEqual({ messages, dropped: 0 })
    expect(total(words.messages)).toBe(12_000)
  })

  test('past 12,000, drops the oldest message after the first', () => {
    const messages = ['a', 'b', 'c', 'd', 'e', 'f'].map((tag) => sized(tag, 2_000))
    const words = wordsOf(...messages, 'g')
    expect(words.messages).toEqual([messages[0], ...messages.slice(2), 'g'])
    expect(words.dropped).toBe(1)
  })

  test('drops as many of the oldest as needed for one large message, and counts them', () => {
    const small = Array.from({ length: 10 }, (_, i) => sized(`s${i}`, 1_000))
    const words = wordsOf(sized('first', 1_500), ...small, sized('big', 2_000))
    // 1,500 + 2,000 + 8 × 1,000 = 11,500 fits; a ninth small one would not.
    expect(words.messages).toEqual([sized('first', 1_500), ...small.slice(2), sized('big', 2_000)])
    expect(words.dropped).toBe(2)
    expect(total(words.messages)).toBeLessThanOrEqual(MAX_WORDS_CHARS)
  })

  test('always keeps the first request, however many messages follow', () => {
    const first = 'Port the build from npm to pnpm and keep the lockfile.'
    const words = wordsOf(first, ...Array.from({ length: 200 }, (_, i) => sized(`later${i}`, 1_900)))
    expect(words.messages[0]).toBe(first)
    expect(words.messages.at(-1)).toBe(sized('later199', 1_900))
    expect(words.dropped + words.messages.length).toBe(201)
    expect(total(words.messages)).toBeLessThanOrEqual(MAX_WORDS_CHARS)
  })

  test('keeps a clipped first request whole, mark included', () => {
    const first = 'f'.repeat(9_000)
    const words = wordsOf(first, 'next')
    expect(words.messages).toEqual([clippedMessageOf(first), 'next'])
  })

  test('counts drops across many calls', () => {
    let words = wordsOf(sized('first', 2_000))
    for (let i = 0; i < 30; i++) words = withUserMessage(words, sized(`m${i}`, 2_000))
    // The first plus five of 2,000 fill the 12,000 exactly.
    expect(words.messages).toEqual([sized('first', 2_000), ...[25, 26, 27, 28, 29].map((i) => sized(`m${i}`, 2_000))])
    expect(words.dropped).toBe(25)
  })
})

describe('userWordsSectionOf', () => {
  test('gives nothing when no words were recorded', () => {
    expect(userWordsSectionOf(NO_WORDS)).toBeUndefined()
  })

  test('lists the messages verbatim, oldest first, under the heading', () => {
    const section = userWordsSectionOf(wordsOf('Rewrite the parser.', '  keep the API\n\nand the tests  '))
    expect(section).toBe([HEADING, '[user message 1]', 'Rewrite the parser.', '[user message 2]', '  keep the API\n\nand the tests  '].join('\n'))
  })

  test('marks where messages were dropped: right after the first', () => {
    const messages = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((tag) => sized(tag, 2_000))
    const words = wordsOf(...messages)
    expect(words.dropped).toBe(2)
    const lines = userWordsSectionOf(words)?.split('\n')
    expect(lines).toEqual([
      HEADING,
      '[user message 1]',
      messages[0],
      '[2 earlier message(s) after this one were dropped here to stay within 12000 characters]',
      ...messages.slice(3).flatMap((m, i) => [`[user message ${i + 2}]`, m]),
    ])
  })

  test('shows a clipped message with its cut mark', () => {
    const section = userWordsSectionOf(wordsOf('y'.repeat(3_000)))
    expect(section).toContain(`[user message 1]\n${'y'.repeat(2_000)}${CUT_MARK}`)
  })
})

describe('wordsSizeOf', () => {
  test('counts the messages and their characters', () => {
    expect(wordsSizeOf(NO_WORDS)).toEqual({ count: 0, chars: 0 })
    expect(wordsSizeOf(wordsOf('abc', 'de'))).toEqual({ count: 2, chars: 5 })
  })

  test('counts a clipped message with its mark', () => {
    expect(wordsSizeOf(wordsOf('z'.repeat(2_500)))).toEqual({ count: 1, chars: 2_000 + CUT_MARK.length })
  })
})
