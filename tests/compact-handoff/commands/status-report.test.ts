// The text of /compact-handoff status.
import { describe, expect, test } from 'vitest'
import { runFixture } from '../../support/run-fixture.js'
import type { HandoffPath } from '../../../packages/compact-handoff/hooks/protocol/protocol-paths.js'
import { IDLE, type Phase, type Run, type Swap } from '../../../packages/compact-handoff/hooks/run/run.js'
import { statusReportOf, type StatusReportInput } from '../../../packages/compact-handoff/hooks/commands/status-report.js'

const HANDOFF: HandoffPath = { kind: 'handoff', relPath: 'plans/handoffs/HANDOFF_a.md' }
const PLAN: HandoffPath = { kind: 'plan', relPath: 'plans/handoffs/PLAN_a.md' }
const STARTED_MS = 10_000
const SWAP: Swap = { handoff: HANDOFF.relPath, continuePrompt: 'y', refusals: 1 }
const NO_WORDS_LINE = 'User messages recorded for the next stub: 0 (0 characters).'

function runWith(changes: Parameters<typeof runFixture>[0] = {}): Run {
  return runFixture({ startedAtMs: STARTED_MS, ...changes })
}

function writing(run: Run): Phase {
  return { kind: 'writing', run, sinceMs: STARTED_MS }
}

const CHOSEN = { handoff: HANDOFF, continuePrompt: 'y', notices: [] }

function inputWith(changes: Partial<StatusReportInput> & Pick<StatusReportInput, 'phase'>): StatusReportInput {
  return { nowMs: STARTED_MS, contextPercent: 50, nudgePercent: 70, autoHandoffPercent: 0, words: { count: 0, chars: 0 }, recentLog: [], ...changes }
}

describe('statusReportOf when idle', () => {
  test('says no run is under way, with the context, the threshold and the words held', () => {
    expect(statusReportOf(inputWith({ phase: IDLE, nowMs: 0, contextPercent: 41.6, nudgePercent: 70 })).split('\n')).toEqual([
      'No handoff run under way; context 42%; nudge at 70%; auto handoff off.',
      NO_WORDS_LINE,
    ])
  })

  test('says the context is unknown when it is', () => {
    expect(statusReportOf(inputWith({ phase: IDLE, contextPercent: undefined, nudgePercent: 85 })).split('\n')[0]).toBe(
      'No handoff run under way; context unknown; nudge at 85%; auto handoff off.',
    )
  })

  test('says how many of the user\'s messages are recorded and their size', () => {
    const text = statusReportOf(inputWith({ phase: IDLE, words: { count: 3, chars: 1_234 } }))
    expect(text.split('\n')[1]).toBe('User messages recorded for the next stub: 3 (1234 characters).')
  })

  test('lists the recent runs, oldest first, indented under a heading', () => {
    const recentLog = ['2026-11-29T10:00:00.000Z handoff run swapped: plans/handoffs/HANDOFF_a.md', '2026-11-29T11:00:00.000Z plan run aborted (no handoff file was written)']
    expect(statusReportOf(inputWith({ phase: IDLE, recentLog })).split('\n')).toEqual([
      'No handoff run under way; context 50%; nudge at 70%; auto handoff off.',
      NO_WORDS_LINE,
      'From the swap log:',
      `  ${recentLog[0]}`,
      `  ${recentLog[1]}`,
    ])
  })

  test('leaves out the heading when there are no recent runs', () => {
    expect(statusReportOf(inputWith({ phase: IDLE }))).not.toContain('From the swap log')
  })
})

