// Which handoff and plan files are the person's own: a record of each one this
// person's sessions wrote (seen written by the main loop's Write/Edit, or
// written by the mod), with a fingerprint of what was written. A file is own
// only while a record matches it: git's "untracked" is no proof (a submodule,
// a repository git refuses to read, a missing git, an unpacked archive all
// look untracked). Pure: ownership-steps.ts keeps the records in `$.store`.
import { inFolder } from '../protocol/protocol-paths.js'
import { HANDOFF_STATUSES } from '../protocol/protocol-contents.js'

/** Records kept, newest written first out; ~200 bytes each. */
export const MAX_OWN_RECORDS = 500
/** The JSON text all records may take together, the oldest written dropped
 * first. The store refuses every set once it would pass 4 MiB (the engine's
 * limit), so the records keep well under it: what they leave is the held
 * messages' room (held-messages.ts HELD_BUDGET_CHARS). */
export const OWN_RECORDS_BUDGET_CHARS = 512 * 1024
/** A file whose path is longer than this is never recorded (it stays "not
 * written here", which costs a question at resume): with it one record is at
 * most ~8.5 KB, so the budget holds sixty of the largest. */
export const MAX_RECORD_PATH_CHARS = 4096

export type OwnRecord = {
  /** ownershipKeyOf the file: the one spelling records are matched by. */
  key: string
  /** The absolute path as written, for finding a project's records again. */
  path: string
  /** SHA-256 of the text's UTF-8 bytes, lowercase hex. */
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

/** The key a file's record is kept under. The one place that decides which
 * spellings of a path are the same file. */
export function ownershipKeyOf(cwd: string, relPath: string): string {
  return inFolder(cwd, relPath).replace(/\\/g, '/')
}

const SHA256_HEX = /^[0-9a-f]{64}$/
const KNOWN_HANDOFF_STATUSES: readonly string[] = HANDOFF_STATUSES

/** A handoff status as a record keeps it: a known one, or none. */
export function recordHandoffStatusOf(status: string | undefined): string | undefined {
  return status !== undefined && KNOWN_HANDOFF_STATUSES.includes(status) ? status : undefined
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
}

/** A stored value as a record, every field within its bounds; a handoff status that is
 * not a known one is left out, anything else out of shape drops the record. */
function boundedRecordOf(value: unknown): OwnRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const r = value as Record<string, unknown>
  const { key, path, sha256, bytes, writtenAtMs, status, usedAtMs } = r
  if (typeof key !== 'string' || typeof path !== 'string' || key.length > MAX_RECORD_PATH_CHARS || path.length > MAX_RECORD_PATH_CHARS) return undefined
  if (typeof sha256 !== 'string' || !SHA256_HEX.test(sha256) || !isCount(bytes) || !isCount(writtenAtMs)) return undefined
  if (usedAtMs !== undefined && !isCount(usedAtMs)) return undefined
  const kept = recordHandoffStatusOf(typeof status === 'string' ? status : undefined)
  return { key, path, sha256, bytes, writtenAtMs, ...(kept !== undefined ? { status: kept } : {}), ...(usedAtMs !== undefined ? { usedAtMs } : {}) }
}

/** The records in what the store holds, each bounded; anything else there (a
 * hand edit, an older shape) is dropped, never trusted. */
export function recordsOf(stored: unknown): OwnRecord[] {
  if (!Array.isArray(stored)) return []
  const records: OwnRecord[] = []
  for (const value of stored) {
    const record = boundedRecordOf(value)
    if (record !== undefined) records.push(record)
  }
  return records
}

/** The newest records (the list is oldest first) that fit MAX_OWN_RECORDS
 * and OWN_RECORDS_BUDGET_CHARS of JSON text. */
export function withinBudget(records: readonly OwnRecord[]): OwnRecord[] {
  let chars = 2
  let first = records.length
  while (first > 0 && records.length - first < MAX_OWN_RECORDS) {
    const size = JSON.stringify(records[first - 1]).length + 1
    if (chars + size > OWN_RECORDS_BUDGET_CHARS) break
    chars += size
    first--
  }
  return records.slice(first)
}

/** Whether a record may be kept for this path at all (MAX_RECORD_PATH_CHARS). */
export function isRecordable(record: Pick<OwnRecord, 'key' | 'path'>): boolean {
  return record.key.length <= MAX_RECORD_PATH_CHARS && record.path.length <= MAX_RECORD_PATH_CHARS
}

/** The records with `record` merged in by its file: it replaces an older
 * record of that file (newest written last), a newer one stands (another
 * session wrote the file since); then within budget. */
export function withRecord(records: readonly OwnRecord[], record: OwnRecord): OwnRecord[] {
  const found = records.find((r) => r.key === record.key)
  if (found !== undefined && found.writtenAtMs > record.writtenAtMs) return withinBudget(records)
  return withinBudget([...records.filter((r) => r.key !== record.key), record])
}

/** Whether the records hold `record` itself, or a newer one of its file. */
export function holdsRecord(records: readonly OwnRecord[], record: OwnRecord): boolean {
  const found = records.find((r) => r.key === record.key)
  return found !== undefined && (found.writtenAtMs > record.writtenAtMs || (found.writtenAtMs === record.writtenAtMs && found.sha256 === record.sha256))
}

/** The records with the one for `key` marked used at `nowMs`. */
export function withUse(records: readonly OwnRecord[], key: string, nowMs: number): OwnRecord[] {
  return records.map((r) => (r.key === key ? { ...r, usedAtMs: nowMs } : r))
}

/** Whose a file is: the person's own (a record matches what is there now),
 * changed since one of their sessions wrote it, or never written in them. */
export type Ownership = 'own' | 'changed' | 'not-written-here'

export function ownershipOf(records: readonly OwnRecord[], key: string, sha256: string): Ownership {
  const record = records.find((r) => r.key === key)
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

/** SHA-256 of the text's UTF-8 bytes as lowercase hex (crypto.subtle: the
 * module environment has it, and so has Node for the unit tests). */
export async function fingerprintOf(text: string): Promise<{ sha256: string; bytes: number }> {
  const data = new TextEncoder().encode(text)
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data))
  let hex = ''
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0')
  return { sha256: hex, bytes: data.length }
}
