// What this mod keeps in the session (`$.state`, declared in ../types/index.d.ts):
// session-scoped, so a hot reload, which re-runs `register` and empties module
// variables, loses neither a run half-way nor the person's recorded words.
// compact-handoff-answer reads `run`, `words` and `lastSwap` (plugins may read
// each other's state; only the owner writes).
import { atom, read, update, type EngineInterface } from 'claude-code'
import { IDLE, STAGE_TEXT, isAt, type Phase, type Stage } from './run.js'
import { ARMED, type Nudge } from './nudge.js'
import { NO_WORDS, type UserWords } from './user-words.js'
import { NO_SWAP, type LastSwap } from './swap-text.js'

type $ = EngineInterface

const phaseAtom = atom({ plugin: 'compact-handoff', key: 'run' } as const, IDLE)
const nudgeAtom = atom({ plugin: 'compact-handoff', key: 'nudge' } as const, ARMED)
const wordsAtom = atom({ plugin: 'compact-handoff', key: 'words' } as const, NO_WORDS)
const lastSwapAtom = atom({ plugin: 'compact-handoff', key: 'lastSwap' } as const, NO_SWAP)

function showStage($: $, phase: Phase): void {
  $.ui.status(phase.kind === 'idle' ? undefined : `handoff: ${STAGE_TEXT[phase.kind]}`)
}

export async function setPhase($: $, phase: Phase): Promise<void> {
  await update($, phaseAtom, () => phase)
  showStage($, phase)
}

/** Moves run `id` from `from` to `next` only while it is still at `from`, in one
 * compare-and-set: a queued `/compact-handoff cancel` typed during the skill's
 * turn runs right as that turn ends, while the checks are under way, and a plain
 * write here would overwrite its idle phase and swap anyway. Whether it moved. */
export async function advance($: $, id: string, from: Stage, next: Phase): Promise<boolean> {
  let moved = false
  await update($, phaseAtom, (p) => {
    moved = isAt(p, from, id)
    return moved ? next : p
  })
  if (moved) showStage($, next)
  return moved
}

// The engine lists what a module reads and writes by scanning each read/update
// for an atom declared in the same file, so every state access lives here.

export function readPhase($: $): Promise<Phase> {
  return read($, phaseAtom)
}

export async function updatePhase($: $, change: (phase: Phase) => Phase): Promise<void> {
  await update($, phaseAtom, change)
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

export async function setLastSwap($: $, lastSwap: LastSwap): Promise<void> {
  await update($, lastSwapAtom, () => lastSwap)
}
