// The exchange with the model: the sentinel line and the continue-prompt block
// are read out of free model output, so their parsers must never throw, must
// read back what the skills print amid any prose, and must stay linear on
// hostile lines.
import { formatContinuePrompt } from '../../../packages/compact-handoff/tests/support/skill-protocol.js'
import { describe, expect, test } from 'vitest'
import { CONTINUE_PROMPT_HEADER, FAILED_PREFIX, MARKER, READY_PREFIX, formatSentinel, parseContinuePrompt, parseSentinel, type Sentinel } from '../../../packages/compact-handoff/hooks/protocol/protocol.js'
import { forAll, textOfPieces, type Rand } from '../../support/property.js'
import { cpuMsOf } from '../../support/cpu-time.js'

/** Pieces of model output chosen to hit the parsers' edges. */
const TEXT_PIECES = [
  'a', 'Z', '7', ' ', '  ', '\t', '\n', '\n', '\r\n', '\r', '\u2028', '\u00a0', '\ufeff', '\0', '\ud800', 'é', '🙂', '中文',
  '`', '```', '*', '**', '- ', '* ', '|', ' | ', '-', '---', '-'.repeat(60), '/', '\\', '..', '.', ':',
  READY_PREFIX, FAILED_PREFIX, CONTINUE_PROMPT_HEADER, MARKER, 'plans/handoffs/', '.claude/handoffs/', 'HANDOFF_x.md', 'PLAN_y.md',
] as const

function randomTextOf(rand: Rand): string {
  return textOfPieces(rand, TEXT_PIECES, 30)
}

/** Prose that holds no sentinel and no continue-prompt header anywhere. */
function proseOf(rand: Rand): string {
  return randomTextOf(rand)
    .split(READY_PREFIX).join('READY')
    .split(FAILED_PREFIX).join('FAILED')
    .split(CONTINUE_PROMPT_HEADER).join('PASTE')
}

/** Characters a sentinel field may hold: anything on one line, backticks and
 * pipes inside a word, Unicode, dashes, slashes. */
const FIELD_CHARS = ['a', 'b', 'Z', '0', '.', '/', '\\', '-', '_', 'é', '🙂', '中', ':', '(', ')', '#', '*', '`'] as const

/** A word that neither starts nor ends with a backtick (those the parser strips). */
function wordOf(rand: Rand): string {
  const first = rand.pick(['a', 'é', '🙂', 'Z', '/', '.', '-'])
  return first + textOfPieces(rand, FIELD_CHARS, 11) + rand.pick(['a', 'é', '🙂', '9', 'd', '.md'])
}

function phraseOf(rand: Rand): string {
  return Array.from({ length: 1 + rand.int(4) }, () => wordOf(rand)).join(' ')
}

function sentinelOf(rand: Rand): Sentinel {
  return rand.int(2) === 0
    ? { kind: 'ready', paths: Array.from({ length: rand.int(4) }, () => phraseOf(rand)) }
    : { kind: 'failed', reason: phraseOf(rand) }
}

const LINE_ENDS = ['\n', '\r\n'] as const

