// The digest of a conversation too long for one request: built by code from
// the transcript, newest first within a quarter of the window, the user's
// words verbatim, each tool call with its outcome and its output's head and
// tail, the oldest left out and counted, and linear in the transcript's size.
import { describe, expect, test } from 'vitest'
import {
  DIGEST_OPENING,
  MAX_OUTPUT_CHARS,
  digestBudgetCharsOf,
  digestPlanOf,
  digestTextOf,
  type Digest,
  type DigestInput,
  type DigestMessage,
} from '../../../packages/compact-handoff/hooks/compaction/digest.js'
import { MAX_REDACT_CHARS } from '../../../packages/compact-handoff/hooks/text/text-clip.js'
import { MASK_SEPARATOR, maskBatchesOf, maskedPiecesOf } from '../../../packages/compact-handoff/hooks/text/mask-pieces.js'
import { LOADED_MACHINE_TIMEOUT_MS } from '../../support/loaded-machine.js'

const RECALL = 'For a detail the handoff lacks, call the tool recall.'
const bash = (id: string, command: string) => ({ tool_use_id: id, tool: 'Bash', input: { command, description: 'Run it' } })
const result = (id: string, text: string, isError = false) => ({ tool_use_id: id, text, isError })

/** The digest as digest-steps.ts builds it, `mask` standing in for the engine's redact. */
function digestOf(input: DigestInput, budgetChars: number, mask: (text: string) => string = (text) => text): Digest {
  const plan = digestPlanOf(input, budgetChars)
  const texts = plan.windows
  for (const text of texts) expect(text.length, 'what the engine masks at once').toBeLessThanOrEqual(MAX_REDACT_CHARS)
  return digestTextOf(plan, texts.map(mask))
}

/** A turn: the user's prompt, the assistant's text and one Bash call, its result. */
function turn(n: number, output = `ok ${n}`): DigestMessage[] {
  return [
    { role: 'user', text: `prompt ${n}` },
    { role: 'assistant', text: `reply ${n}`, toolUses: [bash(`t${n}`, `make step-${n}`)] },
    { role: 'user', text: '', toolResults: [result(`t${n}`, output)] },
  ]
}

function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1)
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true
      i++
    } else if (code >= 0xdc00 && code <= 0xdfff) return true
  }
  return false
}

describe('digestBudgetCharsOf', () => {
  test('is a quarter of the window at 4 characters a token', () => {
    expect(digestBudgetCharsOf(200_000)).toBe(200_000)
    expect(digestBudgetCharsOf(1_000_000)).toBe(1_000_000)
    expect(digestBudgetCharsOf(0)).toBe(0)
    expect(digestBudgetCharsOf(Number.NaN), 'a window that is no number bounds to nothing, never to everything').toBe(0)
  })
})

