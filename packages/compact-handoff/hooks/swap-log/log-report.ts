// The swap log as the status report shows it: one line per entry, in plain
// words, each within a terminal row. A log sits in the project, and a clone
// may bring one (or a file at its path that is none), so every text read from
// it (a reason, a path) is what the file says, never compact-handoff's own
// words: shown quoted, cut short, and with nothing that could break the line
// or draw as something else (a line break, a terminal escape, a bidi control).
import { logModeOf, logOutcomeOf, logTriggerOf, objectOfLine } from './swap-log.js'

/** Characters a report line keeps at most: the engine draws a command's
 * output after `  ⎿  ` (5 columns), and the default terminal is 80 columns. */
export const REPORT_LINE_CHARS = 74
/** Characters a quoted text keeps at least, however long the words around it. */
/** Characters a log line keeps: the report indents each by two. */
const LOG_LINE_CHARS = REPORT_LINE_CHARS - 2
const MIN_QUOTE_CHARS = 10
const ELLIPSIS = '…'

/** Every character that would draw as more than itself: C0 and C1 controls
 * (a line break, ESC of a terminal escape), DEL, the line and paragraph
 * separators, and the bidi controls that reorder what follows them. */
const UNDRAWABLE_RE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
/** The quote marks a quoted text is put in: inside it they become plain ones,
 * so a text can never close its quote and go on as compact-handoff's words. */
const QUOTE_MARKS_RE = /[“”]/g

/** `text` as one short line quoted from a file: undrawable characters become
 * spaces, its own quote marks plain ones, and past `maxChars` characters
 * (code points) it keeps its head (`keep` 'head', for a reason) or its end
 * ('tail', for a path, whose file name is at the end) with an ellipsis.
 * Linear in the text. */
export function quotedOf(text: string, maxChars: number, keep: 'head' | 'tail'): string {
  // Only the end kept is looked at: a code point is at most two code units,
  // so this many units hold more points than are kept, and a half pair at
  // the cut lies beyond them.
  const units = 2 * maxChars + 2
  const near = text.length <= units ? text : keep === 'head' ? text.slice(0, units) : text.slice(-units)
  const drawable = near.replace(UNDRAWABLE_RE, ' ').replace(QUOTE_MARKS_RE, '"')
  const points = Array.from(drawable)
  const room = Math.max(1, maxChars - 2)
  if (points.length <= room) return `“${drawable}”`
  const kept = keep === 'head' ? `${points.slice(0, room - 1).join('')}${ELLIPSIS}` : `${ELLIPSIS}${points.slice(points.length - (room - 1)).join('')}`
  return `“${kept}”`
}

/** `count` of `one`, in plain words: "no command", "1 file", "3 files". */
function countText(count: number, one: string): string {
  return count === 0 ? `no ${one}` : `${count} ${one}${count === 1 ? '' : 's'}`
}

/** What the meter counted, in plain words: "2 files re-read, no command re-run",
 * and ", 1 recall" when the recall tool was called (counted apart from both). */
export function meterCountsTextOf(reReads: number, repeatedCommands: number, recalls = 0): string {
  return `${countText(reReads, 'file')} re-read, ${countText(repeatedCommands, 'command')} re-run${recalls > 0 ? `, ${countText(recalls, 'recall')}` : ''}`
}

const ISO_MINUTE_RE = /^\d{4}-(\d{2}-\d{2})T(\d{2}:\d{2})/

/** The minute an entry says it was written, `MM-DD HH:MM` (UTC; the year
 * left out for the row's room), or question marks when its `time` is no ISO
 * time: the only part of a line shown unquoted. */
function minuteOf(time: unknown): string {
  const match = typeof time === 'string' ? ISO_MINUTE_RE.exec(time) : null
  return match === null ? '??-?? ??:??' : `${match[1]} ${match[2]}`
}

/** A line of words with at most one text from the file: the words fill what
 * they need, the quote gets the rest of LOG_LINE_CHARS, at least
 * MIN_QUOTE_CHARS; what then passes the row (only the words after the quote,
 * such as counts a file made huge) is cut. */
type Said = { before: string; quote?: { text: string; keep: 'head' | 'tail' }; after?: string }

function lineOf(minute: string, said: Said): string {
  const head = `${minute}  ${said.before}`
  const after = said.after ?? ''
  const quoted = said.quote === undefined ? '' : quotedOf(said.quote.text, Math.max(MIN_QUOTE_CHARS, LOG_LINE_CHARS - head.length - after.length), said.quote.keep)
  const line = `${head}${quoted}${after}`
  return line.length <= LOG_LINE_CHARS ? line : Array.from(line).slice(0, LOG_LINE_CHARS).join('')
}

type Parsed = Record<string, unknown>

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** The file a line names first, and how many more it names. */
function firstFileOf(parsed: Parsed): { path: string; more: number } | undefined {
  const files = Array.isArray(parsed.files) ? parsed.files : []
  const first: unknown = files[0]
  const path = typeof first === 'object' && first !== null ? stringOf((first as { path?: unknown }).path) : undefined
  return path === undefined ? undefined : { path, more: files.length - 1 }
}

function withFile(before: string, parsed: Parsed, otherwise: string): Said {
  const file = firstFileOf(parsed)
  if (file === undefined) return { before: otherwise }
  return { before, quote: { text: file.path, keep: 'tail' }, ...(file.more > 0 ? { after: ` (+${file.more})` } : {}) }
}

