// The recall search as the tool and the fork-eval run it (tests/support/recall-answer.ts
// `recallAnswerOf`): what a replacement took out, newest first, each entry
// named and windowed, bounded on every axis, and linear in the transcript.
import { describe, expect, test } from 'vitest'
import { MAX_QUERY_CHARS, RECALL_TOOL, recallLineOf, recallQueryOf } from '../../../packages/compact-handoff/hooks/recall/recall.js'
import { recallAnswerOf } from '../../support/recall-answer.js'
import { MAX_ENTRIES, WINDOW_CHARS } from '../../../packages/compact-handoff/hooks/recall/recall-search.js'
import {
  assistantLine,
  bigTranscriptOf,
  bookkeepingLines,
  boundaryLines,
  callLine,
  commandLines,
  resultLine,
  transcriptOf,
  userLine,
} from '../../../packages/compact-handoff/tests/support/transcripts.js'
import { CUT_CASES, HELD_CASES, holdsPieceOf, pemBodyLinesOf, pemKeyOf } from '../../../packages/compact-handoff/tests/support/credentials.js'
import { MAX_REDACT_CHARS } from '../../../packages/compact-handoff/hooks/text/text-clip.js'
import { engineMaskOf, redactStandIn } from '../../support/engine-mask.js'

const TOKEN_MASK = (text: string) => text.replace(/(export\s+[A-Z_]*TOKEN=)\S+/g, '$1[REDACTED]')

