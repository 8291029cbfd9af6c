// The text of /compact-handoff status: plain words, on one screen (at most
// MAX_REPORT_LINES lines of at most REPORT_LINE_CHARS characters), and every
// text the report did not write itself quoted.
import { describe, expect, test } from 'vitest'
import { runFixture } from '../../support/run-fixture.js'
import type { HandoffPath } from '../../../packages/compact-handoff/hooks/protocol/protocol-paths.js'
import { IDLE, type Phase, type Run, type Swap } from '../../../packages/compact-handoff/hooks/run/run.js'
import { MAX_REPORT_LINES, statusReportOf, type StatusReportInput } from '../../../packages/compact-handoff/hooks/commands/status-report.js'
import { REPORT_LINE_CHARS, notALogLinesOf } from '../../../packages/compact-handoff/hooks/swap-log/swap-log.js'

const HANDOFF: HandoffPath = { kind: 'handoff', relPath: 'plans/handoffs/HANDOFF_a.md' }
const PLAN: HandoffPath = { kind: 'plan', relPath: 'plans/handoffs/PLAN_a.md' }
const STARTED_MS = 10_000
const SWAP: Swap = { handoff: HANDOFF.relPath, continuePrompt: 'y', refusals: 1 }
const NO_WORDS_LINE = 'Your messages the next handoff will carry: 0 (0 characters).'

function runWith(changes: Parameters<typeof runFixture>[0] = {}): Run {
  return runFixture({ startedAtMs: STARTED_MS, ...changes })
}

function writing(run: Run): Phase {
  return { kind: 'writing', run, sinceMs: STARTED_MS }
}

const CHOSEN = { handoff: HANDOFF, continuePrompt: 'y', notices: [] }

function inputWith(changes: Partial<StatusReportInput> & Pick<StatusReportInput, 'phase'>): StatusReportInput {
  return { nowMs: STARTED_MS, contextPercent: 50, nudgePercent: 70, autoHandoffPercent: 0, words: { count: 0, chars: 0 }, recentLog: [], logNotes: [], ...changes }
}

describe('statusReportOf when idle', () => {
  test('says no run is under way, with the context, the thresholds and the words held', () => {
    expect(statusReportOf(inputWith({ phase: IDLE, nowMs: 0, contextPercent: 41.6, nudgePercent: 70 })).split('\n')).toEqual([
      'No handoff run under way.',
      'Context 42% used · nudge at 70% · auto handoff off.',
      NO_WORDS_LINE,
    ])
  })

  test('says the context is not known yet when it is not', () => {
    expect(statusReportOf(inputWith({ phase: IDLE, contextPercent: undefined, nudgePercent: 85 })).split('\n')[1]).toBe('Context use not known yet · nudge at 85% · auto handoff off.')
  })

  test("says how many of the person's messages are recorded and their size", () => {
    expect(statusReportOf(inputWith({ phase: IDLE, words: { count: 3, chars: 1_234 } })).split('\n')[2]).toBe('Your messages the next handoff will carry: 3 (1234 characters).')
  })

  test("words the meter's line plainly, the handoff's path quoted", () => {
    const meter = { handoff: 'plans/handoffs/HANDOFF_a.md', reReads: ['a.ts', 'b.ts'], repeatedCommands: ['ls'] }
    expect(statusReportOf(inputWith({ phase: IDLE, meter })).split('\n')[3]).toBe('Since “plans/handoffs/HANDOFF_a.md”: 2 files re-read, 1 command re-run.')
    expect(statusReportOf(inputWith({ phase: IDLE, meter: { ...meter, handoff: undefined } })).split('\n')[3]).toBe('Since the last compaction: 2 files re-read, 1 command re-run.')
  })

  test('lists the recent log lines, oldest first, under a heading that says whose words they are', () => {
    const recentLog = ['11-29 10:00  handoff run: swapped to “plans/handoffs/HANDOFF_a.md”', '11-29 11:00  plan run stopped: “no handoff file was written”']
    expect(statusReportOf(inputWith({ phase: IDLE, recentLog })).split('\n').slice(3)).toEqual(['Swap log, newest last (as its files say):', `  ${recentLog[0]}`, `  ${recentLog[1]}`])
  })

  test('leaves out the heading when there are no recent runs', () => {
    expect(statusReportOf(inputWith({ phase: IDLE }))).not.toContain('Swap log')
  })

  test('says once which file at a log path is no log and what to do', () => {
    const logNotes = notALogLinesOf([{ relPath: '.claude/handoffs/swap-log/s1.jsonl', isThisSession: true }, { relPath: '.claude/handoffs/compact-handoff.log.jsonl', isThisSession: false }])
    const lines = statusReportOf(inputWith({ phase: IDLE, logNotes })).split('\n')
    expect(lines.slice(3)).toEqual([
      'No swap log, left as it is: “.claude/handoffs/swap-log/s1.jsonl”',
      'No swap log, left as it is: “.claude/handoffs/compact-handoff.log.jsonl”',
      '  (this session logs nothing while it is there: move it away)',
    ])
  })
})

