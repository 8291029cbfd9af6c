// What the recall tool was asked: its input, parsed once at the boundary into
// the words (or the one exact string) a transcript entry must hold, or the
// short answer that says what was wrong with it. The model writes the input,
// so every bound is checked before any transcript text is looked at.

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
