// Messages typed during a run, kept in the mod's own store outside the project
// from the moment they are held until they are delivered or given back, so a
// session killed mid-run (no session.end runs) leaves them as an exit does: an
// interactive session in that folder puts them back in its prompt box once the
// holding session is known to be gone (it marked its entry at its end, or its
// heartbeat stopped), never while it still runs. Pure: no `$`.
import { storeKeyOf } from '../text/store-key.js'

/** One key per folder and session: two sessions never set the same key, so
 * neither can drop the other's messages (the store merges different keys).
 * Digests, never the folder's path: the engine refuses a key over 256
 * characters, which a path in the key passed from about 215. */
export const HELD_KEY_PREFIX = 'held-in:'
/** `held-beat:<session digest>`: the time, in ms, its owner last said it still
 * runs. Set only by its owner, so no other session's write can lose it (the
 * store has no versioned write: two sessions that set one key lose an update). */
export const HELD_BEAT_PREFIX = 'held-beat:'
export const HEARTBEAT_MS = 5_000
/** Six beats missed before another session takes the entry as orphaned. A
 * live session's timer is late by seconds at most (the engine unloads a mod
 * whose worker does not answer within 5 s), so only a session that stopped
 * (killed, or suspended that long) misses six. */
export const ORPHANED_AFTER_MS = 30_000

/** The JSON text all held entries may take together, the oldest of other
 * sessions dropped first: with the records' budget (ownership.ts) it keeps the
 * store under the engine's 4 MiB, so an entry always has room. */
export const HELD_BUDGET_CHARS = 3 * 1024 * 1024
export const MAX_HELD_ENTRIES = 20

/** What one session held in one folder: `endedAt` once it ended with them
 * (an exit), absent while it ran (and after a crash). */
export type HeldEntry = { cwd: string; messages: string[]; heldAt: string; endedAt?: string }

export async function heldFolderPrefixOf(cwd: string): Promise<string> {
  return `${await storeKeyOf(HELD_KEY_PREFIX, cwd)}:`
}

/** 137 characters whatever the session or folder. */
export async function heldKeyOf(sessionId: string, cwd: string): Promise<string> {
  return storeKeyOf(HELD_KEY_PREFIX, cwd, sessionId)
}

export async function heldBeatKeyOf(sessionId: string): Promise<string> {
  return storeKeyOf(HELD_BEAT_PREFIX, sessionId)
}

/** The heartbeat key of the session an entry's key names: its last part is that session's digest. */
export function heldBeatKeyOfEntryKey(key: string): string {
  return `${HELD_BEAT_PREFIX}${key.slice(key.lastIndexOf(':') + 1)}`
}

export function heldBeatOf(stored: unknown): number | undefined {
  return typeof stored === 'number' && Number.isFinite(stored) ? stored : undefined
}

/** How long until another session may take `entry`: 0 once its owner marked
 * it at its end, or once its last sign of life (the newer of its last beat and
 * its last held message) is ORPHANED_AFTER_MS old. */
export function orphanedInMsOf(entry: HeldEntry, beatMs: number | undefined, nowMs: number): number {
  if (entry.endedAt !== undefined) return 0
  const heldMs = Date.parse(entry.heldAt)
  const aliveMs = Math.max(Number.isNaN(heldMs) ? 0 : heldMs, beatMs ?? 0)
  return Math.max(0, aliveMs + ORPHANED_AFTER_MS - nowMs)
}

/** Whether the prompt box already holds `message` whole, on lines of its own:
 * the engine puts a dropped prompt back in the box, and a give-back must not
 * add a second copy. Linear in the box's length. */
export function isInBox(box: string, message: string): boolean {
  const m = message.trim()
  const b = box.trim()
  return m === '' || b === m || b.startsWith(`${m}\n`) || b.endsWith(`\n${m}`) || b.includes(`\n${m}\n`)
}

export function isHeldKey(key: string): boolean {
  return key.startsWith(HELD_KEY_PREFIX)
}

/** An entry as stored; anything else (a hand edit) is undefined. */
export function heldEntryOf(stored: unknown): HeldEntry | undefined {
  if (typeof stored !== 'object' || stored === null) return undefined
  const v = stored as Partial<HeldEntry>
  const isTexts = Array.isArray(v.messages) && v.messages.length > 0 && v.messages.every((m) => typeof m === 'string')
  if (typeof v.cwd !== 'string' || typeof v.heldAt !== 'string' || !isTexts) return undefined
  if (v.endedAt !== undefined && typeof v.endedAt !== 'string') return undefined
  return { cwd: v.cwd, messages: v.messages!, heldAt: v.heldAt, ...(v.endedAt !== undefined ? { endedAt: v.endedAt } : {}) }
}

/** The JSON text an entry takes in the store, its key included. */
export function heldCharsOf(key: string, entry: HeldEntry): number {
  return key.length + JSON.stringify(entry).length + 4
}

export const byHeldAt = (a: { heldAt: string }, b: { heldAt: string }): number => (a.heldAt < b.heldAt ? -1 : a.heldAt > b.heldAt ? 1 : 0)

/** Which of the other entries go so that `chars` more fit HELD_BUDGET_CHARS
 * and MAX_HELD_ENTRIES, oldest held first; undefined when even dropping all of
 * them leaves no room (a message too long to keep). */
export function heldKeysToDrop(others: readonly { key: string; chars: number; heldAt: string }[], chars: number): string[] | undefined {
  if (chars > HELD_BUDGET_CHARS) return undefined
  const oldestFirst = [...others].sort(byHeldAt)
  let total = chars + oldestFirst.reduce((sum, o) => sum + o.chars, 0)
  const dropped: string[] = []
  for (const other of oldestFirst) {
    if (total <= HELD_BUDGET_CHARS && oldestFirst.length - dropped.length < MAX_HELD_ENTRIES) break
    dropped.push(other.key)
    total -= other.chars
  }
  return dropped
}

/** What the restore toast says of the entries it put back, oldest first. */
export function restoredToastOf(entries: readonly HeldEntry[]): string {
  const n = entries.reduce((sum, e) => sum + e.messages.length, 0)
  const last = entries.at(-1)!
  const when = last.endedAt !== undefined ? `held when the session here ended (${last.endedAt})` : `held by a session here that stopped before it could deliver them (last held ${last.heldAt})`
  return `${n} message(s) you typed during a handoff run, ${when}, are back in the prompt box.`
}

const ATTACHMENT_WORDS: Readonly<Record<string, string>> = { image: 'an image', audio: 'an audio clip', document: 'a document' }

/** Said when a prompt with attachments went through during a run instead of
 * being held (run-machine.ts 'hold'); `attachments` are the items' kinds. */
export function letThroughTextOf(attachments: readonly string[]): string {
  const what = attachments.length === 1 ? (ATTACHMENT_WORDS[attachments[0]!] ?? 'an attachment') : `${attachments.length} attachments (${attachments.join(', ')})`
  return (
    `your message carries ${what}, which a plugin cannot hold and send again, so it went to Claude now instead of being held. ` +
    'A handoff swap is under way: if it replaces the conversation after Claude answers, the new context keeps your words but not the attachment or the answer; attach it again then if it is still needed.'
  )
}
