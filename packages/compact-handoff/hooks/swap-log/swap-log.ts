// One JSON line per swap or abort in the project's .claude/handoffs/, so a
// person can see afterwards what each run did. Bounded: each line, by clipping
// its long texts; each log, by keeping its newest whole lines.
//
// One log file per session: the engine offers no append and no versioned
// write (`$.fs.write` replaces a whole file), so two sessions that read one
// shared file, add a line and write it back lose a line now and then (1 in 12
// seen on 2.1.332). A session writes only its own file; the status report
// reads them together.
import type { Mode } from '../protocol/protocol.js'

/** The folder of the logs: one `<session id>.jsonl` a session. */
export const SWAP_LOG_FOLDER = '.claude/handoffs/swap-log'
/** The one log all sessions shared in earlier versions: read for the status
 * report, never written again. */
export const OLD_SWAP_LOG_PATH = '.claude/handoffs/compact-handoff.log.jsonl'

/** A session id as a file name: the engine's ids are UUIDs; anything else
 * (a separator, a dot, a long name) names no file, and nothing is logged. */
const SESSION_FILE_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/

/** The project-relative path of the log session `sessionId` writes, or
 * undefined when the id cannot name a file. */
export function sessionLogPathOf(sessionId: string): string | undefined {
  return SESSION_FILE_NAME_RE.test(sessionId) ? `${SWAP_LOG_FOLDER}/${sessionId}.jsonl` : undefined
}

/** Whether a name listed in SWAP_LOG_FOLDER is a session's log. */
export function isSessionLogName(name: string): boolean {
  return name.endsWith('.jsonl') && SESSION_FILE_NAME_RE.test(name.slice(0, -'.jsonl'.length))
}

export const MAX_LOG_LINES = 1_000
/** The log's cap in bytes (UTF-8, as on disk): past it only its newest whole
 * lines are kept, so a log compact-handoff wrote is never larger, and a
 * larger file at its path is not one (logRefusalOf). Well under the 4 MiB one
 * `$.fs.read` may copy, so a log is always read whole. */
export const MAX_LOG_BYTES = 1_048_576
/** A written line never passes this many characters (of its JSON text): its
 * paths and commands are clipped to fit. */
export const MAX_LOG_LINE_CHARS = 8_000
/** A reason keeps this many characters of its JSON text at most: it can quote
 * the skill's sentinel, and a runaway one is hundreds of kilobytes. */
export const MAX_LOG_REASON_CHARS = 1_000
/** Files named in one line at most: a run writes one handoff and one plan, a
 * few more at worst; the bound keeps the line's share for each path above zero. */
export const MAX_LOG_FILES = 20

const CLIP_MARK = ' […]'

/** `compaction-handoff`: the engine's compaction was answered with a handoff a
 * fork wrote; `compaction-digest-handoff`: with a handoff written from the
 * conversation's digest (it was too long for one more request);
 * `compaction-summarized`: no handoff passed, and the engine's summary
 * replaced the conversation instead; `compaction-digest`: the summary failed
 * too, and the digest itself replaced it; `compaction-kept`: nothing was
 * compacted (the person stopped the turn while the fork ran, or nothing
 * could replace the conversation). */
export type Outcome =
  | 'swapped'
  | 'engine-summarized'
  | 'aborted'
  | 'resumed'
  | 'compaction-handoff'
  | 'compaction-digest-handoff'
  | 'compaction-summarized'
  | 'compaction-digest'
  | 'compaction-kept'

/** The two compactions a fork answers, by who asked: the engine at its
 * threshold, or the person's /compact. Not `auto`, which lines written before
 * the auto handoff was named `auto-handoff` use for it (logTriggerOf). */
export type CompactionTrigger = 'automatic-compaction' | 'compact-command'

/** The log's trigger for a compaction a fork was asked to answer: the engine's
 * `auto`, or the person's `manual` /compact. */
export function compactionLogTriggerOf(trigger: 'auto' | 'manual'): CompactionTrigger {
  return trigger === 'auto' ? 'automatic-compaction' : 'compact-command'
}

export type LogTrigger = 'command' | 'apply' | 'auto-handoff' | CompactionTrigger

