// The swap log: one JSON line per swap, abort, resume, compaction answered
// and meter reading, in the project's .claude/handoffs/, so a person can see
// afterwards what each did (/compact-handoff status words the newest lines).
//
// One log file per session: the engine offers no append and no versioned
// write (`$.fs.write` replaces a whole file), so two sessions that read one
// shared file, add a line and write it back lose a line now and then (1 in 12
// seen on 2.1.332). A session writes only its own file; the report reads them
// together. A log sits beside handoffs people commit, and a clone may bring
// one (or a file at its path that is none): what the report shows of a file
// is quoted, cut short and unable to break its line.

/** The folder of the logs: one `<session id>.jsonl` a session. */
export const SWAP_LOG_FOLDER = '.claude/handoffs/swap-log'

/** A session id as a file name: the engine's ids are UUIDs; anything else
 * (a separator, a dot, a long name) names no file, and nothing is logged. */
const SESSION_FILE_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/

export function sessionLogPathOf(sessionId: string): string | undefined {
  return SESSION_FILE_NAME_RE.test(sessionId) ? `${SWAP_LOG_FOLDER}/${sessionId}.jsonl` : undefined
}

/** A log's cap in bytes: past it only its newest whole lines are kept, so a
 * larger file at a log's path is none, and is never read or rewritten. Well
 * under the 4 MiB one `$.fs.read` may copy, so a log is always read whole. */
export const MAX_LOG_BYTES = 1_048_576
/** Characters each text of a line keeps: a reason can quote the skill's
 * sentinel, and a runaway one is hundreds of kilobytes. */
export const MAX_LOG_TEXT_CHARS = 500
/** Paths or commands a line names at most in each list. */
export const MAX_LOG_LIST_ITEMS = 10

/** What happened. `compaction-handoff`: the engine's compaction was answered
 * with a handoff a fork wrote; `compaction-digest-handoff`: with one written
 * from the conversation's digest; `compaction-summarized`: the engine's
 * summary replaced the conversation instead; `compaction-digest`: the digest
 * itself did; `compaction-kept`: nothing was compacted. `meter`: what the new
 * context did again after a swap, resume or compaction (meter/meter.ts);
 * `handoff-unread`: its first turn ended without reading the handoff. */
export type Outcome =
  | ('swapped' | 'engine-summarized' | 'aborted' | 'resumed')
  | ('compaction-handoff' | 'compaction-digest-handoff' | 'compaction-summarized' | 'compaction-digest' | 'compaction-kept')
  | ('meter' | 'handoff-unread')

/** What asked for it: the command, /compact-handoff apply after a review,
 * the auto handoff, the engine's automatic compaction or the person's /compact. */
export type LogTrigger = 'command' | 'apply' | 'auto-handoff' | 'automatic-compaction' | 'compact-command'

export function compactionLogTriggerOf(trigger: 'auto' | 'manual'): LogTrigger {
  return trigger === 'auto' ? 'automatic-compaction' : 'compact-command'
}

/** What a run's line says of it (run.ts Run has these fields). */
export function runLogOf(run: { apply: 'now' | 'review'; trigger: 'command' | 'auto-handoff'; contextPercentBefore: number | null; repairs: number }): Pick<LogEntry, 'trigger' | 'contextPercentBefore' | 'repairs'> {
  return { trigger: run.apply === 'review' ? 'apply' : run.trigger, contextPercentBefore: run.contextPercentBefore, repairs: run.repairs }
}

export type LogEntry = {
  time: string
  sessionId: string
  outcome: Outcome
  trigger?: LogTrigger
  /** The handoff (and plan) swapped to or resumed, or the handoff a meter
   * reading follows. */
  files: string[]
  reason?: string
  contextPercentBefore?: number | null
  /** Repair turns the run asked for before it swapped or gave up. */
  repairs?: number
  reReads?: string[]
  repeatedCommands?: string[]
  /** Recall tool calls, counted apart from both. */
  recalls?: number
}

/** Every character JSON writes as a six-character escape: C0 controls, and a
 * surrogate that is half of no pair (U+FFFD in its place). */
const CONTROL_RE = /[\u0000-\u001f]/g
const LONE_SURROGATE_RE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** `text` within MAX_LOG_TEXT_CHARS, a visible mark where it was cut and
 * never half a surrogate pair, so that JSON writes each character kept in
 * at most two. Linear in the text. */
function clippedOf(text: string): string {
  const flat = text.slice(0, MAX_LOG_TEXT_CHARS + 1).replace(CONTROL_RE, ' ').replace(LONE_SURROGATE_RE, '\ufffd')
  if (flat.length <= MAX_LOG_TEXT_CHARS) return flat
  const cut = /[\ud800-\udbff]$/.test(flat.slice(0, MAX_LOG_TEXT_CHARS)) ? MAX_LOG_TEXT_CHARS - 1 : MAX_LOG_TEXT_CHARS
  return `${flat.slice(0, cut)} […]`
}

/** The entry's JSON line: each text clipped, each list capped, so a line
 * stays far below the log's cap whatever a reason quotes. */
export function logLineOf(entry: LogEntry): string {
  const listOf = (texts: readonly string[] | undefined) => texts?.slice(0, MAX_LOG_LIST_ITEMS).map(clippedOf)
  const reason = entry.reason === undefined ? undefined : clippedOf(entry.reason)
  return JSON.stringify({ ...entry, files: listOf(entry.files), reason, reReads: listOf(entry.reReads), repeatedCommands: listOf(entry.repeatedCommands) })
}

