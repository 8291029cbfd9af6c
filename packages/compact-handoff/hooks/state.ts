// What this mod keeps in the session (`$.state`, declared in ../types/index.d.ts):
// session-scoped, so a hot reload, which re-runs `register` and empties module
// variables, loses neither a run half-way nor the person's recorded words.
// compact-handoff-answer reads `run` (plugins may read each other's state;
// only the owner writes).
import { atom, read, update, type EngineInterface } from 'claude-code'
import { IDLE, stageTextOf, type Phase } from './run/run.js'
import { transition, type RunEvent, type Step } from './run/run-machine.js'
import { NUDGE_ARMED, type Nudge } from './thresholds/nudge.js'
import { NO_WORDS, type UserWords } from './words/user-words.js'
import { NO_HANDOFF, type LastHandoff } from './stub/swap-text.js'
import { NO_WORK, type WorkRecord } from './facts/work.js'
import { AUTO_HANDOFF_ARMED, type AutoHandoffWindow } from './thresholds/auto-handoff.js'
import type { ArmingTrigger } from './ask/ask.js'
import type { RunningShell } from './running/running.js'
import { NO_SKILLS, type InvokedSkills } from './carried/skills.js'
import type { CarriedPlan } from './carried/plan.js'
import type { CarriedWorktree } from './carried/worktree.js'
import { readStatusLine, tellStage } from './status-line/status-line-steps.js'


type $ = EngineInterface

const phaseAtom = atom({ plugin: 'compact-handoff', key: 'run' } as const, IDLE)
// The same value, written only by applyEvent with a compare-and-set.
const RUN_REF = { plugin: 'compact-handoff', key: 'run' } as const
const nudgeAtom = atom({ plugin: 'compact-handoff', key: 'nudge' } as const, NUDGE_ARMED)
const wordsAtom = atom({ plugin: 'compact-handoff', key: 'words' } as const, NO_WORDS)
const lastHandoffAtom = atom({ plugin: 'compact-handoff', key: 'lastHandoff' } as const, NO_HANDOFF)
const workAtom = atom({ plugin: 'compact-handoff', key: 'work' } as const, NO_WORK)
const shellsAtom = atom({ plugin: 'compact-handoff', key: 'shells' } as const, [] as readonly RunningShell[])
const skillsAtom = atom({ plugin: 'compact-handoff', key: 'skills' } as const, NO_SKILLS)
const loadedToolsAtom = atom({ plugin: 'compact-handoff', key: 'loadedTools' } as const, [] as readonly string[])
const planAtom = atom({ plugin: 'compact-handoff', key: 'plan' } as const, null as CarriedPlan | null)
const worktreeAtom = atom({ plugin: 'compact-handoff', key: 'worktree' } as const, null as CarriedWorktree | null)
const autoHandoffAtom = atom({ plugin: 'compact-handoff', key: 'autoHandoff' } as const, AUTO_HANDOFF_ARMED)
// Written at every session.start (a hot reload runs it again), and put back
// after /clear, which starts the session's state over with no session.start
// (seen live in an SDK session, 2.1.332). Never written reads as interactive:
// a `-p` or SDK session always raises session.start first.
const interactiveAtom = atom({ plugin: 'compact-handoff', key: 'interactive' } as const, true)

/** Option askAfterCompaction's question, armed by a compaction that was not our swap. */
export type AskFlag = { kind: 'none' } | { kind: 'pending'; trigger: ArmingTrigger }

const NO_ASK: AskFlag = { kind: 'none' }

const askAtom = atom({ plugin: 'compact-handoff', key: 'ask' } as const, NO_ASK)

function stageOf(phase: Phase): string | undefined {
  return phase.kind === 'idle' ? undefined : stageTextOf(phase)
}

/** Applies `event` to the phase found in the atom, in one compare-and-set: the
 * one way the run moves. The time, the phase and the status line are read
 * together (one engine hop, not three), and an event that leaves the phase as it was writes nothing.
 * The status line follows the stage, told to its one owner (status-line/).
 * The effects are the caller's to perform (run-steps.ts), with the phase the
 * event met before the stuck-run rule. */
