// The swap log: one JSON line per swap or abort, bounded to the newest 1,000,
// and the few recent lines /compact-handoff status shows.
import { describe, expect, test } from 'vitest'
import { MAX_LOG_LINES, SWAP_LOG_PATH, logModeOf, logOutcomeOf, logTextWith, readsAsSwapLog, logTriggerOf, recentLogLinesOf, type AfterSwapEntry, type LogEntry } from '../../../packages/compact-handoff/hooks/swap-log/swap-log.js'
import { forAll } from '../../support/property.js'
import { LOADED_MACHINE_TIMEOUT_MS } from '../../support/loaded-machine.js'

function entryOf(n: number, changes: Partial<LogEntry> = {}): LogEntry {
  return {
    time: new Date(Date.UTC(2026, 10, 29, 10, 0, n)).toISOString(),
    sessionId: 's1',
    mode: 'handoff',
    trigger: 'command',
    files: [{ path: `plans/handoffs/HANDOFF_${n}.md`, bytes: 1_000 + n }],
    contextPercentBefore: 80,
    outcome: 'swapped',
    messagesHeld: 0,
    repairs: 0,
    ...changes,
  }
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

describe('SWAP_LOG_PATH', () => {
  test('is a JSON-lines file in the project handoff folder', () => {
    expect(SWAP_LOG_PATH).toBe('.claude/handoffs/compact-handoff.log.jsonl')
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

describe('recentLogLinesOf', () => {
  test('formats an entry as time, mode, outcome and files', () => {
    const entry = entryOf(1, { mode: 'plan', files: [{ path: 'plans/handoffs/HANDOFF_a.md', bytes: 10 }, { path: 'plans/handoffs/PLAN_a.md', bytes: 20 }] })
    expect(recentLogLinesOf(logTextWith('', entry), 5)).toEqual([`${entry.time} plan run swapped: plans/handoffs/HANDOFF_a.md, plans/handoffs/PLAN_a.md`])
  })

  test('gives the reason of an abort, and no files part when there were none', () => {
    const entry = entryOf(1, { outcome: 'aborted', reason: 'the handoff turn was interrupted', files: [] })
    expect(recentLogLinesOf(logTextWith('', entry), 5)).toEqual([`${entry.time} handoff run aborted (the handoff turn was interrupted)`])
  })

  test('names an engine summary', () => {
    const entry = entryOf(1, { outcome: 'engine-summarized' })
    expect(recentLogLinesOf(logTextWith('', entry), 5)).toEqual([`${entry.time} handoff run engine-summarized: plans/handoffs/HANDOFF_1.md`])
  })

  test("names a compaction a fork's handoff answered, or the summary it fell back to, by the compaction, not the mode", () => {
    const answered = entryOf(1, { trigger: 'automatic-compaction', outcome: 'compaction-handoff', repairs: 1 })
    const fellBack = entryOf(2, { trigger: 'compact-command', outcome: 'compaction-summarized', files: [], reason: 'the fork replied with no text' })
    expect(recentLogLinesOf(logTextWith(logTextWith('', answered), fellBack), 5)).toEqual([
      `${answered.time} compaction-handoff at the automatic compaction after 1 repair(s): plans/handoffs/HANDOFF_1.md`,
      `${fellBack.time} compaction-summarized at /compact (the fork replied with no text)`,
    ])
  })

  test('gives the newest lines only, oldest of them first', () => {
    const lines = recentLogLinesOf(logOf(10), 3)
    expect(lines).toEqual([7, 8, 9].map((n) => `${entryOf(n).time} handoff run swapped: plans/handoffs/HANDOFF_${n}.md`))
  })

  test('gives every line when there are fewer than asked for, and nothing for an empty log', () => {
    expect(recentLogLinesOf(logOf(2), 5)).toHaveLength(2)
    expect(recentLogLinesOf('', 5)).toEqual([])
    expect(recentLogLinesOf('\n\n', 5)).toEqual([])
  })

  test('gives nothing when asked for none', () => {
    expect(recentLogLinesOf(logOf(4), 0)).toEqual([])
  })

  test('skips lines that are not entries, and counts only entries', () => {
    const text = [
      JSON.stringify(entryOf(1)),
      'not json at all',
      '{"time": "2026-11-29T10:00:00.000Z", "outcome": ',
      'null',
      '42',
      '"a string"',
      '[1, 2]',
      JSON.stringify({ time: '2026-11-29T10:00:00.000Z' }),
      JSON.stringify({ outcome: 'swapped' }),
      JSON.stringify({ time: 7, outcome: 'swapped' }),
      JSON.stringify({ time: '2026-11-29T10:00:00.000Z', outcome: 'swapped', files: [null] }),
      JSON.stringify(entryOf(2)),
      '',
    ].join('\n')
    expect(recentLogLinesOf(text, 2)).toEqual([1, 2].map((n) => `${entryOf(n).time} handoff run swapped: plans/handoffs/HANDOFF_${n}.md`))
  })

  test('shows an unknown mode as "?"', () => {
    const line = JSON.stringify({ time: 't', outcome: 'aborted', reason: 'r' })
    expect(recentLogLinesOf(line, 1)).toEqual(['t ? aborted (r)'])
    expect(recentLogLinesOf(JSON.stringify({ time: 't', mode: 'summary', outcome: 'aborted' }), 1)).toEqual(['t ? aborted'])
  })

  test('names each kind of run by what it writes, never "resume", which is /compact-handoff resume', () => {
    const lines = recentLogLinesOf(logTextWith(logTextWith('', entryOf(1)), entryOf(2, { mode: 'plan' })), 5)
    expect(lines).toEqual([
      `${entryOf(1).time} handoff run swapped: plans/handoffs/HANDOFF_1.md`,
      `${entryOf(2).time} plan run swapped: plans/handoffs/HANDOFF_2.md`,
    ])
  })

  test("reads a line written before the kinds were named, whose mode 'resume' was a handoff run", () => {
    const old = JSON.stringify({ ...entryOf(1), mode: 'resume' })
    expect(recentLogLinesOf(old, 1)).toEqual([`${entryOf(1).time} handoff run swapped: plans/handoffs/HANDOFF_1.md`])
    expect(logModeOf('resume')).toBe('handoff')
    expect(logModeOf('handoff')).toBe('handoff')
    expect(logModeOf('plan')).toBe('plan')
    expect(logModeOf(undefined)).toBeUndefined()
  })

  test("reads a line written before the auto handoff was named, whose trigger 'auto' was the auto handoff, never the automatic compaction", () => {
    const old = JSON.stringify({ ...entryOf(1), trigger: 'auto' })
    const now = JSON.stringify(entryOf(2, { trigger: 'auto-handoff' }))
    expect(recentLogLinesOf(`${old}\n${now}`, 2)).toEqual([1, 2].map((n) => `${entryOf(n).time} handoff run swapped: plans/handoffs/HANDOFF_${n}.md`))
    expect(logTriggerOf('auto')).toBe('auto-handoff')
    expect(logTriggerOf('auto-handoff')).toBe('auto-handoff')
    expect(logTriggerOf('automatic-compaction')).toBe('automatic-compaction')
    expect(logTriggerOf('compact-command')).toBe('compact-command')
    expect(logTriggerOf('command')).toBe('command')
    expect(logTriggerOf('apply')).toBe('apply')
    expect(logTriggerOf('manual')).toBeUndefined()
    expect(logTriggerOf(undefined)).toBeUndefined()
  })

  test('shows a resume of a handoff as resumed, with no kind of run, old lines too', () => {
    const resumed = entryOf(1, { outcome: 'resumed' })
    delete resumed.mode
    expect(recentLogLinesOf(logTextWith('', resumed), 1)).toEqual([`${resumed.time} resumed: plans/handoffs/HANDOFF_1.md`])
    expect(recentLogLinesOf(JSON.stringify({ ...resumed, mode: 'resume' }), 1)).toEqual([`${resumed.time} resumed: plans/handoffs/HANDOFF_1.md`])
  })

  test("reads a meter line, and one written before the meter was named, whose outcome 'follow-up' was the meter, the same way", () => {
    const meter: AfterSwapEntry = { time: 't1', sessionId: 's1', follows: { kind: 'swapped', handoff: 'plans/handoffs/HANDOFF_1.md', time: 't0' }, outcome: 'meter', reReads: ['src/a.ts'], repeatedCommands: ['pnpm test', 'ls'] }
    const shown = ['t1 meter after plans/handoffs/HANDOFF_1.md: 1 file(s) read again, 2 command(s) run again']
    expect(recentLogLinesOf(logTextWith('', meter), 1)).toEqual(shown)
    expect(recentLogLinesOf(`${JSON.stringify({ ...meter, outcome: 'follow-up' })}\n`, 1), 'a line an earlier version wrote').toEqual(shown)
    expect(logOutcomeOf('follow-up')).toBe('meter')
    expect(logOutcomeOf('meter')).toBe('meter')
    expect(logOutcomeOf('swapped')).toBe('swapped')
  })

  test('reads a log with CRLF line ends', () => {
    const text = [entryOf(1), entryOf(2)].map((e) => JSON.stringify(e)).join('\r\n')
    expect(recentLogLinesOf(text, 5)).toHaveLength(2)
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
})
