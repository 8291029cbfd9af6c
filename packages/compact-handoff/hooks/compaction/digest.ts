// The digest of a conversation too long for one request: once the API refuses
// the whole conversation ("prompt is too long"), every request that carries it
// fails (the fork, the skill's turn, the engine's summary), so code builds a
// bounded stand-in from the transcript: the sections code composed, then the
// newest entries verbatim (the user's prompts first among them), each tool
// call with its outcome and its output's head and tail. Pure and linear in the
// transcript's size: the walk goes from the newest message and stops once the
// budget is spent, counting what it leaves out. Two phases, so the engine's
// masking sits between them (digest-steps.ts): the plan takes each text's
// window, wider than it keeps so the masking sees whole lines and never a
// credential cut short, then the text cuts each masked window to its size.
import { exitCodeOf } from '../facts/facts.js'
import { MAX_REDACT_CHARS, headOf, isLowSurrogate, longestBacktickRunOf } from '../text/text-clip.js'

/** A message as session.compact's e.messages holds it (SessionMessage subset). */
export type DigestMessage = {
  role: 'user' | 'assistant'
  text: string
  toolUses?: readonly { tool_use_id: string; tool: string; input: Record<string, unknown>; text?: string; isError?: true }[]
  toolResults?: readonly { tool_use_id: string; text: string; isError: boolean }[]
}

export type DigestInput = {
  messages: readonly DigestMessage[]
  /** Sections code already composed and masked (the person's words, the facts, the latest step, what still runs, the plan and skills carried), in order, kept whole and first: those that fit half the budget, the rest counted. */
  leading: readonly string[]
  /** The recall tool's line (recall/recall.ts recallLineOf), or undefined when the session keeps no transcript. */
  recallLine?: string
}

/** How every digest begins; tests and the mock API find a digest in a request by it. */
export const DIGEST_OPENING = 'A digest of the conversation, built by compact-handoff code'

/** The API's window is counted in tokens; about 4 characters make a token in
 * English text and code, so a character budget of a quarter of the window
 * leaves three quarters for the request's system prompt, tools and answer. */
const CHARS_PER_TOKEN = 4
const WINDOW_SHARE = 4

/** A user prompt kept whole up to this, in UTF-16 code units; a longer one
 * (a pasted log) keeps its head and tail: the user's words matter most. */
export const MAX_PROMPT_CHARS = 8_000
/** An assistant message kept whole up to this; a longer one, its head and tail. */
export const MAX_ASSISTANT_CHARS = 4_000
/** A tool call's output kept whole up to this; a longer one, its head and its
 * tail (where a test run's summary and an error's last frames are). */
export const MAX_OUTPUT_CHARS = 3_000
/** A tool call's command, path or arguments, on one line, a cut marked. */
export const MAX_CALL_CHARS = 300
/** The share of a cut text's room its head takes, per kind: the user's
 * request opens with what they ask; an output ends with its verdict. */
const PROMPT_HEAD_SHARE = 0.75
const ASSISTANT_HEAD_SHARE = 0.75
const OUTPUT_HEAD_SHARE = 1 / 3
/** The share of the budget the leading sections may take: at least half is
 * the conversation's, however large the skills or the plan carried are. */
const LEADING_SHARE = 0.5
/** The share of the entries' room set aside for the user's prompts, newest
 * first, before any other entry: a prompt older than the entries shown still
 * shows, up to this share. */
const PROMPTS_SHARE = 0.5
/** How much more than it keeps is taken to be masked, so the masking sees
 * whole lines around what is kept and a credential is never cut short of the
 * pattern that finds it before it is masked. */
export const WINDOW_FACTOR = 4
/** An entry's label beyond its message's place, its tool's name, its call and its outcome, at most, in UTF-16 code units. */
const LABEL_FRAME_CHARS = 40
/** The line before a tool's output, beyond the count it names, at most. */
const OUTPUT_LABEL_CHARS = 70
/** A cut's notice inside a fence, beyond the count it names, at most. */
const NOTICE_FRAME_CHARS = 40
const PART_GAP = '\n\n'
/** A tool's name as shown; names are short, a longer one is cut. */
const MAX_TOOL_NAME_CHARS = 100

/** A quarter of a window of `windowTokens` tokens, at 4 characters a token;
 * none for a window that is no number (a budget that is no number would bound nothing). */
