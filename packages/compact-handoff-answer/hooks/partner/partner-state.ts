// Reads compact-handoff's run (declared as a read-only view in
// ../types/index.d.ts). Any plugin reads any value; compact-handoff alone writes
// it. The engine lists what a module reads by scanning each read for an atom
// declared in the same file, so every access to compact-handoff's state lives here.
import { atom, read, type EngineInterface } from 'claude-code'
import type { RunView } from './run-view.js'

type $ = EngineInterface

// The initial stands in when compact-handoff never wrote the key (not
// installed, or nothing happened yet): no run.
const runAtom = atom({ plugin: 'compact-handoff', key: 'run' } as const, { kind: 'idle' })

export function readRun($: $): Promise<RunView> {
  return read($, runAtom)
}
