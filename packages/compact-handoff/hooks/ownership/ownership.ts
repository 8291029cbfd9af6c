// Which handoff and plan files are the person's own: a record of each one this
// person's sessions wrote (seen written by the main loop's Write/Edit, or
// written by the mod), with a fingerprint of what was written. A file is own
// only while a record matches it: git's "untracked" is no proof (a submodule,
// a repository git refuses to read, a missing git, an unpacked archive all
// look untracked). Pure: ownership-steps.ts keeps the records in `$.store`.
import { classifyHandoffPath, inFolder } from '../protocol/protocol-paths.js'
import { HANDOFF_STATUSES } from '../protocol/protocol-contents.js'
import { sha256HexOf, storeKeyOf } from '../text/store-key.js'

/** One `$.store` key per file's record, named by the digest of its key: two
 * sessions setting records at once set different keys, which the store
 * merges; one list read, changed and set back whole by each lost one of them
 * now and then (seen live: 29 of 30 records kept). */
export const RECORD_KEY_PREFIX = 'owned:'

/** Records kept, the oldest written dropped first; ~200 bytes each. */
export const MAX_OWN_RECORDS = 500
/** The JSON text all records may take together, keys included: the store
 * refuses every set once it would pass 4 MiB (the engine's limit), and what
 * the records leave is the held messages' room (held-messages.ts). */
export const OWN_RECORDS_BUDGET_CHARS = 512 * 1024
/** A file whose path is longer than this is never recorded (it stays "not
 * written here", which costs a question at resume): with it one record is at
 * most ~8.5 KB, so the budget holds sixty of the largest. */
export const MAX_RECORD_PATH_CHARS = 4096
/** The most one record takes in the store, its key included (two paths at
 * their cap and the rest): a larger one is never recorded. Below
 * OWN_RECORDS_BUDGET_CHARS / MAX_RECORD_CHARS records the budget cannot be
 * reached, so nothing needs reading to know that nothing is dropped. */
export const MAX_RECORD_CHARS = 9 * 1024

export type OwnRecord = {
  /** ownershipKeyOf the file: the one spelling records are matched by. */
  key: string
  /** The absolute path as written, for finding a project's records again. */
  path: string
  sha256: string
  bytes: number
  writtenAtMs: number
  /** The frontmatter's status when it was written, one of HANDOFF_STATUSES
   * (any other value is left out), so the offer can choose without reading
   * files that will not be offered. */
  status?: string
  /** When it was swapped in or resumed: the start offer never names it again. */
  usedAtMs?: number
}

/** A drive letter at the start of a key (`c:/`): Windows ignores its case. */
const KEY_DRIVE_RE = /^[a-z](?=:\/)/

/** The key a file's record is kept under: the one place that decides which
 * spellings of a path are the same file (project-relative or absolute, `\\`
 * or `/`, the drive letter in either case: one engine reports `c:\…` where
 * another reports `C:\…`). A path that is not a handoff or plan file of this
 * project has no key, so it never matches a record of a file inside. */
export function ownershipKeyOf(cwd: string, path: string): string | undefined {
  const file = classifyHandoffPath(path, cwd)
  return file && inFolder(cwd, file.relPath).replace(/\\/g, '/').replace(KEY_DRIVE_RE, (letter) => letter.toUpperCase())
}

const SHA256_HEX = /^[0-9a-f]{64}$/
export function recordHandoffStatusOf(status: string | undefined): string | undefined {
  return status !== undefined && (HANDOFF_STATUSES as readonly string[]).includes(status) ? status : undefined
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
}

/** 70 characters, whatever the path. */
export async function recordStoreKeyOf(key: string): Promise<string> {
  return storeKeyOf(RECORD_KEY_PREFIX, key)
}

/** A stored value as a record, every field within its bounds; an unknown
 * handoff status is left out, anything else out of shape (a hand edit) is
 * never trusted. */
export function recordOf(value: unknown): OwnRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const r = value as Record<string, unknown>
  const { key, path, sha256, bytes, writtenAtMs, status, usedAtMs } = r
  if (typeof key !== 'string' || typeof path !== 'string' || key.length > MAX_RECORD_PATH_CHARS || path.length > MAX_RECORD_PATH_CHARS) return undefined
  if (typeof sha256 !== 'string' || !SHA256_HEX.test(sha256) || !isCount(bytes) || !isCount(writtenAtMs)) return undefined
  if (usedAtMs !== undefined && !isCount(usedAtMs)) return undefined
  const kept = recordHandoffStatusOf(typeof status === 'string' ? status : undefined)
  return { key, path, sha256, bytes, writtenAtMs, ...(kept !== undefined ? { status: kept } : {}), ...(usedAtMs !== undefined ? { usedAtMs } : {}) }
}