function withReason(before: string, parsed: Parsed): Said {
  const reason = stringOf(parsed.reason)
  return reason === undefined || reason === '' ? { before: before.replace(/: $/, '') } : { before, quote: { text: reason, keep: 'head' } }
}

/** What a run's line is called: by the kind of run it names. */
function runNameOf(parsed: Parsed): string {
  const mode = logModeOf(parsed.mode)
  return mode === 'plan' ? 'plan run' : mode === 'handoff' ? 'handoff run' : 'run'
}

/** The engine's compaction a line names, in plain words, or undefined for a run's line. */
function compactionNameOf(parsed: Parsed): string | undefined {
  const trigger = logTriggerOf(parsed.trigger)
  return trigger === 'automatic-compaction' ? 'automatic compaction' : trigger === 'compact-command' ? '/compact' : undefined
}

function afterSwapSaidOf(outcome: string, parsed: Parsed): Said {
  const follows = typeof parsed.follows === 'object' && parsed.follows !== null ? (parsed.follows as Parsed) : {}
  const handoff = stringOf(follows.handoff)
  if (outcome === 'handoff-unread') {
    return handoff === undefined ? { before: 'handoff not read in the first turn after it' } : { before: 'handoff not read in the first turn after ', quote: { text: handoff, keep: 'tail' } }
  }
  const reReads = Array.isArray(parsed.reReads) ? parsed.reReads.length : 0
  const repeated = Array.isArray(parsed.repeatedCommands) ? parsed.repeatedCommands.length : 0
  const recalls = typeof parsed.recalls === 'number' && Number.isSafeInteger(parsed.recalls) && parsed.recalls > 0 ? parsed.recalls : 0
  const counts = `: ${meterCountsTextOf(reReads, repeated, recalls)}`
  if (handoff === undefined) return { before: `after compacting${counts}` }
  return { before: 'after ', quote: { text: handoff, keep: 'tail' }, after: counts }
}

/** A line's words, for each outcome: at most one text quoted from the file. */
function saidOf(parsed: Parsed): Said | undefined {
  const outcomeText = stringOf(parsed.outcome)
  if (outcomeText === undefined) return undefined
  const outcome = logOutcomeOf(outcomeText)
  const compaction = compactionNameOf(parsed) ?? 'compaction'
  const run = runNameOf(parsed)
  switch (outcome) {
    case 'meter':
    case 'handoff-unread':
      return afterSwapSaidOf(outcome, parsed)
    case 'swapped':
      return withFile(`${run}: swapped to `, parsed, `${run}: swapped`)
    case 'engine-summarized':
      return { before: `${run}: replaced by the engine's own summary` }
    case 'aborted':
      return withReason(`${run} stopped: `, parsed)
    case 'resumed':
      return withFile('resumed ', parsed, 'resumed a handoff')
    case 'compaction-handoff':
      return withFile(`${compaction}: swapped to `, parsed, `${compaction}: swapped to a fork's handoff`)
    case 'compaction-digest-handoff':
      return withFile(`${compaction} (digest): swapped to `, parsed, `${compaction}: swapped to a handoff written from a digest`)
    case 'compaction-summarized':
      return withReason(`${compaction} summarised: `, parsed)
    case 'compaction-digest':
      return withReason(`${compaction}: the digest replaced it: `, parsed)
    case 'compaction-kept':
      return { before: `${compaction}: stopped, nothing compacted` }
    default:
      return { before: 'an entry of another kind: ', quote: { text: outcomeText, keep: 'head' } }
  }
}

/** An entry of a log, read for the report: its time as written (to order
 * entries of several files) and its line. */
export type ReportEntry = { time: string; line: string }

/** The entries of one log's text, oldest first; lines that are not entries
 * (a hand edit) are skipped. */
export function reportEntriesOf(text: string): ReportEntry[] {
  const out: ReportEntry[] = []
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    const parsed = objectOfLine(line)
    if (parsed === undefined) continue
    const said = saidOf(parsed)
    const time = parsed.time
    if (said !== undefined && typeof time === 'string') out.push({ time, line: lineOf(minuteOf(time), said) })
  }
  return out
}

/** The newest `count` entries of several logs together, oldest first: by the
 * time each says (ISO times order as text), a file's own order kept for equal ones. */
export function newestEntriesOf(logs: readonly (readonly ReportEntry[])[], count: number): string[] {
  if (count <= 0) return []
  const all = logs.flatMap((entries) => entries.slice(-count))
  const ordered = all.map((entry, i) => ({ entry, i })).sort((a, b) => (a.entry.time < b.entry.time ? -1 : a.entry.time > b.entry.time ? 1 : a.i - b.i))
  return ordered.slice(-count).map(({ entry }) => entry.line)
}

/** Files at a log's path named in the report at most: this session's own
 * and the newest other. */
const MAX_NOT_A_LOG_FILES = 2

/** The report's lines for the files at a log's path that are no swap log: a
 * line each, that it is left alone, then what to do; none when there are none. */
export function notALogLinesOf(files: readonly { relPath: string; isThisSession: boolean }[]): string[] {
  if (files.length === 0) return []
  const frame = 'No swap log, left as it is: '
  const shown = files.slice(0, MAX_NOT_A_LOG_FILES)
  const them = shown.length === 1 ? 'it' : 'them'
  const what = shown.some((f) => f.isThisSession) ? `  (this session logs nothing while it is there: move ${them} away)` : `  (compact-handoff never writes ${them}; move ${them} away if not yours)`
  return [...shown.map((f) => `${frame}${quotedOf(f.relPath, REPORT_LINE_CHARS - frame.length, 'tail')}`), what]
}
