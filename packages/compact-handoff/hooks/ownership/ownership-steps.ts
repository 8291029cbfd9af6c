// Every `$.store` access for the ownership records (ownership.ts decides). The
// store is outside the project, so nothing in a repository can forge a record.
// The store merges sets of different keys from any number of sessions and
// loses one of two read-modify-writes of one key (mods-api.md §17, §18), so a
// record is only ever set whole under its own file's key.
import type { EngineInterface } from 'claude-code'
import { classifyHandoffPath, inFolder } from '../protocol/protocol-paths.js'
import { frontmatterOf } from '../format/frontmatter.js'
import { MAX_HANDOFF_BYTES } from '../protocol/protocol-contents.js'
import {
  MAX_OWN_RECORDS,
  MAX_RECORD_CHARS,
  OWN_RECORDS_BUDGET_CHARS,
  RECORD_KEY_PREFIX,
  fingerprintOf,
  isOwnAfter,
  isRecordable,
  ownershipKeyOf,
  ownershipOf,
  recordHandoffStatusOf,
  recordKeysToDrop,
  recordStoreKeyOf,
  standsOver,
  storedRecordOf,
  type MainLoopWrite,
  type OwnRecord,
  type Ownership,
} from './ownership.js'
import { messageOf } from '../text/text-clip.js'

type $ = EngineInterface

// This session's record changes (parallel Write calls, a swap's mark) wait for
// the one before, so none sets a record from a read older than another's set.
let recordsTurn: Promise<unknown> = Promise.resolve()

function afterEarlierChanges<T>(change: () => Promise<T>): Promise<T> {
  const done = recordsTurn.then(change, change)
  recordsTurn = done.catch(() => undefined)
  return done
}

async function storedRecordAt($: $, key: string): Promise<OwnRecord | undefined> {
  const storeKey = await recordStoreKeyOf(key)
  return storedRecordOf(storeKey, await $.store.get(storeKey))
}

/** What is kept under each record key among `storeKeys`: undefined for a value out of shape. */
async function storedRecordsAt($: $, storeKeys: readonly string[]): Promise<{ storeKey: string; record: OwnRecord | undefined }[]> {
  const stored: { storeKey: string; record: OwnRecord | undefined }[] = []
  for (const storeKey of storeKeys) {
    if (storeKey.startsWith(RECORD_KEY_PREFIX)) stored.push({ storeKey, record: await storedRecordOf(storeKey, await $.store.get(storeKey)) })
  }
  return stored
}

/** Oldest written first. */
export async function readOwnRecords($: $): Promise<OwnRecord[]> {
  const stored = await storedRecordsAt($, await $.store.keys())
  return stored.flatMap((s) => (s.record !== undefined ? [s.record] : [])).sort((a, b) => a.writtenAtMs - b.writtenAtMs)
}

/** The oldest records deleted until the rest fit the budget (a value out of
 * shape goes too); read only when their count could pass it. */
async function dropOverBudget($: $, storeKeys: readonly string[]): Promise<void> {
  const count = storeKeys.filter((k) => k.startsWith(RECORD_KEY_PREFIX)).length
  if (count <= MAX_OWN_RECORDS && count * MAX_RECORD_CHARS <= OWN_RECORDS_BUDGET_CHARS) return
  const stored = await storedRecordsAt($, storeKeys)
  const junk = stored.filter((s) => s.record === undefined).map((s) => s.storeKey)
  const kept = stored.flatMap((s) => (s.record !== undefined ? [{ storeKey: s.storeKey, record: s.record }] : []))
  for (const storeKey of [...junk, ...recordKeysToDrop(kept)]) await $.store.delete(storeKey)
}

/** Sets `record` under its file's key unless the record there stands over it
 * (another session wrote the file since); then the budget. */
async function setRecord($: $, record: OwnRecord): Promise<void> {
  await afterEarlierChanges(async () => {
    const [keys, storeKey, found] = await Promise.all([$.store.keys(), recordStoreKeyOf(record.key), storedRecordAt($, record.key)])
    if (found !== undefined && standsOver(found, record)) return
    await $.store.set(storeKey, record)
    // Listed before the set: a key another session set since waits for the next check.
    await dropOverBudget($, keys.includes(storeKey) ? keys : [...keys, storeKey])
  })
}

export async function recordOwnFile($: $, cwd: string, relPath: string, text: string): Promise<void> {
  const [{ sha256, bytes }, nowMs] = await Promise.all([fingerprintOf(text), $.clock.now()])
  const status = recordHandoffStatusOf(frontmatterOf(text)?.get('status'))
  const key = ownershipKeyOf(cwd, relPath)
  if (key === undefined) throw new Error(`it is not a handoff or plan file of this project`)
  const record: OwnRecord = { key, path: inFolder(cwd, relPath), sha256, bytes, writtenAtMs: nowMs, ...(status !== undefined ? { status } : {}) }
  if (!isRecordable(record)) throw new Error(`its path is longer than a record keeps`)
  await setRecord($, record)
}

/** After a main-loop Write/Edit: the file as it now is becomes a record when
 * the write makes it the person's own (isOwnAfter). A file over the cap is
 * never swapped or resumed, so it is not recorded either. */
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
    $.ui.log(`could not record ${filePath} as written here (${messageOf(error)})`, { to: 'debug' })
  }
}

export async function ownershipOnDisk($: $, cwd: string, relPath: string, text: string): Promise<Ownership> {
  const key = ownershipKeyOf(cwd, relPath)
  // A file that has no key can have no record.
  if (key === undefined) return 'not-written-here'
  const [{ sha256 }, record] = await Promise.all([fingerprintOf(text), storedRecordAt($, key)])
  return ownershipOf(record, sha256)
}

/** A handoff swapped in or resumed: the start offer never names it again. */
export async function markUsed($: $, cwd: string, relPath: string): Promise<void> {
  const key = ownershipKeyOf(cwd, relPath)
  if (key === undefined) return
  const nowMs = await $.clock.now()
  await afterEarlierChanges(async () => {
    const record = await storedRecordAt($, key)
    // A file with no record has nothing to mark.
    if (record === undefined || record.usedAtMs !== undefined) return
    await $.store.set(await recordStoreKeyOf(key), { ...record, usedAtMs: nowMs })
  })
}