export function digestBudgetCharsOf(windowTokens: number): number {
  return Number.isFinite(windowTokens) ? Math.max(0, Math.floor((windowTokens * CHARS_PER_TOKEN) / WINDOW_SHARE)) : 0
}

/** One text the digest shows: the windows it is masked in (indexes into the
 * plan's `windows`: one holding it whole, or its head's and its tail's), its
 * length before masking, and how much of it is kept. */
export type PlannedText = {
  windows: readonly [number] | readonly [number, number]
  wholeChars: number
  maxChars: number
  headShare: number
  /** Longer than the longest run of backticks in its windows, at least 3: a fence nothing in the text can close. */
  fenceChars: number
}

export type PlannedEntry =
  | { kind: 'prompt' | 'assistant'; index: number; text: PlannedText }
  | { kind: 'call'; index: number; tool: string; call: PlannedText; outcome: string; output?: PlannedText }

export type LeftOut = { prompts: number; assistant: number; calls: number }

/** Phase 1: what the digest shows, newest first within the budget; each text a window wider than it keeps (line starts), unmasked. */
export type DigestPlan = {
  budgetChars: number
  leading: readonly string[]
  leadingLeftOut: number
  recallLine?: string
  messageCount: number
  /** Newest first. */
  entries: readonly PlannedEntry[]
  leftOut: LeftOut
  /** The texts to mask with $.session.redact, in order, each at most MAX_REDACT_CHARS (text/text-clip.ts); each entry names its own by index. */
  windows: readonly string[]
}

/** A digest: its text, never longer than the plan's budget. */
export type Digest = { text: string; shownEntries: number; leftOutEntries: number; chars: number }

function hasText(text: string): boolean {
  return text.trim() !== ''
}

/** The last `maxChars` code units of `text`, one fewer when the cut would split a surrogate pair. */
function endOf(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  const end = text.slice(text.length - maxChars)
  return isLowSurrogate(end.charCodeAt(0)) ? end.slice(1) : end
}

/** The first `maxChars` of `text`, ending at a line's edge when one falls in its second half. */
function headAtLineOf(text: string, maxChars: number): string {
  const head = headOf(text, maxChars)
  const lineEnd = head.length < text.length ? head.lastIndexOf('\n') : -1
  return lineEnd >= head.length / 2 ? head.slice(0, lineEnd) : head
}

/** The last `maxChars` of `text`, starting at a line's edge when one falls in its first half. */
export function tailAtLineOf(text: string, maxChars: number): string {
  const tail = endOf(text, maxChars)
  const lineStart = tail.length < text.length ? tail.indexOf('\n') : -1
  return lineStart >= 0 && lineStart < tail.length / 2 ? tail.slice(lineStart + 1) : tail
}

/** What a tool call was asked: a Bash command, a file's path, a pattern and
 * where it was looked for, a URL, or else the arguments as JSON. */
export function callTextOf(input: Record<string, unknown>): string {
  const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)
  const path = textOf(input.path)
  const pattern = textOf(input.pattern)
  const sought = pattern !== undefined && path !== undefined ? `${pattern} in ${path}` : (pattern ?? path)
  // JSON of an object the engine parsed is linear in its size, taken once per shown call.
  return textOf(input.command) ?? textOf(input.file_path) ?? sought ?? textOf(input.url) ?? JSON.stringify(input)
}

/**
 * Plans one text: its windows pushed onto `windows`, masked whole when that
 * is short enough, else a head window and a tail window, each WINDOW_FACTOR
 * times what it keeps, ending (starting) at a line's edge where one falls in
 * its outer half; a window of one long line keeps its cut, which lies three
 * times the kept part away from what is kept.
 */
function planText(windows: string[], text: string, maxChars: number, headShare: number): PlannedText {
  const headChars = Math.ceil(maxChars * headShare)
  const tailChars = maxChars - headChars
  const wideHead = WINDOW_FACTOR * headChars
  const wideTail = WINDOW_FACTOR * tailChars
  let planned: readonly [number] | readonly [number, number]
  let fenceRun: number
  if (text.length <= Math.min(wideHead + wideTail, MAX_REDACT_CHARS)) {
    planned = [windows.push(text) - 1]
    fenceRun = longestBacktickRunOf(text)
  } else {
    const head = headAtLineOf(text, wideHead)
    const tail = tailAtLineOf(text, wideTail)
    planned = [windows.push(head) - 1, windows.push(tail) - 1]
    fenceRun = Math.max(longestBacktickRunOf(head), longestBacktickRunOf(tail))
  }
  return { windows: planned, wholeChars: text.length, maxChars, headShare, fenceChars: Math.max(3, fenceRun + 1) }
}