describe('parseSentinel', () => {
  test('never throws on random text, and what it finds is well formed', () => {
    forAll(randomTextOf, (text) => {
      const sentinel = parseSentinel(text)
      if (sentinel?.kind === 'ready') {
        for (const path of sentinel.paths) expect(path, 'paths are trimmed and non-empty').toBe(path.trim())
        expect(sentinel.paths).not.toContain('')
      }
      if (sentinel?.kind === 'failed') expect(sentinel.reason).not.toBe('')
    })
  })

  test('finds nothing in text that holds neither prefix', () => {
    forAll(proseOf, (text) => expect(parseSentinel(text)).toBeUndefined())
  })

  test('reads back what formatSentinel printed', () => {
    forAll(sentinelOf, (sentinel) => expect(parseSentinel(formatSentinel(sentinel))).toEqual(sentinel))
  })

  test('reads back the sentinel line between random prose, with LF or CRLF line ends', () => {
    forAll(
      (rand) => ({ sentinel: sentinelOf(rand), before: proseOf(rand), after: proseOf(rand), end: rand.pick(LINE_ENDS) }),
      ({ sentinel, before, after, end }) => {
        const answer = `${before}${end}${formatSentinel(sentinel)}${end}${after}`
        expect(parseSentinel(answer)).toEqual(sentinel)
      },
    )
  })

  test('takes the last sentinel line when the answer holds several', () => {
    forAll(
      (rand) => ({ first: sentinelOf(rand), last: sentinelOf(rand), prose: proseOf(rand) }),
      ({ first, last, prose }) => {
        const answer = [formatSentinel(first), prose, formatSentinel(last), prose].join('\n')
        expect(parseSentinel(answer)).toEqual(last)
      },
    )
  })

  test.each([
    ['single backticks', '`', '`'],
    ['triple backticks', '```', '```'],
    ['a dash bullet and backticks', '- `', '`'],
    ['a star bullet and backticks', '* `', '`'],
    ['surrounding blanks', '   ', '\t '],
  ])('tolerates %s around the line', (_name, open, close) => {
    forAll(sentinelOf, (sentinel) => {
      expect(parseSentinel(`Done.\n${open}${formatSentinel(sentinel)}${close}\n`)).toEqual(sentinel)
    }, { runs: 300 })
  })

  test('strips backticks around each named path', () => {
    expect(parseSentinel(`${READY_PREFIX} \`plans/handoffs/HANDOFF_a.md\` | \`\`plans/handoffs/PLAN_b.md\`\``)).toEqual({
      kind: 'ready',
      paths: ['plans/handoffs/HANDOFF_a.md', 'plans/handoffs/PLAN_b.md'],
    })
  })

  test('reads a READY line naming nothing as a sentinel with no paths', () => {
    expect(parseSentinel(`${READY_PREFIX}  |  | `)).toEqual({ kind: 'ready', paths: [] })
  })

  test('gives a FAILED line without a reason a placeholder reason', () => {
    expect(parseSentinel(`${FAILED_PREFIX}   `)).toEqual({ kind: 'failed', reason: 'no reason given' })
  })

  test('ignores a prefix that does not start the line', () => {
    expect(parseSentinel(`I will print ${READY_PREFIX} plans/handoffs/HANDOFF_a.md at the end.`)).toBeUndefined()
  })

  test('stays fast on 100 000-character lines of backticks, stars, dashes and blanks', () => {
    const n = 100_000
    const hostile = [
      `${READY_PREFIX} x${'`'.repeat(n)}y`,
      `x${'`'.repeat(n)}y`,
      `x${'*'.repeat(n)}y`,
      '-'.repeat(n),
      `${' '.repeat(n)}x`,
      `${READY_PREFIX} ${'| '.repeat(n / 2)}`,
    ]
    const ms = cpuMsOf(() => {
      for (const line of hostile) parseSentinel(line)
    })
    expect(ms, 'CPU ms: a quadratic regex takes seconds here').toBeLessThan(1000)
  })
})

/** A prompt line that is not a rule of dashes and not the header: the block's
 * grammar cannot carry those, so the round trip excludes them. */
function promptLineOf(rand: Rand): string {
  const line = rand.pick([
    () => phraseOf(rand),
    () => `- ${phraseOf(rand)}`,
    () => `--- ${phraseOf(rand)} ---`,
    () => `\`\`\`${phraseOf(rand)}`,
    () => `${'-'.repeat(2)}`,
    () => '',
    () => `${'x'.repeat(rand.int(3) * 5000)}`,
  ])()
  return line
}

function promptOf(rand: Rand): string {
  return Array.from({ length: 1 + rand.int(6) }, () => promptLineOf(rand)).join(rand.pick(LINE_ENDS))
}