describe('the digest', () => {
  const MESSAGES: DigestMessage[] = [
    { role: 'user', text: 'Fix the parser, please.' },
    { role: 'assistant', text: 'Running the tests first.', toolUses: [bash('t1', 'pnpm vitest run parser')] },
    { role: 'user', text: '', toolResults: [result('t1', 'Exit code 1\nFAIL quote.test.ts', true)] },
    { role: 'assistant', text: 'The quote test fails.' },
  ]

  test('opens with its opening, then the leading sections whole and in order, then the entries newest first, each labelled', () => {
    const { text } = digestOf({ messages: MESSAGES, leading: ['WORDS SECTION', 'FACTS SECTION'], recallLine: RECALL }, 20_000)
    expect(text.startsWith(DIGEST_OPENING), 'a request holding a digest is found by its opening').toBe(true)
    expect(text.split('\n')[0], 'said to be built by code from a conversation too long for one request').toMatch(/built by compact-handoff code, not written by a model: the conversation had grown too long for one request/)
    const order = [
      'WORDS SECTION',
      'FACTS SECTION',
      '--- The assistant wrote (message 4 of 4):\n```\nThe quote test fails.\n```',
      '--- The assistant called Bash (message 2 of 4): pnpm vitest run parser  → exit 1\nIts output:\n```\nExit code 1\nFAIL quote.test.ts\n```',
      '--- The assistant wrote (message 2 of 4):\n```\nRunning the tests first.\n```',
      '--- The user wrote (message 1 of 4):\n```\nFix the parser, please.\n```',
      'Nothing of the conversation was left out',
    ]
    const at = order.map((part) => text.indexOf(part))
    for (const [i, index] of at.entries()) expect(index, `holds ${order[i]}`).toBeGreaterThan(0)
    expect([...at].sort((a, b) => a - b), 'in this order').toEqual(at)
    expect(text.endsWith(`The recall tool brings back verbatim whatever was cut:\n${RECALL}`), 'the recall line last').toBe(true)
  })

  test('keeps the leading sections that fit half the budget, whole and in order, says how many did not, and leaves the rest to the conversation', () => {
    const messages = Array.from({ length: 100 }, (_, n) => turn(n)).flat()
    const skills = `SKILLS ${'s'.repeat(100_000)}`
    const { text, shownEntries } = digestOf({ messages, leading: ['WORDS', skills, 'PLAN'], recallLine: RECALL }, 150_000)
    expect(text).toContain('WORDS\n\nPLAN\n\n(1 of the sections code composed was left out here: too long for this digest, which keeps room for the conversation)')
    expect(text).not.toContain('SKILLS')
    expect(shownEntries, 'every entry of the conversation').toBe(300)
  })

  test("cuts a huge prompt to its head and tail, and says so, while every prompt stays", () => {
    const pasted = `Here is the log:\n${'a pasted log line\n'.repeat(5_000)}What is wrong?`
    const messages: DigestMessage[] = [{ role: 'user', text: 'First, read the parser.' }, { role: 'assistant', text: 'Read.' }, { role: 'user', text: pasted }]
    const { text, leftOutEntries } = digestOf({ messages, leading: [] }, 50_000)
    expect(leftOutEntries).toBe(0)
    expect(text).toMatch(/--- The user wrote \(message 3 of 3\):\n```\nHere is the log:\n(a pasted log line\n)+\[… \d+ characters left out here …\]\n(a pasted log line\n)+What is wrong\?\n```/)
    expect(text).toContain('--- The user wrote (message 1 of 3):\n```\nFirst, read the parser.\n```')
  })

  test("keeps the user's words verbatim, lines, spaces and backticks included", () => {
    const words = 'Keep   the   spacing.\n\n  Indented line with ``` a fence\n\ttab, "quotes" and <tags> & émoji 🙂'
    const { text } = digestOf({ messages: [{ role: 'user', text: words }], leading: [] }, 20_000)
    expect(text).toContain(`--- The user wrote (message 1 of 1):\n\`\`\`\`\n${words}\n\`\`\`\``)
  })

  test('leaves the oldest entries out first, counts them by kind, and names the recall tool for them', () => {
    const messages = Array.from({ length: 200 }, (_, n) => turn(n)).flat()
    const digest = digestOf({ messages, leading: [], recallLine: RECALL }, 8_000)
    expect(digest.chars).toBeLessThanOrEqual(8_000)
    expect(digest.leftOutEntries + digest.shownEntries, 'each of the 600 entries shown or counted').toBe(600)
    expect(digest.leftOutEntries).toBeGreaterThan(0)
    expect(digest.text, 'the newest shown').toContain('make step-199')
    expect(digest.text, 'the oldest left out').not.toContain('make step-0 ')
    expect(digest.text).toMatch(new RegExp(`${digest.leftOutEntries} older entries were left out to fit \\(\\d+ of the user's messages, \\d+ of the assistant's messages, \\d+ tool calls\\)\\. The recall tool brings them back verbatim, as it does whatever was cut above:\\n${RECALL}$`))
    const shownSteps = [...digest.text.matchAll(/make step-(\d+)/g)].map((m) => Number(m[1]))
    expect(shownSteps, 'the calls shown are the newest, newest first, with no gap').toEqual(Array.from({ length: shownSteps.length }, (_, i) => 199 - i))
  })

  test("shows the user's prompts past where the other entries stop, up to their share", () => {
    const messages = Array.from({ length: 100 }, (_, n) => turn(n, `${n} `.repeat(500))).flat()
    const { text } = digestOf({ messages, leading: [] }, 30_000)
    expect(text, 'the oldest call is left out').not.toContain('make step-0 ')
    expect(text, 'and many more').not.toContain('make step-50 ')
    expect(text).toContain('--- The user wrote (message 1 of 300):\n```\nprompt 0\n```')
    expect(text.indexOf('prompt 0\n'), 'last, as the oldest').toBeGreaterThan(text.indexOf('prompt 99'))
  })

  test('without a recall line says what was left out and names no tool', () => {
    const messages = Array.from({ length: 200 }, (_, n) => turn(n)).flat()
    const { text, leftOutEntries } = digestOf({ messages, leading: [] }, 8_000)
    expect(text).toMatch(new RegExp(`\\n${leftOutEntries} older entries were left out to fit \\([^)]*\\)\\.$`))
    expect(text).not.toContain('recall')
  })

  test('is never longer than its budget, whatever the budget and however much the masking lengthens a text', () => {
    const messages = Array.from({ length: 60 }, (_, n) => turn(n, `k ${'x'.repeat(n * 97)}\n`.repeat(n % 7))).flat()
    const lengthening = (text: string) => text.replaceAll('k', '[REDACTED]')
    for (const budget of [0, 10, 300, 700, 1_500, 4_000, 9_999, 25_000, 120_000]) {
      for (const mask of [undefined, lengthening]) {
        const digest = digestOf({ messages, leading: ['L'.repeat(500), 'M'.repeat(900)], recallLine: RECALL }, budget, mask)
        expect(digest.chars, `budget ${budget}`).toBeLessThanOrEqual(budget)
        expect(digest.chars).toBe(digest.text.length)
        expect(digest.shownEntries + digest.leftOutEntries, `budget ${budget}: every entry shown or counted`).toBe(180)
      }
    }
  })

  test('shows the masked texts, not the ones it planned from', () => {
    const messages: DigestMessage[] = [
      { role: 'assistant', text: '', toolUses: [bash('t1', 'curl -H "Authorization: Bearer sk-live-1"')] },
      { role: 'user', text: '', toolResults: [result('t1', '> Authorization: Bearer sk-live-1\n< 200 OK')] },
    ]
    const { text } = digestOf({ messages, leading: [] }, 20_000, (t) => t.replaceAll('sk-live-1', '[REDACTED]'))
    expect(text).toContain('curl -H "Authorization: Bearer [REDACTED]"')
    expect(text).toContain('> Authorization: Bearer [REDACTED]\n< 200 OK')
    expect(text).not.toContain('sk-live-1')
  })

  test("keeps a long output's head and tail on whole lines and says how much between them was left out", () => {
    const lines = Array.from({ length: 5_000 }, (_, i) => `line ${i} of the build log`)
    const output = lines.join('\n')
    const messages: DigestMessage[] = [
      { role: 'assistant', text: '', toolUses: [bash('t1', 'make all')] },
      { role: 'user', text: '', toolResults: [result('t1', output)] },
    ]
    const { text } = digestOf({ messages, leading: [] }, 50_000)
    const fenced = /Its output's head and tail \((\d+) characters between them left out\):\n```\n([^]*?)\n\[… (\d+) characters left out here …\]\n([^]*?)\n```/.exec(text)
    expect(fenced, 'a head, the notice, a tail').not.toBeNull()
    const [, said, head, saidAgain, tail] = fenced!
    expect(said).toBe(saidAgain)
    expect(head!.startsWith('line 0 of the build log\n')).toBe(true)
    expect(tail!.endsWith('line 4999 of the build log')).toBe(true)
    for (const line of [...head!.split('\n'), ...tail!.split('\n')]) expect(lines, 'whole lines only').toContain(line)
    expect(Number(said)).toBe(output.length - head!.length - tail!.length)
    expect(head!.length + tail!.length).toBeLessThanOrEqual(MAX_OUTPUT_CHARS)
  })

  test('keeps the head and tail of an output that is one long line after a short first and before a short last line', () => {
    const output = `{\n${'"key": "value", '.repeat(20_000)}\n}`
    const messages: DigestMessage[] = [
      { role: 'assistant', text: '', toolUses: [bash('t1', 'cat data.json')] },
      { role: 'user', text: '', toolResults: [result('t1', output)] },
    ]
    const { text } = digestOf({ messages, leading: [] }, 50_000)
    const fenced = /```\n([^]*?)\n\[… (\d+) characters left out here …\]\n([^]*?)\n```/.exec(text)
    const [, head, , tail] = fenced!
    expect(head!.length, 'the head is more than its first line').toBeGreaterThan(500)
    expect(tail!.length, 'the tail is more than its last line').toBeGreaterThan(1_000)
  })

  test('fences an output in more backticks than any run inside it', () => {
    const output = 'before\n``````\ninside a six-backtick fence\n``````\nafter'
    const messages: DigestMessage[] = [
      { role: 'assistant', text: '', toolUses: [{ tool_use_id: 't1', tool: 'Read', input: { file_path: '/srv/app/README.md' } }] },
      { role: 'user', text: '', toolResults: [result('t1', output)] },
    ]
    const { text } = digestOf({ messages, leading: [] }, 20_000)
    expect(text).toContain(`--- The assistant called Read (message 1 of 2): /srv/app/README.md  → done\nIts output:\n${'`'.repeat(7)}\n${output}\n${'`'.repeat(7)}`)
  })

  test("gives each call's outcome: a Bash exit status as its result reads, an error, done, or no result yet", () => {
    const messages: DigestMessage[] = [
      {
        role: 'assistant',
        text: '',
        toolUses: [
          bash('a', 'true'),
          bash('b', 'exit 2'),
          bash('c', 'killed'),
          { tool_use_id: 'd', tool: 'Grep', input: { pattern: 'TODO', path: 'src' } },
          { tool_use_id: 'e', tool: 'WebFetch', input: { url: 'https://example.com' } },
          { tool_use_id: 'f', tool: 'Task', input: { description: 'look around', prompt: 'find the parser' } },
          { tool_use_id: 'g', tool: 'Edit', input: { file_path: '/srv/app/a.ts' }, text: 'String not found', isError: true },
        ],
      },
      { role: 'user', text: '', toolResults: [result('a', ''), result('b', 'Exit code 2\nno such target', true), result('c', 'The command was interrupted', true), result('d', 'src/a.ts:1')] },
    ]
    const { text } = digestOf({ messages, leading: [] }, 20_000)
    expect(text).toContain('called Bash (message 1 of 2): true  → exit 0\n(its output was empty)')
    expect(text).toContain('called Bash (message 1 of 2): exit 2  → exit 2\n')
    expect(text).toContain('called Bash (message 1 of 2): killed  → failed\n')
    expect(text).toContain('called Grep (message 1 of 2): TODO in src  → done\n')
    expect(text).toContain('called WebFetch (message 1 of 2): https://example.com  → no result in the transcript yet')
    expect(text).toContain('called Task (message 1 of 2): {"description":"look around","prompt":"find the parser"}  → no result in the transcript yet')
    expect(text, "a call's own outcome when no result message holds it").toContain('called Edit (message 1 of 2): /srv/app/a.ts  → error\nIts output:\n```\nString not found\n```')
  })

  test('shows a result whose call is not in the transcript under its id', () => {
    const { text } = digestOf({ messages: [{ role: 'user', text: '', toolResults: [result('toolu_01', 'orphan output')] }], leading: [] }, 20_000)
    expect(text).toContain('--- The assistant called a tool (message 1 of 1): call toolu_01  → done\nIts output:\n```\norphan output\n```')
  })

  test('never cuts between the two halves of a surrogate pair', () => {
    // An odd character before or after the pairs puts a cut from either end between two halves.
    for (const [before, after] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) {
      const offset = `${before} before, ${after} after`
      const output = `${'x'.repeat(before)}${'🙂'.repeat(20_000)}${'x'.repeat(after)}`
      const prompt = `${'y'.repeat(before)}${'🙂'.repeat(9_000)}${'y'.repeat(after)}`
      const messages: DigestMessage[] = [
        { role: 'user', text: prompt },
        { role: 'assistant', text: '', toolUses: [bash('t1', `echo ${'🙂'.repeat(400)}`)] },
        { role: 'user', text: '', toolResults: [result('t1', output)] },
      ]
      const { text } = digestOf({ messages, leading: [] }, 60_000)
      expect(text).toContain('characters left out here')
      expect(hasLoneSurrogate(text), `offset ${offset}`).toBe(false)
    }
  })

  test('of an empty conversation says it held no messages', () => {
    const digest = digestOf({ messages: [], leading: ['WORDS SECTION'], recallLine: RECALL }, 20_000)
    expect(digest).toMatchObject({ shownEntries: 0, leftOutEntries: 0 })
    expect(digest.text).toContain('WORDS SECTION\n\nThe conversation held no messages yet.\n\nNothing of the conversation was left out')
  })

  test(
    'of a 100 MB transcript plans from its newest end, holds its budget and counts everything else',
    async () => {
      const output = `${'a line of a long build log\n'.repeat(400)}`
      const messages: DigestMessage[] = []
      let chars = 0
      for (let n = 0; chars < 100_000_000; n++) {
        const text = `${n}: ${output}`
        messages.push({ role: 'user', text: `prompt ${n}` }, { role: 'assistant', text: `reply ${n}`, toolUses: [bash(`t${n}`, `make step-${n}`)] }, { role: 'user', text: '', toolResults: [result(`t${n}`, text)] })
        chars += text.length
      }
      // One output of 20 MB as the newest, and a single prompt of 5 MB just before it.
      messages.push({ role: 'user', text: 'p'.repeat(5_000_000) }, { role: 'assistant', text: '', toolUses: [bash('huge', 'cat huge.log')] }, { role: 'user', text: '', toolResults: [result('huge', 'q\n'.repeat(10_000_000))] })
      const budget = digestBudgetCharsOf(200_000)
      const digest = digestOf({ messages, leading: ['WORDS SECTION'], recallLine: RECALL }, budget)
      expect(digest.chars).toBeLessThanOrEqual(budget)
      expect(digest.text).toContain('called Bash (message')
      expect(digest.shownEntries + digest.leftOutEntries).toBe(((messages.length - 3) / 3) * 3 + 2)
      expect(digest.leftOutEntries).toBeGreaterThan(digest.shownEntries)
    },
    LOADED_MACHINE_TIMEOUT_MS,
  )
})