function digitsOf(count: number): number {
  return String(Math.max(0, Math.ceil(count))).length
}

/** The most a planned text adds to the digest in its fence: what it keeps,
 * the fences, and a cut's notice when it is cut. The masking can lengthen a
 * text planned whole past its size ("[REDACTED]" for a short token), and so
 * add a notice; digestTextOf then leaves the oldest entry out. */
function fencedBoundOf(text: PlannedText): number {
  const notice = text.wholeChars > text.maxChars ? NOTICE_FRAME_CHARS + digitsOf(text.wholeChars) : 0
  return Math.min(text.wholeChars, text.maxChars) + 2 * (text.fenceChars + 1) + notice
}

/** The most an entry adds to the digest, the gap before it included: digestTextOf keeps to it, bar the masking's lengthening. */
function entryBoundOf(entry: PlannedEntry, messageCount: number): number {
  const label = LABEL_FRAME_CHARS + whereOf(entry.index, messageCount).length + PART_GAP.length
  if (entry.kind !== 'call') return label + fencedBoundOf(entry.text)
  const output = entry.output === undefined ? 0 : OUTPUT_LABEL_CHARS + digitsOf(entry.output.wholeChars) + fencedBoundOf(entry.output)
  return label + entry.tool.length + MAX_CALL_CHARS + CALL_CUT_MARK.length + entry.outcome.length + output
}

function whereOf(index: number, messageCount: number): string {
  return `message ${index + 1} of ${messageCount}`
}

const CALL_CUT_MARK = ' […]'

type ToolUse = NonNullable<DigestMessage['toolUses']>[number]
type ToolResult = NonNullable<DigestMessage['toolResults']>[number]

/** A call's outcome as shown: a Bash call's exit status (facts.ts reads it), `error` or `done`. */
export function outcomeOf(tool: string, text: string | undefined, isError: boolean): string {
  if (text === undefined) return 'no result in the transcript yet'
  if (tool === 'Bash') {
    const code = exitCodeOf(isError ? { isError: true, text } : {})
    return code === null ? 'failed' : `exit ${code}`
  }
  return isError ? 'error' : 'done'
}

function callEntryOf(windows: string[], index: number, tool: string, call: string, text: string | undefined, isError: boolean): PlannedEntry {
  const shownTool = headOf(tool, MAX_TOOL_NAME_CHARS)
  const planned = planText(windows, headOf(call, WINDOW_FACTOR * MAX_CALL_CHARS), MAX_CALL_CHARS, 1)
  const output = text === undefined ? {} : { output: planText(windows, text, MAX_OUTPUT_CHARS, OUTPUT_HEAD_SHARE) }
  return { kind: 'call', index, tool: shownTool, call: planned, outcome: outcomeOf(tool, text, isError), ...output }
}

/** The results `message` carries when it is a user message, by their call's id. */
export function resultsByIdOf(message: Omit<DigestMessage, 'text'> | undefined): Map<string, ToolResult> {
  return new Map(message?.role === 'user' ? (message.toolResults ?? []).map((result) => [result.tool_use_id, result] as const) : [])
}

/** The results in the user message at `index` whose call is not in the assistant message before it. */
export function orphanResultsOf(messages: readonly Omit<DigestMessage, 'text'>[], index: number): ToolResult[] {
  const results = messages[index]?.toolResults ?? []
  if (results.length === 0) return []
  const before = messages[index - 1]
  const ids = new Set((before?.role === 'assistant' ? (before.toolUses ?? []) : []).map((use: ToolUse) => use.tool_use_id))
  return results.filter((result) => !ids.has(result.tool_use_id))
}

/** Every entry of the message at `index`, newest first, as `visit` is handed
 * them, until it answers false: the user's prompt or the assistant's text
 * and its calls, in the order the message holds them, reversed. */
