// The recall tool: what the model reads of it (its name, description and input
// schema), its input parsed once at the boundary into the words (or the one
// exact string) a transcript entry must hold, whom it answers, and the one
// line that tells a new context to use it. recall-steps.ts answers its calls;
// tests/support/recall-answer.ts runs the same steps for callers outside the
// engine (the fork-eval). The model writes the input, so every bound is
// checked before any transcript text is looked at.

/** The recall tool's own full name: its calls and results are never searched,
 * so an answer never returns an earlier answer. */
export const RECALL_TOOL = 'mcp__compact-handoff__recall'

/** The short name `$.tool.register` takes; the model calls `RECALL_TOOL`. */
export const RECALL_TOOL_NAME = 'recall'

/** What the model reads of the tool (kept short: it is sent with every
 * request once the tool is listed). */
export const RECALL_DESCRIPTION = [
  "Search what compact-handoff's handoffs and compactions took out of this conversation (this session's own transcript) and get the matching tool results and messages back verbatim: for a tool result its call, exit status and about 2,000 characters of output around the match; newest first, at most 5, credentials masked.",
  "Use it for a detail the handoff lacks (an exact error, a path seen in search output, a value, an exit status) instead of guessing or running the command again.",
].join(' ')

export const RECALL_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'Words you expect, all of which must occur (any order, any letter case), or an exact string in double quotes.' },
  },
  required: ['query'],
  additionalProperties: false,
} as const

/** A longer query is refused, not cut: a cut query matches something else,
 * and a few words or one error line find what the handoff lacks. */
export const MAX_QUERY_CHARS = 500

/** More words than this are refused: each is one pass over every candidate entry. */
export const MAX_QUERY_WORDS = 8

/** `words`: each must occur in an entry, in any order and letter case;
 * `exact`: the one string in double quotes, as one piece (letter case aside). */
export type RecallQuery = { kind: 'words'; words: readonly string[] } | { kind: 'exact'; text: string }

export type ParsedQuery = { query: RecallQuery } | { refusal: string }

const EXAMPLE = 'for example an error code, a file name or a word of a command\'s output'

/** The query the tool's `input` asks for, or why there is none. */
export function recallQueryOf(input: unknown): ParsedQuery {
  const raw = typeof input === 'object' && input !== null ? (input as { query?: unknown }).query : undefined
  if (typeof raw !== 'string' || raw.trim() === '') {
    return { refusal: `recall needs a query: one or more words you expect in the earlier output or messages (${EXAMPLE}), or an exact string in double quotes. Nothing was searched.` }
  }
  if (raw.length > MAX_QUERY_CHARS) {
    return { refusal: `recall takes a query of at most ${MAX_QUERY_CHARS} characters, and this one has ${raw.length}: give a few words you expect, or a short exact string in double quotes. Nothing was searched.` }
  }
  const text = raw.trim()
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    const exact = text.slice(1, -1)
    if (exact.trim() === '') return { refusal: 'recall was given an empty exact string: put the string you expect between the double quotes. Nothing was searched.' }
    return { query: { kind: 'exact', text: exact } }
  }
  // Told apart by letter case alone, two words are one.
  const seen = new Set<string>()
  const words = text.split(/\s+/).filter((w) => !seen.has(w.toLowerCase()) && seen.add(w.toLowerCase()) !== undefined)
  if (words.length > MAX_QUERY_WORDS) {
    return { refusal: `recall takes at most ${MAX_QUERY_WORDS} words, and this query has ${words.length}: keep the ones you are surest of, or give an exact string in double quotes. Nothing was searched.` }
  }
  return { query: { kind: 'words', words } }
}

/** The pieces an entry must hold, lower-cased, longest first (the longest is
 * the likeliest to be rare, so an entry's window centres on it). */
export function needlesOf(query: RecallQuery): string[] {
  const pieces = (query.kind === 'exact' ? [query.text] : query.words).map((piece) => piece.toLowerCase())
  return pieces.sort((a, b) => b.length - a.length)
}

/** The query as the answer quotes it back. */
export function queryTextOf(query: RecallQuery): string {
  return query.kind === 'exact' ? `"${query.text}"` : query.words.join(' ')
}

/** Who raised a call of the tool: the loop it runs in (`agentId`, absent on
 * the main loop) and the plugin whose hook raised it (`next.origin.plugin`:
 * `'engine'` for the model's own call, a plugin's name for its `$.tool.call`,
 * `hook:<event>` for a settings hook's). */
export type RecallCaller = { agentId: string | undefined; plugin: string }

/** Why recall does not answer `caller`, or undefined for the model's own call
 * in the main conversation. Only there did a handoff or a compaction take
 * something out: a subagent never had what the main conversation lost, and a
 * plugin's call (which the engine runs in the main loop) is not the model
 * asking for it, so neither is answered from the main transcript nor counted
 * by the meter as the new context's recall. */
export function recallCallerRefusalOf(caller: RecallCaller): string | undefined {
  if (caller.plugin !== 'engine') {
    return `recall searched nothing: it answers only the model's own calls in the main conversation, and this call was raised by ${caller.plugin}.`
  }
  if (caller.agentId !== undefined) {
    return "recall searched nothing: it answers only the main conversation, whose earlier part compact-handoff's handoffs took out; a subagent never had that part. Work from your task and your own tool results, or say in your answer what you are missing."
  }
  return undefined
}

/** The one line a stub or a summary gives the next context, in place of the
 * transcript's grep advice: a transcript line holds a tool result's whole
 * output (a 63,735-character line in a short session), so a grep hit pours it
 * all into the context. `transcriptPath` names where the conversation is kept
 * (a summary's own text already names it). */
export function recallLineOf(transcriptPath?: string): string {
  const kept = transcriptPath === undefined ? '' : ` (the whole conversation is kept in ${transcriptPath}; never read or grep that file whole)`
  return `For a detail the handoff lacks (an exact error, a path seen in output, a value, an exit status), call the tool ${RECALL_TOOL} with a word you expect instead of guessing or running it again: it brings back the earlier tool output or message verbatim${kept}.`
}
