// The swap log's bounds: a line never passes MAX_LOG_LINE_CHARS (its long
// texts clipped, never inside a surrogate pair), a log past its cap keeps its
// newest whole lines, and a file larger than the cap is judged no log unread.
import { describe, expect, test } from 'vitest'
import {
  MAX_LOG_BYTES,
  MAX_LOG_LINE_CHARS,
  MAX_LOG_REASON_CHARS,
  jsonClippedOf,
  logLineOf,
  logSizeRefusalOf,
  logTextWith,
  type AfterSwapEntry,
  type LogEntry,
} from '../../../packages/compact-handoff/hooks/swap-log/swap-log.js'
import { MAX_COMMANDS, MAX_READ_FILES } from '../../../packages/compact-handoff/hooks/facts/facts.js'
import { reportEntriesOf } from '../../../packages/compact-handoff/hooks/swap-log/log-report.js'
import { forAll, textOfPieces } from '../../support/property.js'

const TIME = '2026-11-30T10:00:00.000Z'

function aborted(reason: string, files = [{ path: 'plans/handoffs/HANDOFF_a_2026-11-30.md', bytes: 900 }]): LogEntry {
  return { time: TIME, sessionId: 's1', mode: 'handoff', trigger: 'command', files, contextPercentBefore: 80, outcome: 'aborted', reason, messagesHeld: 0, repairs: 0 }
}

function meter(reReads: string[], repeatedCommands: string[], handoff = 'plans/handoffs/HANDOFF_a_2026-11-30.md'): AfterSwapEntry {
  return { time: TIME, sessionId: 's1', follows: { kind: 'swapped', handoff, time: TIME }, outcome: 'meter', reReads, repeatedCommands }
}

function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text)
}

describe('logLineOf', () => {
  test('writes an ordinary entry as its JSON, untouched', () => {
    const entry = aborted('no handoff file was written')
    expect(logLineOf(entry)).toBe(JSON.stringify(entry))
  })

  test('clips a 250 KB reason (a runaway sentinel) to its head, visibly, within the line bound', () => {
    const reason = `the handoff skill reported failure: ${'ab'.repeat(125_000)}`
    const line = logLineOf(aborted(reason))
    expect(line.length).toBeLessThanOrEqual(MAX_LOG_LINE_CHARS)
    const parsed = JSON.parse(line) as LogEntry
    expect(parsed.reason!.length).toBeLessThanOrEqual(MAX_LOG_REASON_CHARS)
    expect(parsed.reason!.startsWith('the handoff skill reported failure: abab')).toBe(true)
    expect(parsed.reason!.endsWith(' […]')).toBe(true)
    expect(parsed.files, 'the rest of the entry is kept').toEqual(aborted('').files)
  })

  test('never splits a surrogate pair, whatever the cut', () => {
    for (let pad = 0; pad < 4; pad++) {
      const parsed = JSON.parse(logLineOf(aborted(`${'x'.repeat(pad)}${'🙂'.repeat(200_000)}`))) as LogEntry
      expect(hasLoneSurrogate(parsed.reason!), `pad ${pad}`).toBe(false)
    }
  })

  test('counts what JSON escapes: a reason of quotes and control characters stays within its bound', () => {
    const line = logLineOf(aborted('"\\\u0001'.repeat(100_000)))
    expect(line.length).toBeLessThanOrEqual(MAX_LOG_LINE_CHARS)
    expect(JSON.stringify((JSON.parse(line) as LogEntry).reason).length - 2).toBeLessThanOrEqual(MAX_LOG_REASON_CHARS)
  })

  test('clips long paths and commands to a share of the line when they would pass it', () => {
    const long = (n: number) => `/srv/app/${'d/'.repeat(2_000)}file-${n}.ts`
    const entry = meter(Array.from({ length: MAX_READ_FILES }, (_, n) => long(n)), Array.from({ length: MAX_COMMANDS }, (_, n) => `echo ${n} ${'z'.repeat(5_000)}`), long(99))
    const line = logLineOf(entry)
    expect(line.length).toBeLessThanOrEqual(MAX_LOG_LINE_CHARS)
    const parsed = JSON.parse(line) as AfterSwapEntry & { outcome: 'meter' }
    expect(parsed.reReads, 'every path is still counted').toHaveLength(MAX_READ_FILES)
    expect(parsed.repeatedCommands).toHaveLength(MAX_COMMANDS)
    expect(parsed.repeatedCommands[3]!.startsWith('echo 3 zzz')).toBe(true)
    expect(reportEntriesOf(line)[0]?.line, 'every path is counted in the report').toContain(`${MAX_READ_FILES} files re-read, ${MAX_COMMANDS} commands re-run`)
  })

  test('stays within the bound for any entry of hostile texts (property)', () => {
    const PIECES = ['a', '"', '\\', '\n', '\u0001', '🙂', '\ud800', '\udfff', 'é', 'x'.repeat(3_000), '"'.repeat(2_000)] as const
    forAll(
      (rand) => {
        const text = () => textOfPieces(rand, PIECES, 8)
        return rand.int(2) === 0
          ? aborted(text(), Array.from({ length: rand.int(30) }, () => ({ path: text(), bytes: 1 })))
          : meter(Array.from({ length: rand.int(MAX_READ_FILES + 1) }, text), Array.from({ length: rand.int(MAX_COMMANDS + 1) }, text), text())
      },
      (entry) => {
        const line = logLineOf(entry)
        expect(line.length).toBeLessThanOrEqual(MAX_LOG_LINE_CHARS)
        expect(() => JSON.parse(line)).not.toThrow()
      },
      { runs: 200 },
    )
  })
})

