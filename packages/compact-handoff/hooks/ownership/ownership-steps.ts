// Every `$.store` access: the records of the handoff and plan files this
// person's sessions wrote (ownership.ts decides). The store is the mod's own
// file outside the project, so nothing in a repository can forge a record.
import type { EngineInterface } from 'claude-code'
import { classifyHandoffPath, inFolder } from '../protocol/protocol-paths.js'
import { frontmatterOf } from '../format/frontmatter.js'
import { MAX_HANDOFF_BYTES } from '../protocol/protocol-contents.js'
import { fingerprintOf, holdsRecord, isOwnAfter, isRecordable, ownershipKeyOf, ownershipOf, recordHandoffStatusOf, recordsOf, withRecord, withUse, withinBudget, type MainLoopWrite, type OwnRecord, type Ownership } from './ownership.js'

type $ = EngineInterface

const STORE_KEY = 'ownedFiles'

// The store has no versioned update, and two writes can land together (the
// model may write the handoff and the plan in one turn's parallel calls): each
// read-modify-write of the records waits for the one before it, so none is lost.
let recordsTurn: Promise<unknown> = Promise.resolve()

function afterEarlierChanges<T>(change: () => Promise<T>): Promise<T> {
  const done = recordsTurn.then(change, change)
  recordsTurn = done.catch(() => undefined)
  return done
}

/** Sets the records to `change` of the list read right before the set, and
 * reads them again: another session (another process, which this one's queue
 * cannot order) that set the list from an older read has dropped the change,
 * which is then merged once more into what that session left. The store has
 * no compare-and-set, so this narrows the race to two sets within one hop of
 * each other; it cannot close it. */
async function changeRecords($: $, change: (records: readonly OwnRecord[]) => OwnRecord[], isIn: (records: readonly OwnRecord[]) => boolean): Promise<void> {
  await afterEarlierChanges(async () => {
    for (let tries = 0; tries < 2; tries++) {
      const records = await readOwnRecords($)
      if (isIn(records)) return
      await $.store.set(STORE_KEY, change(records))
    }
  })
}

export async function readOwnRecords($: $): Promise<OwnRecord[]> {
  return recordsOf(await $.store.get(STORE_KEY))
}

/** The stored records set again bounded and within their budget: what an
 * earlier version stored (a status kept whole, no byte budget) may fill the
 * store, which then refuses every set; this gives the room back. */
export async function trimOwnRecords($: $): Promise<void> {
  await afterEarlierChanges(async () => $.store.set(STORE_KEY, withinBudget(await readOwnRecords($))))
}

/** Records `text` as what this person's session wrote to `relPath`. The step
 * the mod calls for a file it writes itself; a Write/Edit the main loop made
 * comes here through recordWrittenFile. */
export async function recordOwnFile($: $, cwd: string, relPath: string, text: string): Promise<void> {
  const [{ sha256, bytes }, nowMs] = await Promise.all([fingerprintOf(text), $.clock.now()])
  const status = recordHandoffStatusOf(frontmatterOf(text)?.get('status'))
  const record: OwnRecord = { key: ownershipKeyOf(cwd, relPath), path: inFolder(cwd, relPath), sha256, bytes, writtenAtMs: nowMs, ...(status !== undefined ? { status } : {}) }
  if (!isRecordable(record)) throw new Error(`its path is longer than a record keeps`)
  await changeRecords($, (records) => withRecord(records, record), (records) => holdsRecord(records, record))
}

/** After a main-loop Write/Edit of a path mayBeHandoffPath let through: the
 * file as it now is becomes a record when the write makes it the person's own
 * (ownership.ts isOwnAfter). A file over the cap is never swapped or resumed,
 * so it is not recorded either. */
export async function recordWrittenFile($: $, filePath: string, write: MainLoopWrite): Promise<void> {
  try {
    const cwd = await $.session.cwd()
    const file = classifyHandoffPath(filePath, cwd)
    if (file === undefined) return
    const before = write.tool === 'Edit' && write.originalFile !== null ? await ownershipOnDisk($, cwd, file.relPath, write.originalFile) : undefined
    if (!isOwnAfter(write, before)) return
    const path = inFolder(cwd, file.relPath)
    const stat = await $.fs.stat(path)
    if (stat.kind !== 'file' || stat.size > MAX_HANDOFF_BYTES) return
    const text = await $.fs.read(path)
    await recordOwnFile($, cwd, file.relPath, text)
  } catch (error) {
    // A record that cannot be kept costs the person only a question at resume.
    $.ui.log(`could not record ${filePath} as written here (${error instanceof Error ? error.message : String(error)})`, { to: 'debug' })
  }
}

/** Whether `text`, read from `relPath` now, is the person's own. */
export async function ownershipOnDisk($: $, cwd: string, relPath: string, text: string): Promise<Ownership> {
  const [{ sha256 }, records] = await Promise.all([fingerprintOf(text), readOwnRecords($)])
  return ownershipOf(records, ownershipKeyOf(cwd, relPath), sha256)
}

/** A handoff swapped in or resumed: the start offer never names it again. */
export async function markUsed($: $, cwd: string, relPath: string): Promise<void> {
  const key = ownershipKeyOf(cwd, relPath)
  const nowMs = await $.clock.now()
  const isMarked = (records: readonly OwnRecord[]): boolean => !records.some((r) => r.key === key && r.usedAtMs === undefined)
  // A file with no record has nothing to mark: isMarked holds, nothing is set.
  await changeRecords($, (records) => withUse(records, key, nowMs), isMarked)
}