export async function applyEvent($: $, event: RunEvent): Promise<{ step: Step; found: Phase }> {
  for (;;) {
    const [nowMs, held, statusLine] = await Promise.all([$.clock.now(), $.state.get(RUN_REF), readStatusLine($)])
    const found = held.value ?? IDLE
    const step = transition(found, event, nowMs)
    // A miss means another write landed since the read: the event is applied
    // again to the phase that stands now, never to this copy.
    if (step.phase !== found && !(await $.state.set(RUN_REF, step.phase, { ifVersion: held.version })).isSet) continue
    const stage = stageOf(step.phase)
    if (stage !== stageOf(found)) await tellStage($, stage, statusLine)
    return { step, found }
  }
}

// The engine lists what a module reads and writes by scanning each read/update
// for an atom declared in the same file, so every state access lives here, but
// the status line's, which its owner keeps beside its one writer (status-line/).

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

export function readLastHandoff($: $): Promise<LastHandoff> {
  return read($, lastHandoffAtom)
}

export async function setLastHandoff($: $, lastHandoff: LastHandoff): Promise<void> {
  await update($, lastHandoffAtom, () => lastHandoff)
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

export function readShells($: $): Promise<readonly RunningShell[]> {
  return read($, shellsAtom)
}

export async function updateShells($: $, change: (shells: readonly RunningShell[]) => readonly RunningShell[]): Promise<void> {
  await update($, shellsAtom, change)
}

export function readSkills($: $): Promise<InvokedSkills> {
  return read($, skillsAtom)
}

export async function updateSkills($: $, change: (skills: InvokedSkills) => InvokedSkills): Promise<void> {
  await update($, skillsAtom, change)
}

export function readLoadedTools($: $): Promise<readonly string[]> {
  return read($, loadedToolsAtom)
}

export async function updateLoadedTools($: $, change: (tools: readonly string[]) => readonly string[]): Promise<void> {
  await update($, loadedToolsAtom, change)
}

export function readPlan($: $): Promise<CarriedPlan | null> {
  return read($, planAtom)
}

export async function updatePlan($: $, change: (plan: CarriedPlan | null) => CarriedPlan | null): Promise<void> {
  await update($, planAtom, change)
}

export function readWorktree($: $): Promise<CarriedWorktree | null> {
  return read($, worktreeAtom)
}

export async function updateWorktree($: $, change: (worktree: CarriedWorktree | null) => CarriedWorktree | null): Promise<void> {
  await update($, worktreeAtom, change)
}

/** Spends this window's auto handoff; whether it was still armed (so two turn ends
 * racing each other start one run). */
export async function spendAutoHandoff($: $): Promise<boolean> {
  let wasArmed = false
  await update($, autoHandoffAtom, (window) => {
    wasArmed = window.kind === 'armed'
    return { kind: 'spent' as const }
  })
  return wasArmed
}

export function readAutoHandoff($: $): Promise<AutoHandoffWindow> {
  return read($, autoHandoffAtom)
}

export async function rearmAutoHandoff($: $): Promise<void> {
  await update($, autoHandoffAtom, () => AUTO_HANDOFF_ARMED)
}

/** Whether a person is at the prompt: plugin compaction is refused in a `-p`
 * or SDK session, so no swap can finish there. */
export function readInteractive($: $): Promise<boolean> {
  return read($, interactiveAtom)
}

export async function setInteractive($: $, isInteractive: boolean): Promise<void> {
  await update($, interactiveAtom, () => isInteractive)
}

/** Arms the question for the first main-loop tool call from now on. */
export async function armAsk($: $, trigger: ArmingTrigger): Promise<void> {
  const pending: AskFlag = { kind: 'pending', trigger }
  await update($, askAtom, () => pending)
}

/** Clears the flag and returns it as it was: the caller that gets 'pending'
 * back is the one call that asks, however many race for it. */
export async function takeAsk($: $): Promise<AskFlag> {
  let before: AskFlag = NO_ASK
  await update($, askAtom, (flag) => {
    before = flag
    return NO_ASK
  })
  return before
}
