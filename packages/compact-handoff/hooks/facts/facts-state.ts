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

// Whether a meter window may be open, so that a turn's end with none, the
// common case, reads nothing. A module variable: it starts raised (a hot
// reload empties it; `$.state` keeps the record), every write of an open
// window raises it as it goes out, and a read lowers it only when it found
// none with no such write gone out since (the engine takes a module's calls
// in order).
let mayBeWatching = true
let watchingWrites = 0

/** `change`, raising the flag for a write of an open window. */
function watched(change: (work: WorkRecord) => WorkRecord): (work: WorkRecord) => WorkRecord {
  return (work) => {
    const next = change(work)
    if (next.meter.kind === 'watching') {
      watchingWrites++
      mayBeWatching = true
    }
    return next
  }
}

/** The work record, or undefined, with no `$` call, once a read found no meter window open and none was written since. */
export async function readWorkIfWatching($: $): Promise<WorkRecord | undefined> {
  if (!mayBeWatching) return undefined
  const writesBefore = watchingWrites
  const work = await read($, workAtom)
  if (work.meter.kind !== 'watching' && writesBefore === watchingWrites) mayBeWatching = false
  return work
}

export async function readHeldWork($: $): Promise<Held<WorkRecord>> {
  return heldOf(await $.state.get(WORK_REF), NO_WORK)
}

export function changeHeldWork($: $, held: Held<WorkRecord>, change: (work: WorkRecord) => WorkRecord): Promise<void> {
  return changeHeld(held, watched(change), (work, ifVersion) => $.state.set(WORK_REF, work, { ifVersion }), () => updateWork($, change))
}

export function readWork($: $): Promise<WorkRecord> {
  return read($, workAtom)
}

/** Updates the work record; returns the record as it was before. */
export async function updateWork($: $, change: (work: WorkRecord) => WorkRecord): Promise<WorkRecord> {
  let before = NO_WORK
  await update(
    $,
    workAtom,
    watched((work) => {
      before = work
      return change(work)
    }),
  )
  return before
}
