// The run's state-machine helpers: which phase a timer or late hook may still
// act on, when a run is stale, and how recorded files and refusals accumulate.
import { describe, expect, test } from 'vitest'
import type { HandoffPath } from '../packages/compact-handoff/hooks/protocol.js'
import { IDLE, STALE_RUN_MS, isAt, isStale, runOf, withFileRecorded, withRefusal, type Phase, type Run, type Swap } from '../packages/compact-handoff/hooks/run.js'

const HANDOFF: HandoffPath = { kind: 'handoff', relPath: 'plans/handoffs/HANDOFF_a.md' }
const PLAN: HandoffPath = { kind: 'plan', relPath: 'plans/handoffs/PLAN_a.md' }

function runOfId(id: string, files: HandoffPath[] = []): Run {
  return { id, mode: 'resume', focus: '', startedAtMs: 1_000, cwd: '/srv/proj', files }
}

const SWAP: Swap = { handoff: HANDOFF.relPath, instructions: 'compact-handoff:v1\nstub', continuePrompt: 'go on', refusals: 0 }

type RunningPhase = Exclude<Phase, { kind: 'idle' }>

function phasesOf(run: Run): RunningPhase[] {
  return [
    { kind: 'launching', run },
    { kind: 'writing', run, skillCommand: 'compact-handoff-skills:handoff' },
    { kind: 'checking', run },
    { kind: 'swapping', run, swap: SWAP },
  ]
}

describe('isAt', () => {
  test('holds for the run id at its own stage and at no other', () => {
    for (const phase of phasesOf(runOfId('r1'))) {
      for (const stage of ['launching', 'writing', 'checking', 'swapping'] as const) {
        expect(isAt(phase, stage, 'r1'), `${phase.kind} asked about ${stage}`).toBe(stage === phase.kind)
      }
    }
  })

  test('fails for another run id at the same stage', () => {
    for (const phase of phasesOf(runOfId('r1'))) expect(isAt(phase, phase.kind, 'r2')).toBe(false)
  })

  test('fails when idle', () => {
    expect(isAt(IDLE, 'writing', 'r1')).toBe(false)
  })
})

describe('isStale', () => {
  const writing: Phase = { kind: 'writing', run: runOfId('r1'), skillCommand: 'handoff' }

  test('is false exactly 30 minutes after the start', () => {
    expect(STALE_RUN_MS).toBe(30 * 60 * 1000)
    expect(isStale(writing, 1_000 + STALE_RUN_MS)).toBe(false)
  })

  test('is true one millisecond past 30 minutes', () => {
    expect(isStale(writing, 1_000 + STALE_RUN_MS + 1)).toBe(true)
  })

  test('is never true when idle', () => {
    expect(isStale(IDLE, Number.MAX_SAFE_INTEGER)).toBe(false)
  })

  test('applies to every running stage', () => {
    for (const phase of phasesOf(runOfId('r1'))) expect(isStale(phase, 1_000 + STALE_RUN_MS + 1), phase.kind).toBe(true)
  })
})

describe('withFileRecorded', () => {
  test('adds a new file to a writing run, after the ones already there', () => {
    const phase: Phase = { kind: 'writing', run: runOfId('r1', [HANDOFF]), skillCommand: 'handoff' }
    expect(runOf(withFileRecorded(phase, PLAN))?.files).toEqual([HANDOFF, PLAN])
  })

  test('records a path only once', () => {
    const phase: Phase = { kind: 'writing', run: runOfId('r1'), skillCommand: 'handoff' }
    const twice = withFileRecorded(withFileRecorded(phase, HANDOFF), { ...HANDOFF })
    expect(runOf(twice)?.files).toEqual([HANDOFF])
  })

  test('leaves the phase it was given unchanged', () => {
    const phase: Phase = { kind: 'writing', run: runOfId('r1'), skillCommand: 'handoff' }
    withFileRecorded(phase, HANDOFF)
    expect(runOf(phase)?.files).toEqual([])
  })

  test('records nothing outside the writing stage', () => {
    for (const phase of [IDLE, ...phasesOf(runOfId('r1')).filter((p) => p.kind !== 'writing')]) {
      expect(withFileRecorded(phase, HANDOFF), phase.kind).toBe(phase)
    }
  })
})

describe('withRefusal', () => {
  test('counts a refusal while swapping', () => {
    const phase: Phase = { kind: 'swapping', run: runOfId('r1'), swap: SWAP }
    const twice = withRefusal(withRefusal(phase))
    expect(twice.kind === 'swapping' ? twice.swap.refusals : undefined).toBe(2)
  })

  test('changes nothing in any other stage', () => {
    for (const phase of [IDLE, ...phasesOf(runOfId('r1')).filter((p) => p.kind !== 'swapping')]) {
      expect(withRefusal(phase), phase.kind).toBe(phase)
    }
  })
})

describe('runOf', () => {
  test('gives the run of a running phase and nothing when idle', () => {
    const run = runOfId('r1')
    for (const phase of phasesOf(run)) expect(runOf(phase), phase.kind).toBe(run)
    expect(runOf(IDLE)).toBeUndefined()
  })
})
