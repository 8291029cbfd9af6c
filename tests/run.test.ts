// The run's state-machine helpers: which phase a timer or late hook may still
// act on, when a run is stale, how recorded files and refusals accumulate, and
// when a prompt the person types is held for the continue-prompt.
import { describe, expect, test } from 'vitest'
import type { HandoffPath } from '../packages/compact-handoff/hooks/protocol.js'
import {
  IDLE,
  STAGE_TEXT,
  STALE_RUN_MS,
  isAt,
  isHoldingPrompts,
  isStale,
  runOf,
  withFileRecorded,
  withHeld,
  withRefusal,
  type Phase,
  type Run,
  type Stage,
  type Swap,
} from '../packages/compact-handoff/hooks/run.js'

const HANDOFF: HandoffPath = { kind: 'handoff', relPath: 'plans/handoffs/HANDOFF_a.md' }
const PLAN: HandoffPath = { kind: 'plan', relPath: 'plans/handoffs/PLAN_a.md' }

function runOfId(id: string, files: HandoffPath[] = [], held: string[] = []): Run {
  return { id, mode: 'resume', focus: '', startedAtMs: 1_000, cwd: '/srv/proj', files, apply: 'now', held, contextPercentBefore: 72 }
}

const SWAP: Swap = { handoff: HANDOFF.relPath, continuePrompt: 'go on', refusals: 0 }

const STAGES: readonly Stage[] = ['launching', 'writing', 'checking', 'reviewed', 'swapping']

type RunningPhase = Exclude<Phase, { kind: 'idle' }>

function phasesOf(run: Run): RunningPhase[] {
  return [
    { kind: 'launching', run },
    { kind: 'writing', run, skillCommand: 'compact-handoff-skills:handoff' },
    { kind: 'checking', run },
    { kind: 'reviewed', run, swap: SWAP },
    { kind: 'swapping', run, swap: SWAP },
  ]
}

describe('phasesOf (this suite\'s fixture)', () => {
  test('covers every stage once, in order', () => {
    expect(phasesOf(runOfId('r1')).map((p) => p.kind)).toEqual(STAGES)
    expect(Object.keys(STAGE_TEXT).sort()).toEqual([...STAGES].sort())
  })
})

describe('STAGE_TEXT', () => {
  test('says a reviewed run waits for /compact-handoff apply', () => {
    expect(STAGE_TEXT.reviewed).toBe('waiting for /compact-handoff apply')
  })
})

describe('isAt', () => {
  test('holds for the run id at its own stage and at no other', () => {
    for (const phase of phasesOf(runOfId('r1'))) {
      for (const stage of STAGES) {
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

  test('changes nothing in any other stage, a reviewed run included', () => {
    for (const phase of [IDLE, ...phasesOf(runOfId('r1')).filter((p) => p.kind !== 'swapping')]) {
      expect(withRefusal(phase), phase.kind).toBe(phase)
    }
  })
})

describe('isHoldingPrompts', () => {
  test('holds from the start of a run until its continue-prompt is sent', () => {
    for (const kind of ['launching', 'writing', 'checking', 'swapping'] as const) {
      const phase = phasesOf(runOfId('r1')).find((p) => p.kind === kind)
      expect(phase && isHoldingPrompts(phase), kind).toBe(true)
    }
  })

  test('does not hold while a reviewed run waits for the person', () => {
    const reviewed = phasesOf(runOfId('r1')).find((p) => p.kind === 'reviewed')
    expect(reviewed && isHoldingPrompts(reviewed)).toBe(false)
  })

  test('does not hold when idle', () => {
    expect(isHoldingPrompts(IDLE)).toBe(false)
  })
})

describe('withHeld', () => {
  test('appends the prompt after the ones already held, in every running stage', () => {
    for (const phase of phasesOf(runOfId('r1', [], ['first']))) {
      const after = withHeld(phase, 'second')
      expect(after.kind, phase.kind).toBe(phase.kind)
      expect(runOf(after)?.held, phase.kind).toEqual(['first', 'second'])
    }
  })

  test('keeps the text verbatim, and a repeated text twice', () => {
    const phase: Phase = { kind: 'writing', run: runOfId('r1'), skillCommand: 'handoff' }
    const text = '  also: keep the /api prefix\n\n(and the tests)  '
    expect(runOf(withHeld(withHeld(phase, text), text))?.held).toEqual([text, text])
  })

  test('changes nothing else in the phase', () => {
    const phase: Phase = { kind: 'swapping', run: runOfId('r1', [HANDOFF]), swap: SWAP }
    const after = withHeld(phase, 'x')
    expect(after).toEqual({ ...phase, run: { ...phase.run, held: ['x'] } })
  })

  test('leaves the phase it was given unchanged', () => {
    const phase: Phase = { kind: 'checking', run: runOfId('r1') }
    withHeld(phase, 'x')
    expect(runOf(phase)?.held).toEqual([])
  })

  test('holds nothing when idle', () => {
    expect(withHeld(IDLE, 'x')).toBe(IDLE)
  })
})

describe('runOf', () => {
  test('gives the run of a running phase and nothing when idle', () => {
    const run = runOfId('r1')
    for (const phase of phasesOf(run)) expect(runOf(phase), phase.kind).toBe(run)
    expect(runOf(IDLE)).toBeUndefined()
  })
})