/** The log's text with `entry` appended: its newest whole lines within
 * MAX_LOG_BYTES (a UTF-16 code unit is at most 3 bytes of UTF-8). */
export function logTextWith(lines: readonly string[], entry: LogEntry): string {
  const all = [...lines, logLineOf(entry)]
  let first = all.length
  let chars = 0
  while (first > 0 && (chars += all[first - 1]!.length + 1) * 3 <= MAX_LOG_BYTES) first--
  return `${all.slice(first).join('\n')}\n`
}

/** What every line logLineOf writes opens with. */
const LINE_OPENING = '{"time":"'

/** Whether a line is an entry: a JSON object with a string `time` and `outcome`. */
function isEntryLine(line: string): boolean {
  try {
    const parsed: unknown = JSON.parse(line)
    return typeof parsed === 'object' && parsed !== null && typeof (parsed as LogEntry).time === 'string' && typeof (parsed as LogEntry).outcome === 'string'
  } catch {
    return false
  }
}

/** The entry lines of a log's whole text, or undefined when it is no swap
 * log (a file a clone put at its path, a hand edit), which is never cut or
 * rewritten: every line not blank is an object with a string `time` and
 * `outcome`. One exception, dropped here: a last line with no line break
 * that is the head of an entry. `$.fs.write` truncates the file and then
 * writes, and on a full disk it stops at the last block it got (seen live on
 * 2.1.332), so a failed append leaves the whole lines and the new one cut. */
export function logLinesOf(text: string): string[] | undefined {
  const lines = text.split('\n')
  const last = lines.at(-1)!
  if (!isEntryLine(last) && (last.startsWith(LINE_OPENING) || LINE_OPENING.startsWith(last.trimEnd()))) lines.pop()
  const kept = lines.filter((line) => line.trim() !== '')
  return kept.every(isEntryLine) ? kept : undefined
}

/** Characters a report line keeps at most: the engine draws a command's
 * output after `  ⎿  ` (5 columns), and the default terminal is 80 columns. */
export const REPORT_LINE_CHARS = 74
/** Characters a log line keeps: the report indents each by two. */
const LOG_LINE_CHARS = REPORT_LINE_CHARS - 2
/** Characters a quoted text keeps at least, however long the words around it. */
const MIN_QUOTE_CHARS = 10

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
  const kept = keep === 'head' ? `${points.slice(0, room - 1).join('')}…` : `…${points.slice(points.length - (room - 1)).join('')}`
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
/** An outcome as the log writes them: a file's other words are shown as `entry`. */
const LOG_WORD_RE = /^[a-z-]{1,30}$/

/** An entry as one line, `MM-DD HH:MM` (UTC, as its `time` says) first, then
 * its outcome, then at most one text from the file (its reason, else its
 * first file), quoted in what is left of the row, then the meter's counts or
 * how many more files it names; what then passes the row is cut. */
function reportLineOf(entry: Record<string, unknown> & { time: string }): string {
  const minute = ISO_MINUTE_RE.exec(entry.time)
  const outcome = typeof entry.outcome === 'string' && LOG_WORD_RE.test(entry.outcome) ? entry.outcome : 'entry'
  const head = `${minute === null ? '??-?? ??:??' : `${minute[1]} ${minute[2]}`}  ${outcome}`
  const files = Array.isArray(entry.files) ? entry.files : []
  const text = typeof entry.reason === 'string' && entry.reason !== '' ? entry.reason : typeof files[0] === 'string' ? files[0] : undefined
  const counts = (list: unknown) => (Array.isArray(list) ? list.length : 0)
  const recalls = typeof entry.recalls === 'number' ? entry.recalls : 0
  const after = entry.outcome === 'meter' ? ` (${counts(entry.reReads)} re-read, ${counts(entry.repeatedCommands)} re-run${recalls > 0 ? `, ${recalls} recalled` : ''})` : files.length > 1 ? ` (+${files.length - 1})` : ''
  const quoted = text === undefined ? '' : `: ${quotedOf(text, Math.max(MIN_QUOTE_CHARS, LOG_LINE_CHARS - head.length - 2 - after.length), text === files[0] ? 'tail' : 'head')}`
  const line = `${head}${quoted}${after}`
  return line.length <= LOG_LINE_CHARS ? line : Array.from(line).slice(0, LOG_LINE_CHARS).join('')
}

/** The newest `count` entries of several logs' lines (logLinesOf) together,
 * oldest first, worded: by the time each says (ISO times order as text), a
 * file's own order kept for equal ones. */
export function reportLinesOf(logs: readonly (readonly string[])[], count: number): string[] {
  if (count <= 0) return []
  const entries = logs.flatMap((lines) => lines.slice(-count).map((line) => JSON.parse(line) as Record<string, unknown> & { time: string }))
  // A stable sort: entries of equal times keep their file's order.
  return entries.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0)).slice(-count).map(reportLineOf)
}

/** The report's lines for files at a log's path that are no swap log (the
 * newest two): a line each, then what to do; none when there are none. */
export function notALogLinesOf(files: readonly { relPath: string; isThisSession: boolean }[]): string[] {
  if (files.length === 0) return []
  const frame = 'No swap log, left as it is: '
  const shown = files.slice(0, 2).map((f) => `${frame}${quotedOf(f.relPath, REPORT_LINE_CHARS - frame.length, 'tail')}`)
  return [...shown, files.some((f) => f.isThisSession) ? '  (this session logs nothing while it is there: move it away)' : '  (compact-handoff never writes these; move away any not yours)']
}