describe('masking in batches', () => {
  test('joins consecutive texts into calls of at most the engine\'s limit, every text once and in order', () => {
    const texts = Array.from({ length: 300 }, (_, i) => `${i}:`.padEnd(1 + ((i * 7919) % 30_000), 'x'))
    const batches = maskBatchesOf(texts)
    expect(batches.flat()).toEqual(texts.map((_, i) => i))
    for (const batch of batches) expect(batch.map((i) => texts[i]).join(MASK_SEPARATOR).length).toBeLessThanOrEqual(MAX_REDACT_CHARS)
    expect(batches.length, 'far fewer calls than texts').toBeLessThan(texts.length / 5)
    expect(maskBatchesOf([]), 'no text, no call').toEqual([])
  })

  test('sends a text that holds the separator on its own', () => {
    const texts = ['a', `b${MASK_SEPARATOR}c`, 'd', 'e']
    expect(maskBatchesOf(texts)).toEqual([[0], [1], [2, 3]])
  })

  test('splits a masked batch back into its texts, or gives it up where the masking took a separator', () => {
    const texts = ['export TOKEN=abc', 'plain', 'Authorization: Bearer']
    const mask = (text: string) => text.replace(/(export\s+[A-Z_]*TOKEN=)[^\s"']+/g, '$1[REDACTED]').replace(/(Authorization:\s*Bearer\s+)[^\s"']+/gi, '$1[REDACTED]')
    expect(maskedPiecesOf(mask(texts.join(MASK_SEPARATOR)), 3)).toEqual(['export TOKEN=[REDACTED]', 'plain', 'Authorization: Bearer'])
    const reaching = ['echo Authorization: Bearer', 'sk-live-1 was the key']
    expect(maskedPiecesOf(mask(reaching.join(MASK_SEPARATOR)), 2), 'each masked on its own instead').toBeUndefined()
  })
})