export type LogEntry = {
  time: string
  sessionId: string
  /** The kind of run (run.ts Mode; a compaction a fork answered writes a
   * handoff); absent on a line of /compact-handoff resume, which runs nothing. Lines written before the kinds were named by what they write
   * say 'resume' for a handoff run (logModeOf reads them). */
  mode?: Mode
  /** How the swap was asked for: straight from the command, /compact-handoff
   * apply after a review, the auto handoff, or one of the engine's compactions.
   * Lines written before the auto handoff was named say 'auto' for it (logTriggerOf reads them). */
  trigger: LogTrigger
  files: { path: string; bytes: number }[]
  contextPercentBefore: number | null
  outcome: Outcome
  reason?: string
  messagesHeld: number
  /** Repair turns the run asked for before it swapped or gave up. */
  repairs: number
}

/** What the new context did again after a swap or a resume (follow-up.ts), or
 * that its first turn ended without reading the handoff (handoff-unread). */
export type AfterSwapEntry = {
  time: string
  sessionId: string
  follows: { kind: 'swapped' | 'resumed'; handoff: string; time: string } | { kind: 'compacted'; time: string }
} & ({ outcome: 'meter'; reReads: string[]; repeatedCommands: string[]; /** Recall tool calls; absent when none. */ recalls?: number } | { outcome: 'handoff-unread' })

/** The code units read at `i` as one character, and how many characters
 * JSON.stringify writes for it: a pair stays whole, a lone surrogate and a
 * control character become `\\uXXXX`, a quote or backslash is escaped. */
function jsonCostAt(text: string, i: number): { units: number; chars: number } {
  const code = text.charCodeAt(i)
  if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) return { units: 2, chars: 2 }
  if (code >= 0xd800 && code <= 0xdfff) return { units: 1, chars: 6 }
  if (code === 0x22 || code === 0x5c) return { units: 1, chars: 2 }
  if (code < 0x20) return { units: 1, chars: code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 2 : 6 }
  return { units: 1, chars: 1 }
}

/** `text` whole when its JSON form (quotes aside) fits in `maxChars`, else its
 * head with a visible mark, the two together within `maxChars`; never splits
 * a surrogate pair. Linear in the text. */
export function jsonClippedOf(text: string, maxChars: number): string {
  const room = Math.max(0, maxChars - CLIP_MARK.length)
  let chars = 0
  let cut = -1
  for (let i = 0; i < text.length; ) {
    const cost = jsonCostAt(text, i)
    if (cut < 0 && chars + cost.chars > room) cut = i
    chars += cost.chars
    if (chars > maxChars) return `${text.slice(0, cut)}${CLIP_MARK}`
    i += cost.units
  }
  return text
}

type Entry = LogEntry | AfterSwapEntry

/** `entry` with every path and command passed through `clip`. */
function withTextsClipped(entry: Entry, clip: (text: string) => string): Entry {
  if (entry.outcome !== 'meter' && entry.outcome !== 'handoff-unread') return { ...entry, files: entry.files.map((f) => ({ ...f, path: clip(f.path) })) }
  const follows = 'handoff' in entry.follows ? { ...entry.follows, handoff: clip(entry.follows.handoff) } : entry.follows
  if (entry.outcome === 'handoff-unread') return { ...entry, follows }
  return { ...entry, follows, reReads: entry.reReads.map(clip), repeatedCommands: entry.repeatedCommands.map(clip) }
}

function textCountOf(entry: Entry): number {
  if (entry.outcome !== 'meter' && entry.outcome !== 'handoff-unread') return entry.files.length
  return 1 + (entry.outcome === 'meter' ? entry.reReads.length + entry.repeatedCommands.length : 0)
}

/** The entry's JSON line, at most MAX_LOG_LINE_CHARS: the reason clipped to
 * MAX_LOG_REASON_CHARS, and, when the line is still too long, every path and
 * command to an equal share of what is left. */
export function logLineOf(entry: Entry): string {
  let bounded: Entry = entry
  if ('reason' in bounded && bounded.reason !== undefined) bounded = { ...bounded, reason: jsonClippedOf(bounded.reason, MAX_LOG_REASON_CHARS) }
  if ('files' in bounded) bounded = { ...bounded, files: bounded.files.slice(0, MAX_LOG_FILES) }
  const line = JSON.stringify(bounded)
  if (line.length <= MAX_LOG_LINE_CHARS) return line
  const frame = JSON.stringify(withTextsClipped(bounded, () => '')).length
  const share = Math.floor((MAX_LOG_LINE_CHARS - frame) / Math.max(1, textCountOf(bounded)))
  return JSON.stringify(withTextsClipped(bounded, (text) => jsonClippedOf(text, share)))
}

