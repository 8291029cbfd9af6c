// Every `$.store` access: the records of the handoff and plan files this
// person's sessions wrote (ownership.ts decides). The store is the mod's own
// file outside the project, so nothing in a repository can forge a record.
import type { EngineInterface } from 'claude-code'
import { classifyHandoffPath, inFolder } from '../protocol/protocol-paths.js'
import { frontmatterOf } from '../format/frontmatter.js'
import { MAX_HANDOFF_BYTES } from '../protocol/protocol-contents.js'
import { fingerprintOf, isOwnAfter, ownershipKeyOf, ownershipOf, recordsOf, withRecord, withUse, type MainLoopWrite, type OwnRecord, type Ownership } from './ownership.js'

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

export async function readOwnRecords($: $): Promise<OwnRecord[]> {
  return recordsOf(await $.store.get(STORE_KEY))
}

/** Records `text` as what this person's session wrote to `relPath`. The step
 * the mod calls for a file it writes itself; a Write/Edit the main loop made
 * comes here through recordWrittenFile. */
export async function recordOwnFile($: $, cwd: string, relPath: string, text: string): Promise<void> {
  const [{ sha256, bytes }, nowMs] = await Promise.all([fingerprintOf(text), $.clock.now()])
  const status = frontmatterOf(text)?.get('status')
  const record: OwnRecord = { key: ownershipKeyOf(cwd, relPath), path: inFolder(cwd, relPath), sha256, bytes, writtenAtMs: nowMs, ...(status !== undefined ? { status } : {}) }
  await afterEarlierChanges(async () => $.store.set(STORE_KEY, withRecord(await readOwnRecords($), record)))
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
  await afterEarlierChanges(async () => {
    const records = await readOwnRecords($)
    if (records.some((r) => r.key === key)) await $.store.set(STORE_KEY, withUse(records, key, nowMs))
  })
}