describe('statusReportOf during a run', () => {
  test('gives the kind, the time, the stage, the focus, the files, held messages, context, words and how to cancel', () => {
    const phase = writing(runWith({ mode: 'plan', focus: 'the parser', files: [HANDOFF, PLAN], held: ['one', 'two'] }))
    const input = inputWith({ phase, nowMs: STARTED_MS + 125_000, contextPercent: 88, nudgePercent: 70, words: { count: 2, chars: 40 } })
    expect(statusReportOf(input).split('\n')).toEqual([
      'Plan run under way for 2 min 5 s.',
      'Now: the handoff skill is writing.',
      'Focus: “the parser”.',
      `Files so far: “${HANDOFF.relPath}” (+1).`,
      'Messages you typed meanwhile, held for after the swap: 2.',
      'Context 88% used · nudge at 70% · auto handoff off.',
      'Your messages the next handoff will carry: 2 (40 characters).',
      'Cancel with /compact-handoff cancel.',
    ])
  })

  test('leaves out an empty focus and says no files yet', () => {
    const text = statusReportOf(inputWith({ phase: { kind: 'launching', run: runWith(), sinceMs: STARTED_MS }, nowMs: STARTED_MS + 4_000, contextPercent: undefined }))
    expect(text.split('\n').slice(0, 4)).toEqual(['Handoff run under way for 4 s.', 'Now: starting the handoff skill.', 'Files so far: none.', 'Messages you typed meanwhile, held for after the swap: 0.'])
  })

  test.each([
    [59_400, '59 s'],
    [59_600, '1 min 0 s'],
    [3_600_000, '60 min 0 s'],
    [-5_000, '0 s'],
  ])('shows %d ms as %s', (elapsedMs, shown) => {
    const text = statusReportOf(inputWith({ phase: { kind: 'checking', run: runWith(), sinceMs: STARTED_MS, chosen: CHOSEN }, nowMs: STARTED_MS + elapsedMs }))
    expect(text).toContain(`under way for ${shown}.`)
  })

  test('names the swapping stage', () => {
    const text = statusReportOf(inputWith({ phase: { kind: 'swapping', run: runWith(), sinceMs: STARTED_MS, swap: SWAP, isCompacting: false } }))
    expect(text.split('\n')[1]).toBe('Now: replacing the conversation.')
  })

  test('puts the recent runs after the words and before how to cancel', () => {
    const text = statusReportOf(inputWith({ phase: writing(runWith()), recentLog: ['line one'] }))
    expect(text.split('\n').slice(-4)).toEqual([NO_WORDS_LINE, 'Swap log, newest last (as its files say):', '  line one', 'Cancel with /compact-handoff cancel.'])
  })
})

