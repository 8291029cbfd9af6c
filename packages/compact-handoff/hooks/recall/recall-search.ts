// The recall search over a session transcript, fed its text in order, a chunk
// at a time (recall-steps.ts reads the file by range; the engine refuses a read
// over 4 MiB and a hook that spins ~5 s gets the mod unloaded). Linear in the
// text: each line is split once, lower-cased once and looked into once per
// needle with `includes` (no pattern built from the query), and parsed only
// when it may hold a match. What it keeps is bounded whatever the transcript:
// the newest MAX_ENTRIES hits (each an excerpt of at most WINDOW_CHARS plus
// the masking margin) and the open calls' texts (at most MAX_OPEN_CALL_CHARS).
//
// Scope: what a replacement took out, i.e. the lines before the newest
// `compact_boundary`; the ones after it are in the conversation the model
// holds now.
import { lineRecordOf, statusOf, type Call, type Entry } from './transcript-entries.js'
import { needlesOf, RECALL_TOOL, type RecallQuery } from './recall.js'
import { MAX_REDACT_CHARS, isLowSurrogate } from '../text/text-clip.js'

/** The newest entries an answer shows; the rest are counted. */
export const MAX_ENTRIES = 5
/** Of each entry, the characters shown around its match. */
export const WINDOW_CHARS = 2_000
/** Kept beyond the window on each side and masked with it, then dropped: a
 * credential cut by the window's edge would escape the patterns that find it
 * (a PEM block's END line, a bearer header far before its token's end). An
 * entry of up to twice this goes to the masking whole; of a longer one, what
 * lies further from the window cannot change how the window masks. */
export const MASK_MARGIN_CHARS = MAX_REDACT_CHARS
/** A longer transcript line is skipped and counted: the engine cuts what one
 * tool result keeps far below this (a whole 1 MB line is searched). */
export const MAX_LINE_CHARS = 8 * 1024 * 1024
/** Calls waiting for their result; the oldest go first (a call whose result
 * never came, or came in a line no needle was in). */
const MAX_OPEN_CALLS = 4_000
/** The open calls' texts together (each up to MAX_CALL_KEPT_CHARS, kept to be
 * masked whole); past this the oldest go first too. */
const MAX_OPEN_CALL_CHARS = 4 * 1_048_576

/** One entry found: how it is named, and its excerpt (the window and the
 * masking margin) with where the window lies in it and in the whole text. */
export type Hit = {
  kind: Entry['kind']
  /** The call's text for a tool result (not yet masked nor cut), who wrote it for a message. */
  label: string
  /** The needle the window centres on (lower-cased), found again in the masked
   * excerpt; absent when only the call's text holds the needles. */
  focus?: string
  status?: string
  at?: string
  excerpt: string
  windowStart: number
  /** Where the excerpt starts in the entry's text, and the text's length. */
  excerptStart: number
  textLength: number
}

type Segment = { hits: Hit[]; count: number; searched: number; skipped: number }

export type RecallScan = {
  query: RecallQuery
  needles: readonly string[]
  /** The needles as they are spelled inside a JSON string (lower-cased), for the look before a parse. */
  rawNeedles: readonly string[]
  carry: string
  isDropping: boolean
  skipFirst: boolean
  calls: Map<string, Call>
  /** The characters of the open calls' texts together. */
  openCallChars: number
  callsWithNeedle: Set<string>
  replaced: Segment
  current: Segment
  boundaries: number
}

/** What a search found: the hits newest first, how many more matched, how
 * many messages were searched and lines skipped, and how many replacements. */
export type RecallFound = {
  query: RecallQuery
  hits: Hit[]
  more: number
  searched: number
  skipped: number
  boundaries: number
  /** The search stopped before the transcript's end (its time bound): what it
   * read is older than the newest boundary, which lies in the part unread. */
  isCut: boolean
}

const emptySegment = (): Segment => ({ hits: [], count: 0, searched: 0, skipped: 0 })

/** A new search for `query`; `startsMidLine` when the text fed starts inside
 * a line (a read from an offset), whose rest is then skipped. */
export function recallScanOf(query: RecallQuery, startsMidLine = false): RecallScan {
  const needles = needlesOf(query)
  return {
    query,
    needles,
    rawNeedles: needles.map((n) => JSON.stringify(n).slice(1, -1).toLowerCase()),
    carry: '',
    isDropping: false,
    skipFirst: startsMidLine,
    calls: new Map(),
    openCallChars: 0,
    callsWithNeedle: new Set(),
    replaced: emptySegment(),
    current: emptySegment(),
    boundaries: 0,
  }
}

/** Feeds the next piece of the transcript's text. */
export function scanText(scan: RecallScan, text: string): void {
  let start = 0
  for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
    lineEnded(scan, text.slice(start, newline))
    start = newline + 1
  }
  carryOn(scan, text.slice(start))
}

/** Ends the search: the last line (a transcript need not end in a newline),
 * then what was found; `isCut` when the reading stopped before the file's end. */
export function scanEnd(scan: RecallScan, isCut = false): RecallFound {
  if (!isCut && (scan.carry !== '' || scan.isDropping)) lineEnded(scan, '')
  if (isCut) mergeCurrent(scan)
  const { hits, count, searched, skipped } = scan.replaced
  return { query: scan.query, hits: [...hits].reverse(), more: count - hits.length, searched, skipped, boundaries: scan.boundaries, isCut }
}

/** Keeps the start of a line the next piece ends, or drops it once it is past MAX_LINE_CHARS. */
function carryOn(scan: RecallScan, piece: string): void {
  if (scan.isDropping || piece === '') return
  scan.isDropping = scan.carry.length + piece.length > MAX_LINE_CHARS
  scan.carry = scan.isDropping ? '' : scan.carry + piece
}

