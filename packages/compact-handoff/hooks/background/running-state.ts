// Main-loop shells moved to the background and not yet seen ended, in `$.state`.
// The engine lists what a module reads and writes by scanning each read/update
// for an atom declared in the same file, so every access to these atoms lives
// here, beside the folder that owns them (types/index.d.ts spells their shapes).
import { atom, read, update, type EngineInterface } from 'claude-code'
import type { RunningShell } from './running.js'

type $ = EngineInterface

const shellsAtom = atom({ plugin: 'compact-handoff', key: 'shells' } as const, [] as readonly RunningShell[])

// Whether a shell may stand recorded, so that a turn's end with none, the
// common case, reads nothing. A module variable: losing it costs one read, as
// it starts true (a hot reload empties it; `$.state` keeps the shells), and
// every write raises it again before it lands.
let mayHoldShells = true
let shellWrites = 0

export function readShells($: $): Promise<readonly RunningShell[]> {
  return read($, shellsAtom)
}

/** The recorded shells; none, without a read, once a read found none and no
 * write came since. */
export async function readShellsIfAny($: $): Promise<readonly RunningShell[]> {
  if (!mayHoldShells) return []
  const writesBefore = shellWrites
  const shells = await read($, shellsAtom)
  // A write begun while this read was in flight keeps the flag up.
  if (shells.length === 0 && writesBefore === shellWrites) mayHoldShells = false
  return shells
}

export async function updateShells($: $, change: (shells: readonly RunningShell[]) => readonly RunningShell[]): Promise<void> {
  shellWrites++
  mayHoldShells = true
  await update($, shellsAtom, change)
}
