// A handoff run as one explicit state machine. The phase lives in `$.state`
// (see ../types/index.d.ts) so a hot reload, which re-runs `register` and
// empties module variables, does not lose a run half-way. Pure: the wiring
// reads the phase, asks these functions what comes next, and writes it back.
import type { HandoffPath, Mode } from './protocol.js'

/** Past this, a run still not finished is stale: the next command clears it. */
export const STALE_RUN_MS = 30 * 60 * 1000

export type Run = {
  /** Timers carry it, so one that fires after a cancel or a newer run finds nothing to do. */
  id: string
  mode: Mode
  focus: string
  /** From `$.clock.now()`, awaited. */
  startedAtMs: number
  /** The session's folder when the run started; handoff paths are relative to it. */
  cwd: string
  /** Handoff and plan files the skill's turn wrote (successful main-loop Write/Edit). */
  files: HandoffPath[]
  /** `now` swaps as soon as the checks pass; `review` stops there for /compact-handoff apply. */
  apply: 'now' | 'review'
  /** Prompts the person typed while the run was under way, held for the continue-prompt. */
  held: string[]
  /** Context use when the run started, for the swap log; null when unknown. */
  contextPercentBefore: number | null
}

/** What the checks settled on, and what the swap will install. */
export type Swap = {
  handoff: string
  plan?: string
  /** From the skill's block, or the fallback; held prompts are added when it is sent. */
  continuePrompt: string
  /** Compaction attempts refused so far. */
  refusals: number
}

export type Phase =
  | { kind: 'idle' }
  /** Started; a timer is about to run the skill (never from the command hook: refused there). */
  | { kind: 'launching'; run: Run }
  /** The skill's turn is running; its handoff writes are recorded. */
  | { kind: 'writing'; run: Run; skillCommand: string }
  /** The skill's turn ended; the sentinel and the files are being checked. */
  | { kind: 'checking'; run: Run }
  /** Checked, and stopped for the person to review and edit the files. */
  | { kind: 'reviewed'; run: Run; swap: Swap }
  /** Checked; the go-command is queued and the compaction is being applied. */
  | { kind: 'swapping'; run: Run; swap: Swap }

export const IDLE: Phase = { kind: 'idle' }

export type Stage = Exclude<Phase['kind'], 'idle'>

export const STAGE_TEXT: Readonly<Record<Stage, string>> = {
  launching: 'starting the handoff skill',
  writing: 'the handoff skill is writing',
  checking: 'checking the handoff files',
  reviewed: 'waiting for /compact-handoff apply',
  swapping: 'replacing the conversation',
}

export function runOf(phase: Phase): Run | undefined {
  return phase.kind === 'idle' ? undefined : phase.run
}

/** Whether `phase` still belongs to run `id` at `stage`: what every timer and
 * late hook asks before it acts, since a cancel may have come in between. */
export function isAt<S extends Stage>(phase: Phase, stage: S, id: string): phase is Extract<Phase, { kind: S }> {
  return phase.kind === stage && phase.run.id === id
}

export function isStale(phase: Phase, nowMs: number): boolean {
  const run = runOf(phase)
  return run !== undefined && nowMs - run.startedAtMs > STALE_RUN_MS
}

/** The phase after a successful handoff write was seen during the skill's turn. */
export function withFileRecorded(phase: Phase, file: HandoffPath): Phase {
  if (phase.kind !== 'writing') return phase
  const isKnown = phase.run.files.some((f) => f.relPath === file.relPath)
  if (isKnown) return phase
  return { ...phase, run: { ...phase.run, files: [...phase.run.files, file] } }
}

/** Whether a prompt the person types now must be held rather than run: from the
 * start of a run until its continue-prompt is sent, a prompt would be answered
 * and then erased by the swap (seen live in 2.1.332). A reviewed run waits for
 * the person, who may talk to Claude meanwhile. */
export function isHoldingPrompts(phase: Phase): boolean {
  return phase.kind !== 'idle' && phase.kind !== 'reviewed'
}

export function withHeld(phase: Phase, text: string): Phase {
  if (phase.kind === 'idle') return phase
  return { ...phase, run: { ...phase.run, held: [...phase.run.held, text] } }
}

export function withRefusal(phase: Phase): Phase {
  if (phase.kind !== 'swapping') return phase
  return { ...phase, swap: { ...phase.swap, refusals: phase.swap.refusals + 1 } }
}