function entriesOfMessage(messages: readonly DigestMessage[], index: number, windows: string[], visit: (entry: () => PlannedEntry, kind: PlannedEntry['kind']) => boolean): void {
  const message = messages[index]!
  if (message.role === 'user') {
    if (hasText(message.text) && !visit(() => ({ kind: 'prompt', index, text: planText(windows, message.text, MAX_PROMPT_CHARS, PROMPT_HEAD_SHARE) }), 'prompt')) return
    const orphans = orphanResultsOf(messages, index)
    for (let i = orphans.length - 1; i >= 0; i--) {
      const result = orphans[i]!
      if (!visit(() => callEntryOf(windows, index, 'a tool', `call ${result.tool_use_id}`, result.text, result.isError), 'call')) return
    }
    return
  }
  const uses = message.toolUses ?? []
  const results = resultsByIdOf(uses.length > 0 ? messages[index + 1] : undefined)
  for (let i = uses.length - 1; i >= 0; i--) {
    const use = uses[i]!
    const result = results.get(use.tool_use_id)
    const text = result?.text ?? use.text
    const isError = result?.isError ?? use.isError === true
    if (!visit(() => callEntryOf(windows, index, use.tool, callTextOf(use.input), text, isError), 'call')) return
  }
  if (hasText(message.text)) visit(() => ({ kind: 'assistant', index, text: planText(windows, message.text, MAX_ASSISTANT_CHARS, ASSISTANT_HEAD_SHARE) }), 'assistant')
}

/** How many entries of each kind the messages hold, counted without reading their texts beyond a first non-blank character. */
function countsOf(messages: readonly DigestMessage[]): LeftOut {
  const counts = { prompts: 0, assistant: 0, calls: 0 }
  for (const [index, message] of messages.entries()) {
    if (message.role === 'user') {
      if (hasText(message.text)) counts.prompts++
      counts.calls += orphanResultsOf(messages, index).length
    } else {
      if (hasText(message.text)) counts.assistant++
      counts.calls += message.toolUses?.length ?? 0
    }
  }
  return counts
}

const KIND_COUNT: Record<PlannedEntry['kind'], keyof LeftOut> = { prompt: 'prompts', assistant: 'assistant', call: 'calls' }

/** The leading sections that fit in `roomChars`, in order, each whole; one
 * that does not fit is left out and the next ones still tried. */
function leadingOf(sections: readonly string[], roomChars: number): { leading: string[]; leftOut: number } {
  const leading: string[] = []
  let size = 0
  for (const section of sections) {
    if (size + section.length + PART_GAP.length > roomChars) continue
    leading.push(section)
    size += section.length + PART_GAP.length
  }
  return { leading, leftOut: sections.length - leading.length }
}

function leadingLeftOutLineOf(count: number): string {
  return `(${count} of the sections code composed ${count === 1 ? 'was' : 'were'} left out here: too long for this digest, which keeps room for the conversation)`
}

/**
 * Phase 1: the plan of the digest of `input` within `budgetChars`. The user's
 * prompts are taken first, newest first, up to their share of the room; then
 * every entry newest first, until the next one would not fit; the oldest are
 * the ones left out, and counted. Each text taken is one or two windows to
 * mask; only the texts taken are read beyond a first character.
 */
