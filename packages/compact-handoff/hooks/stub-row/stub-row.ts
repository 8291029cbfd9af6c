// The stub's row in the transcript: after a swap or a compaction a fork
// answered, the one message the conversation became is drawn as one line, as
// the engine draws its own compaction ("Conversation compacted · ctrl+o for
// history"), and whole under ctrl+o. A `ui.render` rewrite of `props.text`
// changes the drawing only: the model receives the stub as it was installed.
//
// Only a row whose whole text is a stub this session installed is redrawn:
// each installed stub is remembered by its SHA-256, so a row the person typed
// that begins with the stub's words (or copies one) is drawn as typed unless
// it is that very text.
import { STUB_OPENING } from '../stub/swap-text.js'
import { tailOf } from '../text/text-clip.js'

/** What replaced the conversation: a swap (a run's, a review's apply) or a
 * compaction of the engine's a fork answered. */
export type StubRowKind = 'swap' | 'compaction'

/** One stub this session installed, as the row is drawn from it. */
export type StubRow = {
  kind: StubRowKind
  /** SHA-256 of the stub's text, lowercase hex (ownership.ts fingerprintOf). */
  sha256: string
  /** The handoff file, relative to the session folder. */
  handoff: string
  /** Its size on disk, in bytes. */
  bytes: number
}

export type StubRows = readonly StubRow[]

/** Rows remembered: the newest few stubs, as a session's view holds the rows
 * since its latest compaction and ctrl+o the earlier ones drawn whole. */
export const MAX_STUB_ROWS = 4

/** Where the surface gave no width: the terminal's default. */
export const DEFAULT_COLUMNS = 80

/** The user row's own lead ("❯ ") and one cell spare, so the line never wraps. */
const ROW_LEAD_COLUMNS = 3

export const CTRL_O_KEY = 'ctrl+o'
export const CTRL_O_HINT = `${CTRL_O_KEY} to read`

/** Whether `text` may be a stub at all: checked before any state is read,
 * so a typed prompt's row costs no hop. */
export function mayBeStub(text: string): boolean {
  return text.startsWith(STUB_OPENING)
}

/** `rows` with `row` the newest, the oldest past {@link MAX_STUB_ROWS} forgotten. */
export function withStubRow(rows: StubRows, row: StubRow): StubRow[] {
  return [...rows.filter((r) => r.sha256 !== row.sha256), row].slice(-MAX_STUB_ROWS)
}

export function stubRowOf(rows: StubRows, sha256: string): StubRow | undefined {
  return rows.find((r) => r.sha256 === sha256)
}

/** A file's size as a person reads it: "812 B", "6.1 KB", "1.2 MB". */
export function sizeTextOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

const LEAD_OF: Record<StubRowKind, { long: string; short: string }> = {
  swap: { long: 'compact-handoff: the conversation is now', short: 'compact-handoff: swapped to' },
  compaction: { long: 'compact-handoff: compacted; the conversation is now', short: 'compact-handoff: compacted to' },
}

/** The file's own name: what is left of a path shortened from the left. */
function nameOf(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1)
}

/** A name is never shortened below this: past it the line wraps instead. */
const MIN_NAME_CHARS = 12

/** The one line drawn for `row` in `columns` cells: what happened, the
 * handoff and its size, and ctrl+o. The first of these forms that fits: the
 * whole path; the path shortened from the left to its folder's tail; a shorter
 * lead and the file's name; a shorter hint; the name itself shortened from the
 * left. A surface too narrow even for that wraps the last form. */
export function stubRowLineOf(row: StubRow, columns: number = DEFAULT_COLUMNS): string {
  const room = columns - ROW_LEAD_COLUMNS
  const size = `(${sizeTextOf(row.bytes)})`
  const { long, short } = LEAD_OF[row.kind]
  const name = nameOf(row.handoff)
  const lineOf = (lead: string, hint: string, path: (rest: number) => string): string => {
    const rest = room - `${lead}  ${size} · ${hint}`.length
    return `${lead} ${path(rest)} ${size} · ${hint}`
  }
  const forms = [
    lineOf(long, CTRL_O_HINT, () => row.handoff),
    lineOf(long, CTRL_O_HINT, (rest) => tailOf(row.handoff, Math.max(rest, name.length + 2))),
    lineOf(short, CTRL_O_HINT, () => name),
    lineOf(short, CTRL_O_KEY, () => name),
  ]
  return forms.find((form) => form.length <= room) ?? lineOf(short, CTRL_O_KEY, (rest) => tailOf(name, Math.max(rest, MIN_NAME_CHARS)))
}