describe('jsonClippedOf', () => {
  test('keeps a text whose JSON fits, and cuts one that does not, mark included', () => {
    expect(jsonClippedOf('abcdef', 6)).toBe('abcdef')
    expect(jsonClippedOf('abcdefg', 6)).toBe('ab […]')
    expect(jsonClippedOf('"""', 6)).toBe('"""')
    // Two characters of JSON each: one quote and the mark fill the six.
    expect(jsonClippedOf('""""', 6)).toBe('" […]')
  })
})

describe('logTextWith, past the byte cap', () => {
  test('keeps only the newest whole lines within MAX_LOG_BYTES', () => {
    const big = `${JSON.stringify(aborted('r'.repeat(900)))}\n`
    const existing = big.repeat(Math.ceil((MAX_LOG_BYTES * 1.5) / big.length))
    const text = logTextWith(existing, aborted('newest'))
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(MAX_LOG_BYTES)
    const lines = text.slice(0, -1).split('\n')
    expect(lines.at(-1)).toBe(JSON.stringify(aborted('newest')))
    expect(lines[0]).toBe(big.slice(0, -1))
  })
})

describe('logSizeRefusalOf: a file larger than any log is judged before it is read', () => {
  test('takes a file up to MAX_LOG_BYTES, and refuses one past it', () => {
    expect(logSizeRefusalOf('l.jsonl', 0)).toBeUndefined()
    expect(logSizeRefusalOf('l.jsonl', MAX_LOG_BYTES)).toBeUndefined()
    expect(logSizeRefusalOf('l.jsonl', MAX_LOG_BYTES + 1)).toBe('l.jsonl is larger than a swap log ever grows, so it is no swap log, and is left as it is')
  })

  test('every log logTextWith writes is within it, so a log it wrote is never refused', () => {
    const big = `${JSON.stringify(aborted('r'.repeat(900)))}\n`
    const text = logTextWith(big.repeat(Math.ceil((MAX_LOG_BYTES * 2) / big.length)), aborted('newest'))
    expect(logSizeRefusalOf('l.jsonl', new TextEncoder().encode(text).length)).toBeUndefined()
  })
})
