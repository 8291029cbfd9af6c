// The handoff this session continues from, in `$.state` (swap-text.ts LastHandoff).
// The engine lists what a module reads and writes by scanning each read/update
// for an atom declared in the same file, so every access to these atoms lives
// here, beside the folder that owns them (types/index.d.ts spells their shapes).
import { atom, read, update, type EngineInterface } from 'claude-code'
import { NO_HANDOFF, type LastHandoff } from './swap-text.js'

type $ = EngineInterface

const lastHandoffAtom = atom({ plugin: 'compact-handoff', key: 'lastHandoff' } as const, NO_HANDOFF)

export function readLastHandoff($: $): Promise<LastHandoff> {
  return read($, lastHandoffAtom)
}

export async function setLastHandoff($: $, lastHandoff: LastHandoff): Promise<void> {
  await update($, lastHandoffAtom, () => lastHandoff)
}