describe('statusReportOf with the auto handoff on', () => {
  test('says at what percent', () => {
    expect(statusReportOf(inputWith({ phase: IDLE, contextPercent: 10, autoHandoffPercent: 80 })).split('\n')[1]).toBe('Context 10% used · nudge at 70% · auto handoff at 80%.')
  })
})

describe('statusReportOf during a repair turn', () => {
  test('names the repair and counts it', () => {
    const lines = statusReportOf(inputWith({ phase: writing(runWith({ repairs: 2, held: ['a'], heldCommands: ['/x'] })) })).split('\n')
    expect(lines[1]).toBe('Now: the handoff skill is fixing its files (repair 2 of 2).')
    expect(lines).toContain('Messages you typed meanwhile, held for after the swap: 2.')
    expect(lines).toContain('Repair turns asked for: 2 of 2.')
  })
})

describe('statusReportOf for a reviewed run', () => {
  const phase: Phase = { kind: 'reviewed', run: runWith({ apply: 'review', focus: 'the parser', files: [HANDOFF] }), sinceMs: STARTED_MS, swap: SWAP }

  test('names the reviewed stage and says how to apply or cancel', () => {
    const lines = statusReportOf(inputWith({ phase, nowMs: STARTED_MS + 61_000 })).split('\n')
    expect(lines.slice(0, 4)).toEqual(['Handoff run under way for 1 min 1 s.', 'Now: waiting for /compact-handoff apply.', 'Focus: “the parser”.', `Files so far: “${HANDOFF.relPath}”.`])
    expect(lines.at(-1)).toBe('/compact-handoff apply swaps it in; /compact-handoff cancel drops it.')
  })

  test('no running stage offers apply', () => {
    for (const running of [{ kind: 'launching', run: runWith(), sinceMs: STARTED_MS }, writing(runWith()), { kind: 'checking', run: runWith(), sinceMs: STARTED_MS, chosen: CHOSEN }, { kind: 'swapping', run: runWith(), sinceMs: STARTED_MS, swap: SWAP, isCompacting: false }] as Phase[]) {
      expect(statusReportOf(inputWith({ phase: running })), running.kind).not.toContain('/compact-handoff apply')
    }
  })
})

describe('statusReportOf on one screen', () => {
  test('every part at its longest: at most MAX_REPORT_LINES lines, none past REPORT_LINE_CHARS', () => {
    const long = 'x'.repeat(5_000)
    const files = Array.from({ length: 30 }, (_, n): HandoffPath => ({ kind: 'handoff', relPath: `${'deep/'.repeat(300)}HANDOFF_${n}.md` }))
    const base = {
      nowMs: STARTED_MS + 99 * 3_600_000,
      contextPercent: 100,
      nudgePercent: 100,
      autoHandoffPercent: 100,
      words: { count: 99_999, chars: 99_999_999 },
      recentLog: Array.from({ length: 10 }, () => `11-29 10:00  ${'y'.repeat(REPORT_LINE_CHARS - 15)}`),
      logNotes: notALogLinesOf([long, long, long].map((relPath, i) => ({ relPath, isThisSession: i === 0 }))),
      meter: { handoff: long, reReads: Array.from({ length: 999 }, () => 'a'), repeatedCommands: Array.from({ length: 999 }, () => 'b') },
    }
    const run = runWith({ mode: 'plan', focus: long, files, held: Array.from({ length: 99 }, () => 'h'), repairs: 2 })
    for (const phase of [IDLE, writing(run), { kind: 'reviewed', run, sinceMs: STARTED_MS, swap: SWAP }, { kind: 'going', run, sinceMs: STARTED_MS, swap: SWAP }] as Phase[]) {
      const lines = statusReportOf({ ...base, phase }).split('\n')
      expect(lines.length, phase.kind).toBeLessThanOrEqual(MAX_REPORT_LINES)
      for (const line of lines) expect(Array.from(line).length, line).toBeLessThanOrEqual(REPORT_LINE_CHARS)
    }
  })
})