describe('statusReportOf during a run', () => {
  test('gives stage, mode, focus, elapsed time, files, held messages, context, threshold, words and how to cancel', () => {
    const phase = writing(runWith({ mode: 'plan', focus: 'the parser', files: [HANDOFF, PLAN], held: ['one', 'two'] }))
    const input = inputWith({ phase, nowMs: STARTED_MS + 125_000, contextPercent: 88, nudgePercent: 70, words: { count: 2, chars: 40 } })
    expect(statusReportOf(input).split('\n')).toEqual([
      'Plan run writing (the handoff skill is writing), focus "the parser", running for 2 min 5 s.',
      `Files recorded: ${HANDOFF.relPath}, ${PLAN.relPath}.`,
      'Messages typed during the run, held until the swap: 2.',
      'Context 88%; nudge at 70%; auto handoff off.',
      'User messages recorded for the next stub: 2 (40 characters).',
      'Cancel with /compact-handoff cancel.',
    ])
  })

  test('leaves out an empty focus and says no files yet', () => {
    const text = statusReportOf(inputWith({ phase: { kind: 'launching', run: runWith(), sinceMs: STARTED_MS }, nowMs: STARTED_MS + 4_000, contextPercent: undefined }))
    expect(text.split('\n').slice(0, 4)).toEqual([
      'Handoff run launching (starting the handoff skill), running for 4 s.',
      'Files recorded: none yet.',
      'Messages typed during the run, held until the swap: 0.',
      'Context unknown; nudge at 70%; auto handoff off.',
    ])
  })

  test.each([
    [59_400, '59 s'],
    [59_600, '1 min 0 s'],
    [3_600_000, '60 min 0 s'],
    [-5_000, '0 s'],
  ])('shows %d ms as %s', (elapsedMs, shown) => {
    const text = statusReportOf(inputWith({ phase: { kind: 'checking', run: runWith(), sinceMs: STARTED_MS, chosen: CHOSEN }, nowMs: STARTED_MS + elapsedMs }))
    expect(text).toContain(`running for ${shown}.`)
  })

  test('names the swapping stage', () => {
    const text = statusReportOf(inputWith({ phase: { kind: 'swapping', run: runWith(), sinceMs: STARTED_MS, swap: SWAP, isCompacting: false } }))
    expect(text.split('\n')[0]).toBe('Handoff run swapping (replacing the conversation), running for 0 s.')
  })

  test('puts the recent runs after the words and before how to cancel', () => {
    const text = statusReportOf(inputWith({ phase: writing(runWith()), recentLog: ['line one'] }))
    expect(text.split('\n').slice(-4)).toEqual([NO_WORDS_LINE, 'From the swap log:', '  line one', 'Cancel with /compact-handoff cancel.'])
  })
})

describe('statusReportOf with the auto handoff on', () => {
  test('says at what percent', () => {
    expect(statusReportOf(inputWith({ phase: IDLE, contextPercent: 10, autoHandoffPercent: 80 })).split('\n')[0]).toBe('No handoff run under way; context 10%; nudge at 70%; auto handoff at 80%.')
  })
})

describe('statusReportOf during a repair turn', () => {
  test('names the repair and counts it', () => {
    const lines = statusReportOf(inputWith({ phase: writing(runWith({ repairs: 2, held: ['a'], heldCommands: ['/x'] })) })).split('\n')
    expect(lines[0]).toBe('Handoff run writing (the handoff skill is fixing its files (repair 2 of 2)), running for 0 s.')
    expect(lines).toContain('Messages typed during the run, held until the swap: 2.')
    expect(lines).toContain('Repair turns asked for: 2 of 2.')
  })
})

describe('statusReportOf for a reviewed run', () => {
  const phase: Phase = { kind: 'reviewed', run: runWith({ apply: 'review', focus: 'the parser', files: [HANDOFF] }), sinceMs: STARTED_MS, swap: SWAP }

  test('names the reviewed stage and says how to apply or cancel', () => {
    const lines = statusReportOf(inputWith({ phase, nowMs: STARTED_MS + 61_000 })).split('\n')
    expect(lines[0]).toBe('Handoff run reviewed (waiting for /compact-handoff apply), focus "the parser", running for 1 min 1 s.')
    expect(lines[1]).toBe(`Files recorded: ${HANDOFF.relPath}.`)
    expect(lines.at(-1)).toBe('Apply with /compact-handoff apply, or drop it with /compact-handoff cancel.')
  })

  test('no running stage offers apply', () => {
    for (const running of [{ kind: 'launching', run: runWith(), sinceMs: STARTED_MS }, writing(runWith()), { kind: 'checking', run: runWith(), sinceMs: STARTED_MS, chosen: CHOSEN }, { kind: 'swapping', run: runWith(), sinceMs: STARTED_MS, swap: SWAP, isCompacting: false }] as Phase[]) {
      expect(statusReportOf(inputWith({ phase: running })), running.kind).not.toContain('/compact-handoff apply')
    }
  })
})