/** The value stored under `storeKey` as a record, only where `storeKey` is
 * its own file's key: a record under another file's key (a hand edit of the
 * store) would make the offer name that file as the person's own, while a
 * resume, reading the file's own key, finds no record. */
export async function storedRecordOf(storeKey: string, value: unknown): Promise<OwnRecord | undefined> {
  const record = recordOf(value)
  return record !== undefined && (await recordStoreKeyOf(record.key)) === storeKey ? record : undefined
}

/** Written later; at the same moment the one set last wins (a second write
 * in one session, within the clock's grain). */
export function standsOver(a: OwnRecord, b: OwnRecord): boolean {
  return a.writtenAtMs > b.writtenAtMs
}

const RECORD_STORE_KEY_CHARS = RECORD_KEY_PREFIX.length + 64

export function recordCharsOf(record: OwnRecord): number {
  return RECORD_STORE_KEY_CHARS + JSON.stringify(record).length + 4
}

/** The store keys of the records that go so that the newest fit
 * MAX_OWN_RECORDS and OWN_RECORDS_BUDGET_CHARS: every older one. */
export function recordKeysToDrop(stored: readonly { storeKey: string; record: OwnRecord }[]): string[] {
  const newestFirst = [...stored].sort((a, b) => b.record.writtenAtMs - a.record.writtenAtMs)
  let chars = 0
  const firstDropped = newestFirst.findIndex((s, i) => (chars += recordCharsOf(s.record)) > OWN_RECORDS_BUDGET_CHARS || i >= MAX_OWN_RECORDS)
  return firstDropped < 0 ? [] : newestFirst.slice(firstDropped).map((s) => s.storeKey)
}

/** Whether a record may be kept at all: its paths within MAX_RECORD_PATH_CHARS
 * and the whole, once marked used, within MAX_RECORD_CHARS. */
export function isRecordable(record: OwnRecord): boolean {
  const isShort = record.key.length <= MAX_RECORD_PATH_CHARS && record.path.length <= MAX_RECORD_PATH_CHARS
  return isShort && recordCharsOf({ ...record, usedAtMs: Number.MAX_SAFE_INTEGER }) <= MAX_RECORD_CHARS
}

/** Whose a file is: the person's own (a record matches what is there now),
 * changed since one of their sessions wrote it, or never written in them. */
export type Ownership = 'own' | 'changed' | 'not-written-here'

/** `record`: the one kept under the file's own key, if any. */
export function ownershipOf(record: OwnRecord | undefined, sha256: string): Ownership {
  if (record === undefined) return 'not-written-here'
  return record.sha256 === sha256 ? 'own' : 'changed'
}

/** A main-loop Write or Edit of a handoff file, as its result tells it: an
 * Edit says what the file held before it (`originalFile`; null when the tool
 * does not say). */
export type MainLoopWrite = { tool: 'Write' } | { tool: 'Edit'; originalFile: string | null }

/** Whether the file a write leaves is the person's own. A Write puts the
 * model's whole text there, so it is. An Edit changes a part and keeps the
 * rest: a cloned handoff stays a stranger's after a one-character Edit (the
 * accept-edits mode draws no dialog for it), so an Edit keeps the file own
 * only when what it changed was own (`before`: the ownership of the text the
 * Edit started from; undefined when unknown). */
export function isOwnAfter(write: MainLoopWrite, before: Ownership | undefined): boolean {
  return write.tool === 'Write' || before === 'own'
}

/** Why a file that is not own is asked about, in the person's terms. */
export function ownershipReasonOf(ownership: Exclude<Ownership, 'own'>): string {
  return ownership === 'changed'
    ? 'it changed since it was written in one of your sessions'
    : 'it was not written in your Claude Code sessions (compact-handoff has no record of writing it)'
}

export async function fingerprintOf(text: string): Promise<{ sha256: string; bytes: number }> {
  return { sha256: await sha256HexOf(text), bytes: new TextEncoder().encode(text).length }
}