describe('recallAnswerOf: what is found', () => {
  test("a command's output comes back verbatim, named by its call and exit status", () => {
    const transcript = transcriptOf([
      userLine('run the tests'),
      ...commandLines('toolu_1', 'pnpm vitest run', ' FAIL  src/parser.test.ts > recovers\nE_PARSE_EOF: unexpected end at 12:4', 1),
      assistantLine('One test fails.'),
      ...boundaryLines(),
    ])
    const answer = recallAnswerOf(transcript, 'E_PARSE_EOF')
    expect(answer).toContain('recall found 1 entry for E_PARSE_EOF')
    expect(answer).toContain('[1] Tool result of Bash: pnpm vitest run  → exit 1')
    expect(answer, 'the line verbatim').toContain('E_PARSE_EOF: unexpected end at 12:4')
  })

  test('a message comes back with who wrote it, and every word must occur (any order, any case)', () => {
    const transcript = transcriptOf([userLine('Keep the public API of parser.ts unchanged'), assistantLine('Noted: the API stays.'), ...boundaryLines()])
    expect(recallAnswerOf(transcript, 'api PARSER.TS')).toContain('[1] Message by the user')
    expect(recallAnswerOf(transcript, 'api parser.ts zebra')).toContain('recall found nothing for api parser.ts zebra')
    expect(recallAnswerOf(transcript, '"API stays"')).toContain('[1] Message by Claude')
    expect(recallAnswerOf(transcript, '"stays API"')).toContain('found nothing')
  })

  test('a word only in the call finds its output', () => {
    const transcript = transcriptOf([...commandLines('toolu_1', 'git rev-parse HEAD', '4f1c2d9e0b7a'), ...boundaryLines()])
    expect(recallAnswerOf(transcript, 'rev-parse')).toContain('4f1c2d9e0b7a')
  })

  test('only what a replacement took out: nothing after the newest boundary, and nothing at all before the first', () => {
    const taken = transcriptOf([...commandLines('toolu_1', 'echo one', 'needle-one'), ...boundaryLines(), ...commandLines('toolu_2', 'echo two', 'needle-two')])
    const answer = recallAnswerOf(taken, 'needle')
    expect(answer).toContain('needle-one')
    expect(answer, 'still in the conversation').not.toContain('needle-two')
    expect(recallAnswerOf(transcriptOf(commandLines('toolu_1', 'echo one', 'needle-one')), 'needle')).toMatch(/^Nothing of this session's conversation has been replaced yet/)
  })

  test("across every replacement, newest first; the engine's bookkeeping and recall's own answers are never searched", () => {
    const transcript = transcriptOf([
      ...commandLines('toolu_1', 'echo first', 'needle first'),
      ...boundaryLines(),
      ...bookkeepingLines('needle in a request blob'),
      callLine('toolu_r', RECALL_TOOL, { query: 'needle' }),
      resultLine('toolu_r', 'recall found 1 entry for needle'),
      ...commandLines('toolu_2', 'echo second', 'needle second'),
      ...boundaryLines(),
    ])
    const answer = recallAnswerOf(transcript, 'needle')
    expect(answer).toContain('recall found 2 entries')
    expect(answer.indexOf('needle second'), 'newest first').toBeLessThan(answer.indexOf('needle first'))
    expect(answer).not.toContain('request blob')
    expect(answer).not.toContain(RECALL_TOOL)
  })

  test('masked by the mask it is given, the call line included', () => {
    const transcript = transcriptOf([...commandLines('toolu_1', 'export GH_TOKEN=ghp_secret123; echo ok', 'export GH_TOKEN=ghp_secret123\nok'), ...boundaryLines()])
    const answer = recallAnswerOf(transcript, 'ok', { mask: TOKEN_MASK })
    expect(answer).not.toContain('ghp_secret123')
    expect(answer).toContain('export GH_TOKEN=[REDACTED]')
  })

  test('a fence longer than any backtick run in the window', () => {
    const transcript = transcriptOf([...commandLines('toolu_1', 'cat README.md', 'intro\n````ts\nneedle()\n````'), ...boundaryLines()])
    expect(recallAnswerOf(transcript, 'needle')).toContain('`````\nintro\n````ts\nneedle()\n````\n`````')
  })

  test('a transcript fed in chunks cut anywhere gives the same answer', () => {
    const transcript = transcriptOf([...commandLines('toolu_1', 'echo a', 'needle-a'), userLine('needle typed'), ...boundaryLines()])
    const whole = recallAnswerOf(transcript, 'needle')
    for (const size of [1, 7, 64]) {
      const chunks: string[] = []
      for (let i = 0; i < transcript.length; i += size) chunks.push(transcript.slice(i, i + size))
      expect(recallAnswerOf(chunks, 'needle'), `chunks of ${size}`).toBe(whole)
    }
  })
})

/** A one-line call as an entry names it: its first 200 characters, a mark where cut. */
function shownLineOf(call: string): string {
  return call.length <= 200 ? call : `${call.slice(0, 200)}…`
}

/** The window an answer's first entry shows, between its fences. */
function firstWindowOf(answer: string): string {
  const fenced = /^\[1\] [^\n]*:\n(`{3,})\n([\s\S]*?)\n\1$/m.exec(answer)
  if (fenced === null) throw new Error(`no window in:\n${answer}`)
  return fenced[2]!
}

describe('recallAnswerOf: masked whole, then cut', () => {
  for (const c of [...CUT_CASES, ...HELD_CASES]) {
    test(`${c.name}: the window and the call's line are what the whole text's masking shows there`, () => {
      const transcript = transcriptOf([...commandLines('toolu_1', c.command, c.output), ...boundaryLines()])
      const answer = recallAnswerOf(transcript, c.word, { mask: redactStandIn })
      const window = firstWindowOf(answer)
      expect(window, 'the match is shown').toContain(c.word)
      expect(engineMaskOf(c.output), 'the window is a part of the whole output masked at once').toContain(window)
      expect(answer, 'named by the masked call, cut after').toContain(`[1] Tool result of ${shownLineOf(engineMaskOf(`Bash: ${c.command}`))}  → exit 0`)
      for (const secret of c.secrets) expect(holdsPieceOf(answer, secret), `a piece of ${secret.slice(0, 12)}… came back`).toBe(false)
    })
  }

  test('an entry shown whole once masked is not said to be cut', () => {
    const [key] = CUT_CASES
    const answer = recallAnswerOf(transcriptOf([...commandLines('toolu_1', key!.command, key!.output), ...boundaryLines()]), key!.word, { mask: redactStandIn })
    expect(answer).toContain(`[1] Tool result of Bash: ${key!.command}  → exit 0 (2026-`)
    expect(answer).not.toMatch(/characters \d+-\d+ of/)
    expect(firstWindowOf(answer)).toBe(engineMaskOf(key!.output))
  })

  test('an entry longer than one redact: its key across where a cut at the limit would fall is masked as the whole is', () => {
    const key = pemKeyOf(40, 51)
    const output = `${'build step ok\n'.repeat(Math.floor((MAX_REDACT_CHARS - 1_200) / 14))}E_BIG_KEY next\n${key}\n${'build step ok\n'.repeat(9_000)}`
    const answer = recallAnswerOf(transcriptOf([...commandLines('toolu_1', 'cat build.log', output), ...boundaryLines()]), 'E_BIG_KEY', { mask: redactStandIn })
    expect(engineMaskOf(output)).toContain(firstWindowOf(answer))
    for (const line of pemBodyLinesOf(key)) expect(answer).not.toContain(line)
  })
})

describe('recallAnswerOf: the bounds', () => {
  test('a call of long blank runs around its line breaks: its line on one line, in bounded time', () => {
    const blanks = ' '.repeat(16_000)
    const command = `echo needle-blank${blanks}\n${blanks}\n${blanks}echo done`
    const started = Date.now()
    const answer = recallAnswerOf(transcriptOf([...commandLines('toolu_1', command, 'done'), ...boundaryLines()]), 'needle-blank')
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(answer, 'the blanks around the breaks fold away').toContain('[1] Tool result of Bash: echo needle-blank  → exit 0')
  })

  test(`a query matching every entry: the newest ${MAX_ENTRIES}, the rest counted, well under what a Read returns`, () => {
    const lines = Array.from({ length: 400 }, (_, i) => commandLines(`toolu_${i}`, `echo ${i}`, `needle ${i} ${'x'.repeat(5_000)}`)).flat()
    const answer = recallAnswerOf(transcriptOf([...lines, ...boundaryLines()]), 'needle')
    expect(answer).toContain('recall found 400 entries')
    expect(answer).toContain(`[${MAX_ENTRIES}] `)
    expect(answer).not.toContain(`[${MAX_ENTRIES + 1}] `)
    expect(answer).toContain(`${400 - MAX_ENTRIES} older entries matched too`)
    expect(answer.indexOf('needle 399'), 'newest first').toBeLessThan(answer.indexOf('needle 398'))
    expect(answer.length).toBeLessThan(MAX_ENTRIES * (WINDOW_CHARS + 400) + 1_000)
  })

  test('an empty query, a blank one and a 10,000-character one: a short answer, nothing searched', () => {
    for (const query of ['', '   ', '""']) expect(recallAnswerOf(transcriptOf(boundaryLines()), query)).toMatch(/^recall (needs a query|was given an empty exact string)/)
    const long = recallAnswerOf(transcriptOf(boundaryLines()), 'x'.repeat(10_000))
    expect(long).toBe(`recall takes a query of at most ${MAX_QUERY_CHARS} characters, and this one has 10000: give a few words you expect, or a short exact string in double quotes. Nothing was searched.`)
    expect(recallQueryOf({ query: 'a b c d e f g h i' })).toEqual({ refusal: expect.stringContaining('at most 8 words') })
    expect(recallQueryOf({}), 'no query at all').toEqual({ refusal: expect.stringContaining('recall needs a query') })
  })

  test('a 1 MB line: its window around the match, and where in the output it lies', () => {
    const output = `${'a'.repeat(600_000)}needle-mid${'b'.repeat(600_000)}`
    const answer = recallAnswerOf(transcriptOf([...commandLines('toolu_1', 'cat big.log', output), ...boundaryLines()]), 'needle-mid')
    expect(answer).toContain('needle-mid')
    expect(answer).toMatch(/, characters 5\d{5}-6\d{5} of 1200010:/)
    expect(answer.length).toBeLessThan(WINDOW_CHARS + 600)
  })

  test('a line past the longest read is skipped and said; the lines around it are searched', () => {
    const huge = resultLine('toolu_x', `needle ${'z'.repeat(9 * 1024 * 1024)}`)
    const answer = recallAnswerOf(transcriptOf([...commandLines('toolu_1', 'echo a', 'needle-a'), callLine('toolu_x', 'Bash', { command: 'cat huge' }), huge, ...boundaryLines()]), 'needle')
    expect(answer).toContain('needle-a')
    expect(answer).toContain('1 transcript line(s) longer than the search reads were skipped')
  })

  test('a 50 MB transcript answers in bounded time', () => {
    const transcript = bigTranscriptOf(50 * 1_048_576, 'E_NEEDLE_42')
    const started = performance.now()
    const answer = recallAnswerOf(transcript, 'E_NEEDLE_42')
    const everyLine = recallAnswerOf(transcript, 'output')
    const ms = performance.now() - started
    console.log(`recall over ${(transcript.length / 1_048_576).toFixed(0)} MB: a rare word and a word on every line together in ${ms.toFixed(0)} ms`)
    expect(answer).toContain('E_NEEDLE_42 in src/parser.ts:12')
    expect(everyLine).toContain('older entries matched too')
    expect(ms).toBeLessThan(8_000)
  })
})

describe('recallLineOf', () => {
  const TRANSCRIPT = '/home/me/.claude/projects/-srv-app/0f3c.jsonl'

  test('names the tool, when to call it and with what, in place of grepping the transcript', () => {
    const line = recallLineOf(TRANSCRIPT)
    expect(line).toContain(`call the tool ${RECALL_TOOL} with a word you expect instead of guessing or running it again`)
    expect(line).toMatch(/detail the handoff lacks/)
    expect(line, 'the file is named, never to be read or grepped whole').toContain(`${TRANSCRIPT}; never read or grep that file whole`)
    expect(line).not.toContain('\n')
  })

  test('keeps a Windows path as written', () => {
    expect(recallLineOf('C:\\Users\\me\\.claude\\projects\\C--app\\0f3c.jsonl')).toContain('C:\\Users\\me\\.claude\\projects\\C--app\\0f3c.jsonl')
  })
})