export function digestPlanOf(input: DigestInput, budgetChars: number): DigestPlan {
  const { messages } = input
  const windows: string[] = []
  const total = countsOf(messages)
  const { leading, leftOut: leadingLeftOut } = leadingOf(input.leading, Math.floor(budgetChars * LEADING_SHARE))
  const parts = [OPENING, ...leading, ...(leadingLeftOut > 0 ? [leadingLeftOutLineOf(leadingLeftOut)] : []), ENTRIES_HEAD]
  const fixed = parts.reduce((sum, part) => sum + part.length + PART_GAP.length, 0) + closingBoundOf(total, input.recallLine)
  let room = Math.max(0, budgetChars - fixed)

  // The user's prompts first: whichever fit in their share are shown, even past where the other entries stop.
  const reserved = new Map<number, PlannedEntry>()
  let oldestReserved = Infinity
  let promptRoom = Math.floor(room * PROMPTS_SHARE)
  for (let index = messages.length - 1; index >= 0 && promptRoom > 0; index--) {
    const message = messages[index]!
    if (message.role !== 'user' || !hasText(message.text)) continue
    const entry: PlannedEntry = { kind: 'prompt', index, text: planText(windows, message.text, MAX_PROMPT_CHARS, PROMPT_HEAD_SHARE) }
    const bound = entryBoundOf(entry, messages.length)
    if (bound > promptRoom) {
      // Its windows are dropped again: only what is shown is masked.
      windows.length = Math.min(...entry.text.windows)
      break
    }
    reserved.set(index, entry)
    oldestReserved = index
    promptRoom -= bound
    room -= bound
  }

  const entries: PlannedEntry[] = []
  const shown = { prompts: 0, assistant: 0, calls: 0 }
  let isFull = false
  for (let index = messages.length - 1; index >= 0; index--) {
    const held = reserved.get(index)
    if (held !== undefined) {
      entries.push(held)
      shown.prompts++
      if (isFull) continue
      // The prompt was counted in its share; the message's other entries (orphan results) follow it.
    }
    if (isFull) {
      if (index < oldestReserved) break
      continue
    }
    entriesOfMessage(messages, index, windows, (entryOf, kind) => {
      if (kind === 'prompt' && held !== undefined) return true
      const mark = windows.length
      const entry = entryOf()
      const bound = entryBoundOf(entry, messages.length)
      if (bound > room) {
        windows.length = mark
        isFull = true
        return false
      }
      room -= bound
      entries.push(entry)
      shown[KIND_COUNT[kind]]++
      return true
    })
  }
  const leftOut = { prompts: total.prompts - shown.prompts, assistant: total.assistant - shown.assistant, calls: total.calls - shown.calls }
  return {
    budgetChars,
    leading,
    leadingLeftOut,
    ...(input.recallLine !== undefined ? { recallLine: input.recallLine } : {}),
    messageCount: messages.length,
    entries,
    leftOut,
    windows,
  }
}

const OPENING = `${DIGEST_OPENING}, not written by a model: the conversation had grown too long for one request to the model, so code took its newest parts verbatim, newest first, and left the oldest out.`

const ENTRIES_HEAD =
  'The conversation itself, newest first. "The user wrote" is the user\'s own message, verbatim; "The assistant wrote" is the assistant\'s own text; "The assistant called" is a tool call with its outcome and its output. Each text is verbatim, cut only where a line says so:'

function leftOutCountOf(leftOut: LeftOut): number {
  return leftOut.prompts + leftOut.assistant + leftOut.calls
}

function closingOf(leftOut: LeftOut, recallLine: string | undefined): string {
  const count = leftOutCountOf(leftOut)
  const parts = `${leftOut.prompts} of the user's messages, ${leftOut.assistant} of the assistant's messages, ${leftOut.calls} tool calls`
  const said = count === 0 ? 'Nothing of the conversation was left out beyond the cuts marked above.' : `${count} older ${count === 1 ? 'entry was' : 'entries were'} left out to fit (${parts}).`
  const recall = count === 0 ? 'The recall tool brings back verbatim whatever was cut' : 'The recall tool brings them back verbatim, as it does whatever was cut above'
  return recallLine === undefined ? said : `${said} ${recall}:\n${recallLine}`
}

/** The closing line's length at most, whatever is dropped later: each count is at most the total's. */
function closingBoundOf(total: LeftOut, recallLine: string | undefined): number {
  const all = leftOutCountOf(total)
  return closingOf({ prompts: all, assistant: all, calls: all }, recallLine).length + 8
}

type Kept = { head: string; tail: string; leftOut: number }

/** A masked text cut to its planned size: whole when it fits, else its head
 * and its tail, each ending or starting at a line's edge when one is within
 * its second half, never between the halves of a surrogate pair. */
function keptOf(text: PlannedText, masked: readonly string[]): Kept {
  const windows = text.windows.map((i) => masked[i] ?? '')
  const headChars = Math.ceil(text.maxChars * text.headShare)
  const tailChars = text.maxChars - headChars
  if (windows.length === 1 && windows[0]!.length <= text.maxChars) return { head: windows[0]!, tail: '', leftOut: 0 }
  const headWindow = windows[0]!
  const tailWindow = windows.length === 1 ? headWindow : windows[1]!
  const head = headAtLineOf(headWindow, headChars)
  const tail = tailAtLineOf(tailWindow, tailChars)
  const whole = windows.length === 1 ? headWindow.length : text.wholeChars
  return { head, tail, leftOut: Math.max(0, whole - head.length - tail.length) }
}