const ASCII_RE = /^[\x00-\x7f]*$/

/** Bytes `text` takes as UTF-8 (a lone surrogate is written as U+FFFD, 3 bytes). */
function utf8BytesOf(text: string): number {
  // Log lines are nearly always ASCII: one character, one byte, counted natively.
  if (ASCII_RE.test(text)) return text.length
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

/** The log's text with `entry` appended: its newest whole lines, at most
 * MAX_LOG_LINES of them and MAX_LOG_BYTES in all. */
export function logTextWith(existing: string, entry: Entry): string {
  const lines = existing.split('\n').filter((line) => line.trim() !== '')
  lines.push(logLineOf(entry))
  let first = Math.max(0, lines.length - MAX_LOG_LINES)
  let chars = 0
  for (let i = first; i < lines.length; i++) chars += lines[i]!.length + 1
  // UTF-8 takes at most 3 bytes for a UTF-16 code unit: a log that fits by
  // that count needs no byte counted.
  if (chars * 3 <= MAX_LOG_BYTES) return `${lines.slice(first).join('\n')}\n`
  let bytes = 0
  for (let i = lines.length - 1; i >= first; i--) {
    bytes += utf8BytesOf(lines[i]!) + 1
    if (bytes > MAX_LOG_BYTES) {
      first = i + 1
      break
    }
  }
  return `${lines.slice(first).join('\n')}\n`
}

/** Why a file of `size` bytes at a log's path is left alone, judged before
 * it is read: larger than any log compact-handoff writes, it is not one. */
export function logSizeRefusalOf(relPath: string, size: number): string | undefined {
  return size > MAX_LOG_BYTES ? `${relPath} is larger than a swap log ever grows, so it is no swap log, and is left as it is` : undefined
}

/** Why the text of the whole file at a log's path is left alone, or
 * undefined when it is a swap log (readsAsSwapLog). */
export function logTextRefusalOf(relPath: string, text: string): string | undefined {
  return readsAsSwapLog(text) ? undefined : `${relPath} does not read as a swap log, and is left as it is`
}

/** Whether a log's whole text is a swap log, which alone may be cut to its
 * newest lines and rewritten: every line that is not
 * blank is a JSON object with a string `time` and `outcome`, as every entry
 * has. Anything else there (a file a clone put in its place, a hand edit) is
 * never truncated or rewritten. */
export function readsAsSwapLog(text: string): boolean {
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    const parsed = objectOfLine(line)
    if (parsed === undefined || typeof parsed.time !== 'string' || typeof parsed.outcome !== 'string') return false
  }
  return true
}

/** A log line's JSON object, or undefined for anything else (not JSON, an
 * array, a scalar): what the log check and the status report both read. */
export function objectOfLine(line: string): Record<string, unknown> | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(line)
  } catch {
    return undefined
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined
}

/** The kind of run a log line's `mode` names: 'resume' is how lines written
 * before the kinds were named by what they write spelled a handoff run. */
export function logModeOf(mode: unknown): Mode | undefined {
  if (mode === 'handoff' || mode === 'resume') return 'handoff'
  return mode === 'plan' ? 'plan' : undefined
}

/** The outcome a log line's `outcome` names: 'follow-up' is how lines written
 * before the meter was named spelled a meter reading. */
export function logOutcomeOf(outcome: string): string {
  return outcome === 'follow-up' ? 'meter' : outcome
}

const LOG_TRIGGERS: readonly LogTrigger[] = ['command', 'apply', 'auto-handoff', 'automatic-compaction', 'compact-command']

/** The trigger a log line's `trigger` names: 'auto' is how lines written
 * before the auto handoff was named spelled it, never the engine's automatic
 * compaction ('automatic-compaction'). */
export function logTriggerOf(trigger: unknown): LogTrigger | undefined {
  if (trigger === 'auto') return 'auto-handoff'
  return LOG_TRIGGERS.find((known) => known === trigger)
}
