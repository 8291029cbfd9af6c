// The work record (the work's facts and the meter, written together by one
// update per tool call) in `$.state` (work.ts WorkRecord).
// The engine lists what a module reads and writes by scanning each read/update
// for an atom declared in the same file, so every access to these atoms lives
// here, beside the folder that owns them (types/index.d.ts spells their shapes).
import { atom, read, update, type EngineInterface } from 'claude-code'
import { NO_WORK, type WorkRecord } from './work.js'

type $ = EngineInterface

const workAtom = atom({ plugin: 'compact-handoff', key: 'work' } as const, NO_WORK)
// The same value, read with its version beside another engine call and written
// back with a compare-and-set (a record of every tool call: one hop for the read and
// the masking together, not two).
const WORK_REF = { plugin: 'compact-handoff', key: 'work' } as const

/** The work record as read, with the version a write back must meet. */
export type HeldWork = { work: WorkRecord; version: number }

export async function readHeldWork($: $): Promise<HeldWork> {
  const held = await $.state.get(WORK_REF)
  return { work: held.value ?? NO_WORK, version: held.version }
}

/** Writes `change` of the record as read; a change that keeps it as it was
 * writes nothing. A miss means another write landed since the read: the change
 * is applied again to the record that stands now, never to this copy. */
export async function changeHeldWork($: $, held: HeldWork, change: (work: WorkRecord) => WorkRecord): Promise<void> {
  const work = change(held.work)
  if (work === held.work) return
  if (!(await $.state.set(WORK_REF, work, { ifVersion: held.version })).isSet) await updateWork($, change)
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
