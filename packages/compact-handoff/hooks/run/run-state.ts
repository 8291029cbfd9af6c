// The run's phase and whether a person is at the prompt, in `$.state`, so a
// hot reload (which empties module variables) does not lose a run half-way.
// compact-handoff-answer reads `run`. The engine lists a module's reads and
// writes from the atoms declared in the same file, so every access lives here.
import { atom, read, update, type EngineInterface } from 'claude-code'
import { IDLE, stageTextOf, type Phase } from './run.js'
import { transition, type RunEvent, type Step } from './run-machine.js'
import { readStatusLine, tellStage } from '../status-line/status-line-steps.js'

type $ = EngineInterface

const phaseAtom = atom({ plugin: 'compact-handoff', key: 'run' } as const, IDLE)
// The same value, written only by applyEvent with a compare-and-set.
const RUN_REF = { plugin: 'compact-handoff', key: 'run' } as const
// Written at every session.start (a hot reload runs it again), and put back
// after /clear, which starts the session's state over with no session.start
// (seen live in an SDK session, 2.1.332). Never written reads as interactive:
// a `-p` or SDK session always raises session.start first.
const interactiveAtom = atom({ plugin: 'compact-handoff', key: 'interactive' } as const, true)

// Whether a run may be under way: raised by every write of a phase that is a
// run (applyEvent is the one writer), lowered once a read of the phase found
// it idle with no write begun since the read or still in flight. A module
// variable: it starts raised, so losing it (a hot reload) costs one read.
// While it is down, a typed prompt, a Write and a turn's end need no read of
// the phase: with no run there is nothing for them to move.
let mayBeUnderway = true
let phaseWrites = 0
let phaseWritesInFlight = 0

export function isRunPossible(): boolean {
  return mayBeUnderway
}

function stageOf(phase: Phase): string | undefined {
  return phase.kind === 'idle' ? undefined : stageTextOf(phase)
}

/** Applies `event` to the phase found in the atom, in one compare-and-set: the
 * one way the run moves. The time, the phase and the status line are read in
 * one engine hop, and an event that leaves the phase as it was writes nothing.
 * The effects are the caller's to perform, with the phase the event met before
 * the stuck-run rule. */
export async function applyEvent($: $, event: RunEvent): Promise<{ step: Step; found: Phase }> {
  for (;;) {
    const writesBefore = phaseWrites
    const [nowMs, held, statusLine] = await Promise.all([$.clock.now(), $.state.get(RUN_REF), readStatusLine($)])
    const found = held.value ?? IDLE
    const step = transition(found, event, nowMs)
    if (step.phase !== found) {
      phaseWrites++
      if (step.phase.kind !== 'idle') mayBeUnderway = true
      // A miss means another write landed since the read: the event is applied
      // again to the phase that stands now, never to this copy.
      phaseWritesInFlight++
      let isSet: boolean
      try {
        isSet = (await $.state.set(RUN_REF, step.phase, { ifVersion: held.version })).isSet
      } finally {
        phaseWritesInFlight--
      }
      if (!isSet) continue
    } else if (found.kind === 'idle' && writesBefore === phaseWrites && phaseWritesInFlight === 0) mayBeUnderway = false
    const stage = stageOf(step.phase)
    if (stage !== stageOf(found)) await tellStage($, stage, statusLine)
    return { step, found }
  }
}

// Whether a fork is writing the handoff that answers a compaction right now:
// the fork sets the session's last handoff only once it is done, so a run
// launched meanwhile would read the one before and start a second chain.
// A module variable: a hot reload starts it over (then the old copy's fork is not waited for).
let forksAnswering = 0

/** Runs `fork` (the whole answer, the last handoff set included), counted. */
export async function whileForkAnswers<T>(fork: () => Promise<T>): Promise<T> {
  forksAnswering++
  try {
    return await fork()
  } finally {
    forksAnswering--
  }
}

export function isForkAnswering(): boolean {
  return forksAnswering > 0
}

export function readPhase($: $): Promise<Phase> {
  return read($, phaseAtom)
}

/** Plugin compaction is refused in a `-p` or SDK session: no swap can finish there. */
export function readInteractive($: $): Promise<boolean> {
  return read($, interactiveAtom)
}

export async function setInteractive($: $, isInteractive: boolean): Promise<void> {
  await update($, interactiveAtom, () => isInteractive)
}
