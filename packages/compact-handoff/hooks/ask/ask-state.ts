// Option askAfterCompaction's flag, in `$.state` (ask.ts decides).
// The engine lists what a module reads and writes by scanning each read/update
// for an atom declared in the same file, so every access to these atoms lives
// here, beside the folder that owns them (types/index.d.ts spells their shapes).
import { atom, update, type EngineInterface } from 'claude-code'
import type { ArmingTrigger } from './ask.js'

type $ = EngineInterface

/** Option askAfterCompaction's question, armed by a compaction that was not our swap. */
export type AskFlag = { kind: 'none' } | { kind: 'pending'; trigger: ArmingTrigger }

const NO_ASK: AskFlag = { kind: 'none' }

const askAtom = atom({ plugin: 'compact-handoff', key: 'ask' } as const, NO_ASK)

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
