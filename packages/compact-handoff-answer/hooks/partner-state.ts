// Reads compact-handoff's session state (declared as a read-only view in
// ../types/index.d.ts). Any plugin reads any value; compact-handoff alone writes
// these. The engine lists what a module reads by scanning each read for an atom
// declared in the same file, so every access to compact-handoff's state lives here.
import { atom, read, type EngineInterface } from 'claude-code'
import type { RunView } from './route.js'
import type { PartnerView } from './foreign-instructions.js'
import { shownFactsOf } from './facts.js'

type $ = EngineInterface

// The initials stand in when compact-handoff never wrote a key (not installed,
// or nothing happened yet): no run, no words, no swap, no facts.
const runAtom = atom({ plugin: 'compact-handoff', key: 'run' } as const, { kind: 'idle' })
const wordsAtom = atom({ plugin: 'compact-handoff', key: 'words' } as const, { messages: [], dropped: 0 })
const lastSwapAtom = atom({ plugin: 'compact-handoff', key: 'lastSwap' } as const, { kind: 'none' })
const workAtom = atom({ plugin: 'compact-handoff', key: 'work' } as const, { facts: { changed: [], read: [], commands: [] } })

export function readRun($: $): Promise<RunView> {
  return read($, runAtom)
}

/** compact-handoff's state as a summary's instructions use it: the facts'
 * paths relative to the session folder, as compact-handoff's stub shows them. */
export async function readPartnerView($: $): Promise<PartnerView> {
  const [words, lastSwap, work, cwd] = await Promise.all([read($, wordsAtom), read($, lastSwapAtom), read($, workAtom), $.session.cwd()])
  return { words, lastSwap, facts: shownFactsOf(work.facts, cwd) }
}
