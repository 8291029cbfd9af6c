// What this mod keeps in the session (`$.state`, declared in ../types/index.d.ts):
// session-scoped, so a hot reload, which re-runs `register` and empties module
// variables, loses neither a run half-way nor the person's recorded words.
// compact-handoff-answer reads `run` (plugins may read each other's state;
// only the owner writes).
import { atom, read, update, type EngineInterface } from 'claude-code'
import { IDLE, stageTextOf, type Phase } from './run.js'
import { transition, type RunEvent, type Step } from './run-machine.js'
import { ARMED, type Nudge } from './nudge.js'
import { NO_WORDS, type UserWords } from './user-words.js'
import { NO_SWAP, type LastSwap } from './swap-text.js'
import { NO_WORK, type WorkRecord } from './follow-up.js'
import { AUTO_ARMED, type AutoWindow } from './auto-handoff.js'


type $ = EngineInterface

const phaseAtom = atom({ plugin: 'compact-handoff', key: 'run' } as const, IDLE)
const nudgeAtom = atom({ plugin: 'compact-handoff', key: 'nudge' } as const, ARMED)
const wordsAtom = atom({ plugin: 'compact-handoff', key: 'words' } as const, NO_WORDS)
const lastSwapAtom = atom({ plugin: 'compact-handoff', key: 'lastSwap' } as const, NO_SWAP)
const workAtom = atom({ plugin: 'compact-handoff', key: 'work' } as const, NO_WORK)
const autoAtom = atom({ plugin: 'compact-handoff', key: 'auto' } as const, AUTO_ARMED)
// Written at every session.start (a hot reload runs it again), and put back
// after /clear, which starts the session's state over with no session.start
// (seen live in an SDK session, 2.1.332). Never written reads as interactive:
// a `-p` or SDK session always raises session.start first.
const interactiveAtom = atom({ plugin: 'compact-handoff', key: 'interactive' } as const, true)

function statusTextOf(phase: Phase): string | undefined {
  return phase.kind === 'idle' ? undefined : `handoff: ${stageTextOf(phase)}`
}

/** Applies `event` to the phase found in the atom, in one update: the one way
 * the run moves. The status line follows the stage. The effects are the
 * caller's to perform (run-steps.ts). */
export async function applyEvent($: $, event: RunEvent): Promise<Step> {
  const nowMs = await $.clock.now()
  let step: Step | undefined
  let found: Phase = IDLE
  await update($, phaseAtom, (phase) => {
    found = phase
    step = transition(phase, event, nowMs)
    return step.phase
  })
  // `update` always calls back at least once, so `step` is set.
  const done = step as Step
  const status = statusTextOf(done.phase)
  if (status !== statusTextOf(found)) $.ui.status(status)
  return done
}

// The engine lists what a module reads and writes by scanning each read/update
// for an atom declared in the same file, so every state access lives here.

export function readPhase($: $): Promise<Phase> {
  return read($, phaseAtom)
}

export function readNudge($: $): Promise<Nudge> {
  return read($, nudgeAtom)
}

export async function setNudge($: $, nudge: Nudge): Promise<void> {
  await update($, nudgeAtom, () => nudge)
}

export function readWords($: $): Promise<UserWords> {
  return read($, wordsAtom)
}

export async function updateWords($: $, change: (words: UserWords) => UserWords): Promise<void> {
  await update($, wordsAtom, change)
}

export function readLastSwap($: $): Promise<LastSwap> {
  return read($, lastSwapAtom)
}

export async function setLastSwap($: $, lastSwap: LastSwap): Promise<void> {
  await update($, lastSwapAtom, () => lastSwap)
}

export function readWork($: $): Promise<WorkRecord> {
  return read($, workAtom)
}

/** Updates the work record; returns the record as it was before. */
export async function updateWork($: $, change: (work: WorkRecord) => WorkRecord): Promise<WorkRecord> {
  let before = NO_WORK
  await update($, workAtom, (work) => {
    before = work
    return change(work)
  })
  return before
}

/** Spends this window's auto run; whether it was still armed (so two turn ends
 * racing each other start one run). */
export async function spendAuto($: $): Promise<boolean> {
  let wasArmed = false
  await update($, autoAtom, (window) => {
    wasArmed = window.kind === 'armed'
    return { kind: 'spent' as const }
  })
  return wasArmed
}

export function readAuto($: $): Promise<AutoWindow> {
  return read($, autoAtom)
}

export async function rearmAuto($: $): Promise<void> {
  await update($, autoAtom, () => AUTO_ARMED)
}

/** Whether a person is at the prompt: plugin compaction is refused in a `-p`
 * or SDK session, so no swap can finish there. */
export function readInteractive($: $): Promise<boolean> {
  return read($, interactiveAtom)
}

export async function setInteractive($: $, isInteractive: boolean): Promise<void> {
  await update($, interactiveAtom, () => isInteractive)
}
