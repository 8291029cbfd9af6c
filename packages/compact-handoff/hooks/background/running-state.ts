// Main-loop shells moved to the background and not yet seen ended, in `$.state`.
// The engine lists what a module reads and writes by scanning each read/update
// for an atom declared in the same file, so every access to these atoms lives
// here, beside the folder that owns them (types/index.d.ts spells their shapes).
import { atom, read, update, type EngineInterface } from 'claude-code'
import type { RunningShell } from './running.js'

type $ = EngineInterface

const shellsAtom = atom({ plugin: 'compact-handoff', key: 'shells' } as const, [] as readonly RunningShell[])

export function readShells($: $): Promise<readonly RunningShell[]> {
  return read($, shellsAtom)
}

export async function updateShells($: $, change: (shells: readonly RunningShell[]) => readonly RunningShell[]): Promise<void> {
  await update($, shellsAtom, change)
}
