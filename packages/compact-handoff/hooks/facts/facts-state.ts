// The work record (the work's facts and the meter, written together by one
// update per tool call) in `$.state` (work.ts WorkRecord).
// The engine lists what a module reads and writes by scanning each read/update
// for an atom declared in the same file, so every access to these atoms lives
// here, beside the folder that owns them (types/index.d.ts spells their shapes).
import { atom, read, update, type EngineInterface } from 'claude-code'
import { NO_WORK, type WorkRecord } from './work.js'
import { changeHeld, heldOf, type Held } from '../state/held.js'

type $ = EngineInterface

const workAtom = atom({ plugin: 'compact-handoff', key: 'work' } as const, NO_WORK)
// The same value, read with its version beside the held records' masking and
// written back with a compare-and-set (state/record-queue.ts).
const WORK_REF = { plugin: 'compact-handoff', key: 'work' } as const

export async function readHeldWork($: $): Promise<Held<WorkRecord>> {
  return heldOf(await $.state.get(WORK_REF), NO_WORK)
}

export function changeHeldWork($: $, held: Held<WorkRecord>, change: (work: WorkRecord) => WorkRecord): Promise<void> {
  return changeHeld(held, change, (work, ifVersion) => $.state.set(WORK_REF, work, { ifVersion }), () => updateWork($, change))
}

export function readWork($: $): Promise<WorkRecord> {
  return read($, workAtom)
}

/** Updates the work record; returns the record as it was before. */
export async function updateWork($: $, change: (work: WorkRecord) => WorkRecord): Promise<WorkRecord> {
  let before = NO_WORK
  await update($, workAtom, (work) => {
    before = work
    return change(work)
  })
  return before
}
