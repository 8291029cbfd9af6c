// What one line of the engine's session transcript holds, for recall: the
// transcript is JSONL, one record a line (Claude Code 2.1.332, seen live). A
// `user` record holds what the person typed, a compaction's summary or stub
// (`isCompactSummary`), or tool results (`tool_result` blocks, each paired with
// its call by `tool_use_id`); an `assistant` record holds Claude's text and
// its tool calls; a `system` record with subtype `compact_boundary` marks
// where a compaction (the engine's, a fork's handoff or a swap alike) replaced
// the conversation. Every other record (request blobs, prompt snapshots,
// attachments, modes) is the engine's own bookkeeping and is never searched.
import { exitCodeOf } from '../facts/facts.js'
import { headOf } from '../text/text-clip.js'
import { MASK_SEAM_REACH_CHARS } from '../text/mask-pieces.js'

/** A call's line is cut to this many characters: it names the call, the window shows its output. */
export const MAX_CALL_CHARS = 200

/** Of a call's text, what is kept for its line: the MAX_CALL_CHARS shown and
 * the longest credential that may start inside them (a password in a URL, a
 * PEM block in a heredoc), so the line is masked before it is cut. */
export const MAX_CALL_KEPT_CHARS = MAX_CALL_CHARS + MASK_SEAM_REACH_CHARS

/** A tool call as its result's entry names it: its text as written (not yet
 * masked nor cut: `callLineOf` cuts it once masked), and its tool. */
export type Call = { tool: string; text: string }

/** A searchable piece of the conversation: a tool result (`call` its call's
 * text, as `Call`) or a message (`by` who wrote it), with its text. */
export type Entry = { kind: 'result'; call: string; status?: string; text: string; at?: string } | { kind: 'message'; by: string; text: string; at?: string }

/** What one transcript line holds for recall. */
export type LineRecord = { kind: 'boundary' } | { kind: 'calls'; calls: ReadonlyMap<string, Call>; entries: Entry[] } | { kind: 'results'; results: ResultPiece[]; entries: Entry[] } | { kind: 'none' }

/** A tool result before its call is looked up. */
export type ResultPiece = { id: string; isError: boolean; text: string; isBackground: boolean; at?: string }

type Json = Record<string, unknown>

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const PATH_TOOLS = new Set(['Read', 'Write', 'Edit', 'NotebookEdit'])

/** A call's text: what the person would recognise it by (the command, the
 * path, the pattern), its head of MAX_CALL_KEPT_CHARS. */
export function callTextOf(tool: string, input: unknown): string {
  const args = isObject(input) ? input : {}
  const kept = (text: string) => headOf(text, MAX_CALL_KEPT_CHARS)
  if (tool === 'Bash' && typeof args.command === 'string') return kept(`Bash: ${args.command}`)
  if (PATH_TOOLS.has(tool) && typeof args.file_path === 'string') return kept(`${tool}: ${args.file_path}`)
  if ((tool === 'Grep' || tool === 'Glob') && typeof args.pattern === 'string') {
    return kept(`${tool}: ${args.pattern}${typeof args.path === 'string' ? ` in ${args.path}` : ''}`)
  }
  // Stringified whole only to be cut: a tool's input is small, a Write's content aside, and that is linear.
  return kept(`${tool}: ${JSON.stringify(args)}`)
}

/** A call's line as an entry is named by, from its masked text: on one line, cut to MAX_CALL_CHARS. */
export function callLineOf(maskedCallText: string): string {
  // Split, not one pattern around the line breaks: `\s*` before a break backtracks over a long run of blanks.
  const lines = maskedCallText.split(/[\r\n]+/)
  const line = lines.map((l, i) => (i === 0 ? l : l.trimStart())).map((l, i) => (i === lines.length - 1 ? l : l.trimEnd())).filter((l, i) => l !== '' || i === 0).join(' ')
  return line.length <= MAX_CALL_CHARS ? line : `${headOf(line, MAX_CALL_CHARS)}…`
}

/** How a call ended, as the facts say it: a command's exit status, a failure, or nothing to say. */
export function statusOf(call: Call | undefined, piece: ResultPiece): string | undefined {
  if (call?.tool === 'Bash') {
    if (piece.isBackground) return 'moved to the background, no exit status yet'
    const code = exitCodeOf({ ...(piece.isError ? { isError: true as const } : {}), text: piece.text })
    return code === null ? 'failed' : `exit ${code}`
  }
  return piece.isError ? 'failed' : undefined
}

function blockTextOf(block: unknown): string | undefined {
  if (!isObject(block)) return undefined
  if (block.type === 'text' && typeof block.text === 'string') return block.text
  if (block.type === 'image') return '[an image]'
  return undefined
}

/** A tool result's text as the model read it: a string, or its text blocks joined. */
function resultTextOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map(blockTextOf).filter((t): t is string => t !== undefined).join('\n')
}

function atOf(record: Json): string | undefined {
  return typeof record.timestamp === 'string' ? record.timestamp : undefined
}

/** The one message a line's texts make (none without a text), by `by`. */
function messagesOf(by: string, texts: readonly string[], at: string | undefined): Entry[] {
  return texts.length === 0 ? [] : [{ kind: 'message', by, text: texts.join('\n'), ...(at ? { at } : {}) }]
}

function userRecordOf(record: Json, content: unknown): LineRecord {
  const at = atOf(record)
  const by = record.isCompactSummary === true ? 'the summary a compaction left' : 'the user'
  if (typeof content === 'string') return { kind: 'results', results: [], entries: messagesOf(by, content.trim() === '' ? [] : [content], at) }
  if (!Array.isArray(content)) return { kind: 'none' }
  const results: ResultPiece[] = []
  const texts: string[] = []
  const record2 = isObject(record.toolUseResult) ? record.toolUseResult : undefined
  for (const block of content) {
    if (!isObject(block)) continue
    if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
      results.push({
        id: block.tool_use_id,
        isError: block.is_error === true,
        text: resultTextOf(block.content),
        isBackground: typeof record2?.backgroundTaskId === 'string',
        ...(at ? { at } : {}),
      })
    } else {
      const text = blockTextOf(block)
      if (text !== undefined && text.trim() !== '') texts.push(text)
    }
  }
  return { kind: 'results', results, entries: messagesOf(by, texts, at) }
}

function assistantRecordOf(record: Json, content: unknown): LineRecord {
  if (!Array.isArray(content)) return { kind: 'none' }
  const calls = new Map<string, Call>()
  const texts: string[] = []
  for (const block of content) {
    if (!isObject(block)) continue
    if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') calls.set(block.id, { tool: block.name, text: callTextOf(block.name, block.input) })
    else if (block.type === 'text' && typeof block.text === 'string' && block.text.trim() !== '') texts.push(block.text)
  }
  return { kind: 'calls', calls, entries: messagesOf('Claude', texts, atOf(record)) }
}

/** What a transcript line holds; anything that does not parse, or is another
 * loop's (a subagent's `isSidechain`) or the engine's own note (`isMeta`), holds nothing. */
export function lineRecordOf(line: string): LineRecord {
  let record: unknown
  try {
    record = JSON.parse(line)
  } catch {
    return { kind: 'none' }
  }
  if (!isObject(record) || record.isSidechain === true) return { kind: 'none' }
  if (record.type === 'system' && record.subtype === 'compact_boundary') return { kind: 'boundary' }
  if (record.isMeta === true || !isObject(record.message)) return { kind: 'none' }
  if (record.type === 'user') return userRecordOf(record, record.message.content)
  if (record.type === 'assistant') return assistantRecordOf(record, record.message.content)
  return { kind: 'none' }
}
