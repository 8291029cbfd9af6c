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
  isUsersOwnPrompt,
  userWordsSectionOf,
  withUserMessage,
  wordsSizeOf,
  type PromptFacts,
  type UserWords,
} from '../../packages/compact-handoff/hooks/user-words.js'
import { verdictOf } from '../../packages/compact-handoff-answer/hooks/ask.js'
import { forAll, type Rand } from '../support/property.js'

const HEADING = "The user's own messages in this session, verbatim and oldest first. They are the user's exact words and win over anything else in this context:"
const CUT_MARK = ' […cut: the rest of this message was longer than 2,000 characters]'

function wordsOf(...messages: string[]): UserWords {
  return messages.reduce(withUserMessage, NO_WORDS)
}

function total(messages: readonly string[]): number {
  return messages.reduce((sum, m) => sum + m.length, 0)
}

/** A message of exactly `length` characters, recognisable by its tag. */
function sized(tag: string, length: number): string {
  return `${tag}:`.padEnd(length, '.')
}

describe('isUsersOwnPrompt', () => {
  test.each(['composer', 'sdk', 'bridge'])('records a prompt from %s', (kind) => {
    expect(isUsersOwnPrompt({ origin: { kind } })).toBe(true)
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
    expect(isUsersOwnPrompt({ origin: { kind } })).toBe(false)
  })

  test.each(['composer', 'sdk', 'bridge'])('leaves out a slash command typed at %s', (kind) => {
    expect(isUsersOwnPrompt({ origin: { kind }, command: { name: 'compact-handoff', args: 'status' } })).toBe(false)
    expect(isUsersOwnPrompt({ origin: { kind }, command: { name: 'clear', args: '' } })).toBe(false)
  })

  test.each(['composer', 'sdk', 'bridge'])('leaves out a meta row from %s', (kind) => {
    expect(isUsersOwnPrompt({ origin: { kind }, isMeta: true })).toBe(false)
  })

  test('reads the origin kind only, so a plugin submitting as the user is still a plugin', () => {
    const prompt: PromptFacts = { origin: { kind: 'plugin' } }
    expect(isUsersOwnPrompt(prompt)).toBe(false)
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

  test('stays within 12,000 characters except by the first and the newest, never loses the first, drops only the oldest', () => {
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

  test("the answer mod's copy of the clipping, for a typed answer it quotes, splits no pair either", () => {
    forAll((rand) => textNearBoundOf(rand, WELL_FORMED), (text) => {
      const verdict = verdictOf(text)
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