/** What parseContinuePrompt gives back for a printed prompt: trimmed, CRLF read as LF. */
function expectedPrompt(prompt: string): string | undefined {
  const trimmed = prompt.trim()
  return trimmed === '' ? undefined : trimmed.replace(/\r\n/g, '\n')
}

describe('parseContinuePrompt', () => {
  test('never throws on random text, and what it finds is trimmed and non-empty', () => {
    forAll(randomTextOf, (text) => {
      const prompt = parseContinuePrompt(text)
      if (prompt !== undefined) {
        expect(prompt).toBe(prompt.trim())
        expect(prompt).not.toBe('')
      }
    })
  })

  test('finds nothing in text without the header line', () => {
    forAll(proseOf, (text) => expect(parseContinuePrompt(text)).toBeUndefined())
  })

  test('reads back what formatContinuePrompt printed', () => {
    forAll(promptOf, (prompt) => expect(parseContinuePrompt(formatContinuePrompt(prompt))).toBe(expectedPrompt(prompt)))
  })

  test('reads back the block between random prose and text after it, with LF or CRLF line ends', () => {
    forAll(
      (rand) => ({ prompt: promptOf(rand), before: proseOf(rand), after: proseOf(rand), end: rand.pick(LINE_ENDS) }),
      ({ prompt, before, after, end }) => {
        const block = formatContinuePrompt(prompt).replace(/\r?\n/g, end)
        const answer = `${before}${end}${block}${end}${after}${end}${READY_PREFIX} plans/handoffs/HANDOFF_a.md`
        expect(parseContinuePrompt(answer)).toBe(expectedPrompt(prompt))
      },
    )
  })

  test('takes the block after the last header when the answer holds two', () => {
    const answer = [formatContinuePrompt('the old prompt'), 'Then, better:', formatContinuePrompt('the new prompt'), 'Bye.'].join('\n')
    expect(parseContinuePrompt(answer)).toBe('the new prompt')
  })

  test('reads a block whose rules sit inside a code fence', () => {
    const answer = `${CONTINUE_PROMPT_HEADER}\n\n\`\`\`\n---\nRead the handoff.\n---\n\`\`\``
    expect(parseContinuePrompt(answer)).toBe('Read the handoff.')
  })

  test.each([
    ['in backticks', `\`${CONTINUE_PROMPT_HEADER}\``],
    ['in bold', `**${CONTINUE_PROMPT_HEADER}**`],
    ['as a bullet in backticks', `- \`${CONTINUE_PROMPT_HEADER}\``],
  ])('accepts the header %s', (_name, header) => {
    expect(parseContinuePrompt(`${header}\n-----\nRead the handoff.\n-----`)).toBe('Read the handoff.')
  })

  test.each([
    ['text between the header and the first rule', `${CONTINUE_PROMPT_HEADER}\nHere it is:\n---\nRead it.\n---`],
    ['an unclosed block', `${CONTINUE_PROMPT_HEADER}\n---\nRead it.`],
    ['an empty block', `${CONTINUE_PROMPT_HEADER}\n---\n \n\t\n---`],
    ['a header with no block', CONTINUE_PROMPT_HEADER],
    ['two dashes as rules', `${CONTINUE_PROMPT_HEADER}\n--\nRead it.\n--`],
  ])('finds nothing in %s', (_name, answer) => {
    expect(parseContinuePrompt(answer)).toBeUndefined()
  })

  test('stays fast on 100 000-character lines of stars, backticks and dashes', () => {
    const n = 100_000
    const answer = [`x${'*'.repeat(n)}y`, `x${'`'.repeat(n)}y`, `${'-'.repeat(n)}x`, `${' '.repeat(n)}x`].join('\n')
    const ms = cpuMsOf(() => {
      parseContinuePrompt(answer)
      parseContinuePrompt(`${CONTINUE_PROMPT_HEADER}\n${answer}`)
    })
    expect(ms, 'CPU ms: a quadratic regex takes seconds here').toBeLessThan(1000)
  })
})
