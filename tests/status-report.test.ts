// The text of /compact-handoff status.
import { describe, expect, test } from 'vitest'
import type { HandoffPath } from '../packages/compact-handoff/hooks/protocol.js'
import { IDLE, type Phase, type Run } from '../packages/compact-handoff/hooks/run.js'
import { statusTextOf } from '../packages/compact-handoff/hooks/status-report.js'

const HANDOFF: HandoffPath = { kind: 'handoff', relPath: 'plans/handoffs/HANDOFF_a.md' }
const PLAN: HandoffPath = { kind: 'plan', relPath: 'plans/handoffs/PLAN_a.md' }
const STARTED_MS = 10_000

function runWith(changes: Partial<Run> = {}): Run {
  return { id: 'r1', mode: 'resume', focus: '', startedAtMs: STARTED_MS, cwd: '/srv/proj', files: [], ...changes }
}

function writing(run: Run): Phase {
  return { kind: 'writing', run, skillCommand: 'compact-handoff-skills:handoff' }
}

describe('statusTextOf when idle', () => {
  test('says no run is under way, with the context and the threshold', () => {
    expect(statusTextOf({ phase: IDLE, nowMs: 0, contextPercent: 41.6, nudgePercent: 70 })).toBe('No handoff run under way; context 42%; nudge at 70%.')
  })

  test('says the context is unknown when it is', () => {
    expect(statusTextOf({ phase: IDLE, nowMs: 0, contextPercent: undefined, nudgePercent: 85 })).toBe(
      'No handoff run under way; context unknown; nudge at 85%.',
    )
  })
})

describe('statusTextOf during a run', () => {
  test('gives stage, mode, focus, elapsed time, files, context, threshold and how to cancel', () => {
    const phase = writing(runWith({ mode: 'plan', focus: 'the parser', files: [HANDOFF, PLAN] }))
    expect(statusTextOf({ phase, nowMs: STARTED_MS + 125_000, contextPercent: 88, nudgePercent: 70 }).split('\n')).toEqual([
      'Run writing (the handoff skill is writing), plan mode, focus "the parser", running for 2 min 5 s.',
      `Files recorded: ${HANDOFF.relPath}, ${PLAN.relPath}.`,
      'Context 88%; nudge at 70%.',
      'Cancel with /compact-handoff cancel.',
    ])
  })

  test('leaves out an empty focus and says no files yet', () => {
    const text = statusTextOf({ phase: { kind: 'launching', run: runWith() }, nowMs: STARTED_MS + 4_000, contextPercent: undefined, nudgePercent: 70 })
    expect(text.split('\n').slice(0, 3)).toEqual([
      'Run launching (starting the handoff skill), resume mode, running for 4 s.',
      'Files recorded: none yet.',
      'Context unknown; nudge at 70%.',
    ])
  })

  test.each([
    [59_400, '59 s'],
    [59_600, '1 min 0 s'],
    [3_600_000, '60 min 0 s'],
    [-5_000, '0 s'],
  ])('shows %d ms as %s', (elapsedMs, shown) => {
    const text = statusTextOf({ phase: { kind: 'checking', run: runWith() }, nowMs: STARTED_MS + elapsedMs, contextPercent: 50, nudgePercent: 70 })
    expect(text).toContain(`running for ${shown}.`)
  })

  test('names the swapping stage', () => {
    const swap = { handoff: HANDOFF.relPath, instructions: 'x', continuePrompt: 'y', refusals: 1 }
    const text = statusTextOf({ phase: { kind: 'swapping', run: runWith(), swap }, nowMs: STARTED_MS, contextPercent: 50, nudgePercent: 70 })
    expect(text.split('\n')[0]).toBe('Run swapping (replacing the conversation), resume mode, running for 0 s.')
  })
})