function lineEnded(scan: RecallScan, piece: string): void {
  const line = scan.carry + piece
  const isSkipped = scan.isDropping || line.length > MAX_LINE_CHARS
  const isFirst = scan.skipFirst
  scan.carry = ''
  scan.isDropping = false
  scan.skipFirst = false
  if (isFirst) return
  if (isSkipped) scan.current.skipped++
  else takeLine(scan, line.endsWith('\r') ? line.slice(0, -1) : line)
}

function mergeCurrent(scan: RecallScan): void {
  const { replaced, current } = scan
  scan.replaced = {
    hits: [...replaced.hits, ...current.hits].slice(-MAX_ENTRIES),
    count: replaced.count + current.count,
    searched: replaced.searched + current.searched,
    skipped: replaced.skipped + current.skipped,
  }
  scan.current = emptySegment()
}

function rememberCall(scan: RecallScan, id: string, call: Call): void {
  takeCall(scan, id)
  scan.calls.set(id, call)
  scan.openCallChars += call.text.length
  const line = call.text.toLowerCase()
  if (scan.needles.some((n) => line.includes(n))) scan.callsWithNeedle.add(id)
  while (scan.calls.size > MAX_OPEN_CALLS || scan.openCallChars > MAX_OPEN_CALL_CHARS) {
    takeCall(scan, scan.calls.keys().next().value as string)
  }
}

function takeCall(scan: RecallScan, id: string): Call | undefined {
  const call = scan.calls.get(id)
  if (call === undefined) return undefined
  scan.calls.delete(id)
  scan.callsWithNeedle.delete(id)
  scan.openCallChars -= call.text.length
  return call
}

/** Whether a line no needle is in holds the result of a call whose line one is in. */
function holdsNeededResult(scan: RecallScan, line: string): boolean {
  for (const id of scan.callsWithNeedle) if (line.includes(id)) return true
  return false
}

function takeLine(scan: RecallScan, line: string): void {
  const isUser = line.includes('"type":"user"')
  const isAssistant = !isUser && line.includes('"type":"assistant"')
  if (!isUser && !isAssistant) {
    if (line.includes('"compact_boundary"') && lineRecordOf(line).kind === 'boundary') {
      scan.boundaries++
      mergeCurrent(scan)
    }
    return
  }
  const lower = line.toLowerCase()
  const hasNeedle = scan.rawNeedles.some((n) => lower.includes(n))
  if (isAssistant) {
    if (!hasNeedle && !line.includes('"tool_use"')) return countSearched(scan, line)
    const record = lineRecordOf(line)
    if (record.kind !== 'calls') return
    scan.current.searched++
    for (const [id, call] of record.calls) rememberCall(scan, id, call)
    if (hasNeedle) for (const entry of record.entries) consider(scan, entry)
    return
  }
  if (!hasNeedle && !holdsNeededResult(scan, line)) return countSearched(scan, line)
  const record = lineRecordOf(line)
  if (record.kind !== 'results') return
  scan.current.searched++
  for (const piece of record.results) {
    const call = takeCall(scan, piece.id)
    if (call?.tool === RECALL_TOOL) continue
    const status = statusOf(call, piece)
    consider(scan, { kind: 'result', call: call?.text ?? 'a tool call made before the part searched', ...(status !== undefined ? { status } : {}), text: piece.text, ...(piece.at ? { at: piece.at } : {}) })
  }
  if (hasNeedle) for (const entry of record.entries) consider(scan, entry)
}

/** A message line skipped unparsed still counts as searched (an engine note inside one is rare). */
function countSearched(scan: RecallScan, line: string): void {
  if (!line.includes('"isMeta":true')) scan.current.searched++
}

function consider(scan: RecallScan, entry: Entry): void {
  const label = entry.kind === 'result' ? entry.call : entry.by
  const text = entry.text.toLowerCase()
  const head = entry.kind === 'result' ? label.toLowerCase() : ''
  for (const needle of scan.needles) if (!text.includes(needle) && !head.includes(needle)) return
  // The longest needle found in the text centres the window; one only in the call's line leaves it at the start.
  const needle = scan.needles.find((n) => text.includes(n))
  const focus = needle === undefined ? 0 : text.indexOf(needle)
  const segment = scan.current
  segment.count++
  segment.hits.push(hitOf(entry, label, focus, needle))
  if (segment.hits.length > MAX_ENTRIES) segment.hits.shift()
}

function hitOf(entry: Entry, label: string, focus: number, needle: string | undefined): Hit {
  const { text } = entry
  const windowFrom = Math.max(0, Math.min(focus + Math.floor((needle?.length ?? 0) / 2) - WINDOW_CHARS / 2, text.length - WINDOW_CHARS))
  let from = Math.max(0, windowFrom - MASK_MARGIN_CHARS)
  let to = Math.min(text.length, windowFrom + WINDOW_CHARS + MASK_MARGIN_CHARS)
  // Never half a character at either edge.
  if (from > 0 && isLowSurrogate(text.charCodeAt(from))) from--
  if (to < text.length && isLowSurrogate(text.charCodeAt(to))) to++
  return {
    kind: entry.kind,
    label,
    ...(needle !== undefined ? { focus: needle } : {}),
    ...(entry.kind === 'result' && entry.status !== undefined ? { status: entry.status } : {}),
    ...(entry.at !== undefined ? { at: entry.at } : {}),
    excerpt: text.slice(from, to),
    windowStart: windowFrom - from,
    excerptStart: from,
    textLength: text.length,
  }
}