/** `text` without the newlines it ends with: a scan from the end, where a regex would backtrack over each run. */
function withoutTrailingNewlines(text: string): string {
  let end = text.length
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--
  return end === text.length ? text : text.slice(0, end)
}

/** `text` in a fence of `fenceChars` backticks, by default longer than any run in it, so nothing in it can close the fence. */
export function fencedTextOf(text: string, fenceChars = Math.max(3, longestBacktickRunOf(text) + 1)): string {
  const fence = '`'.repeat(fenceChars)
  return `${fence}\n${withoutTrailingNewlines(text)}\n${fence}`
}

function fencedOf(kept: Kept, fenceChars: number): string {
  return fencedTextOf(kept.leftOut === 0 ? kept.head : `${kept.head}\n[… ${kept.leftOut} characters left out here …]\n${kept.tail}`, fenceChars)
}

/** `text` on one line: each run of white space one space, linear. */
export function oneLineOf(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function entryTextOf(entry: PlannedEntry, masked: readonly string[], messageCount: number): string {
  const where = whereOf(entry.index, messageCount)
  if (entry.kind !== 'call') {
    const who = entry.kind === 'prompt' ? 'The user wrote' : 'The assistant wrote'
    const kept = keptOf(entry.text, masked)
    return `--- ${who} (${where}):\n${fencedOf(kept, entry.text.fenceChars)}`
  }
  const call = keptOf(entry.call, masked)
  const callLine = oneLineOf(call.head)
  const shownCall = call.leftOut > 0 || callLine.length > MAX_CALL_CHARS ? `${headOf(callLine, MAX_CALL_CHARS)}${CALL_CUT_MARK}` : callLine
  const lines = [`--- The assistant called ${entry.tool} (${where}): ${shownCall}  → ${entry.outcome}`]
  if (entry.output !== undefined) {
    const output = keptOf(entry.output, masked)
    if (!hasText(output.head) && !hasText(output.tail)) lines.push('(its output was empty)')
    else {
      lines.push(output.leftOut > 0 ? `Its output's head and tail (${output.leftOut} characters between them left out):` : 'Its output:')
      lines.push(fencedOf(output, entry.output.fenceChars))
    }
  }
  return lines.join('\n')
}

/** Phase 2: the digest from the plan and the masked texts (in the order of the plan's windows), each cut to its kept size; never longer than the budget. */
export function digestTextOf(plan: DigestPlan, masked: readonly string[]): Digest {
  const closingRoom = closingBoundOf({ prompts: 0, assistant: 0, calls: leftOutCountOf(plan.leftOut) + plan.entries.length }, plan.recallLine)
  const parts: string[] = []
  let size = 0
  const take = (part: string): boolean => {
    if (size + part.length + PART_GAP.length > plan.budgetChars - closingRoom) return false
    parts.push(part)
    size += part.length + PART_GAP.length
    return true
  }
  if (!take(OPENING)) return { text: '', shownEntries: 0, leftOutEntries: leftOutCountOf(plan.leftOut) + plan.entries.length, chars: 0 }
  let leadingLeftOut = plan.leadingLeftOut
  for (const section of plan.leading) {
    if (!take(section)) leadingLeftOut++
  }
  if (leadingLeftOut > 0) take(leadingLeftOutLineOf(leadingLeftOut))
  let shown = 0
  if (plan.entries.length > 0 && take(ENTRIES_HEAD)) {
    // Masking can lengthen a text a little ("[REDACTED]"): what no longer fits is left out, the oldest first.
    while (shown < plan.entries.length && take(entryTextOf(plan.entries[shown]!, masked, plan.messageCount))) shown++
  }
  const leftOut = { ...plan.leftOut }
  for (const dropped of plan.entries.slice(shown)) leftOut[KIND_COUNT[dropped.kind]]++
  if (plan.messageCount === 0) take('The conversation held no messages yet.')
  const closing = closingOf(leftOut, plan.recallLine)
  const text = [...parts, closing].join(PART_GAP)
  const fitted = text.length <= plan.budgetChars ? text : headOf(text, plan.budgetChars)
  return { text: fitted, shownEntries: shown, leftOutEntries: leftOutCountOf(leftOut), chars: fitted.length }
}
