// Per context window, in `$.state`: whether the nudge spoke, whether the
// auto handoff was used, and whether a request was refused as too long. A new
// window rearms them all (window-steps.ts).
// The engine lists what a module reads and writes by scanning each read/update
// for an atom declared in the same file, so every access to these atoms lives
// here, beside the folder that owns them (types/index.d.ts spells their shapes).
import { atom, read, update, type EngineInterface } from 'claude-code'
import { NUDGE_ARMED, type Nudge } from './nudge.js'
import { AUTO_HANDOFF_ARMED, type AutoHandoffWindow } from './auto-handoff.js'
import { UNREFUSED, type WindowEdge } from './window-edge.js'

type $ = EngineInterface

const nudgeAtom = atom({ plugin: 'compact-handoff', key: 'nudge' } as const, NUDGE_ARMED)
const autoHandoffAtom = atom({ plugin: 'compact-handoff', key: 'autoHandoff' } as const, AUTO_HANDOFF_ARMED)
const windowEdgeAtom = atom({ plugin: 'compact-handoff', key: 'windowEdge' } as const, UNREFUSED)

export function readNudge($: $): Promise<Nudge> {
  return read($, nudgeAtom)
}

export async function setNudge($: $, nudge: Nudge): Promise<void> {
  await update($, nudgeAtom, () => nudge)
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

export function readWindowEdge($: $): Promise<WindowEdge> {
  return read($, windowEdgeAtom)
}

export async function setWindowEdge($: $, edge: WindowEdge): Promise<void> {
  await update($, windowEdgeAtom, () => edge)
}
