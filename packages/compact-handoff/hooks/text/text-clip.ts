// Cutting a text to a length, for what a record keeps and for what the engine's
// masking takes, and the text of a failure. Counted in UTF-16 code units (`text.length`), the unit the
// engine's own limits use.

/** A command line longer than this is cut (its head kept), visibly: in the
 * work's facts and in what still runs alike. */
export const MAX_COMMAND_CHARS = 200

/** The engine's `$.session.redact` rejects a longer text (its declarations). */
export const MAX_REDACT_CHARS = 100_000

export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

/** The first `maxChars` code units of `text`, one fewer when the cut would
 * split a surrogate pair (half a character is no character). */
export function headOf(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  return text.slice(0, isHighSurrogate(text.charCodeAt(maxChars - 1)) ? maxChars - 1 : maxChars)
}

/** `text`, or its head and a mark of the cut when it is longer than `maxChars`. */
export function clippedOf(text: string, maxChars: number): string {
  return text.length > maxChars ? `${headOf(text, maxChars)} […]` : text
}

/** `text` as `$.session.redact` takes it: whole, or the head of a longer one.
 * Every record keeps far less than this of a text's head, and masks before it
 * clips, so a credential is never cut short of the masking. */
export function redactableOf(text: string): string {
  return headOf(text, MAX_REDACT_CHARS)
}

/** `head` and then as many whole `lines` as fit in `maxChars` (newlines
 * counted), with the mark `moreMarkOf` gives after the last one kept when any
 * is left out: a stub's section never grows past its bound and the mark's,
 * and says what it cut. The mark is told how many lines (the last ones) it
 * stands for, so it can name what they held. */
export function boundedSectionOf(head: string, lines: readonly string[], maxChars: number, moreMarkOf: (leftOut: number) => string): string {
  const kept = [head]
  let size = head.length
  for (const [i, line] of lines.entries()) {
    if (size + line.length + 1 > maxChars) {
      kept.push(moreMarkOf(lines.length - i))
      break
    }
    kept.push(line)
    size += line.length + 1
  }
  return kept.join('\n')
}

/** `label` and as many whole `items` (joined by ", ") as fit in `maxChars`,
 * then how many were left out: a list line that says what it cut. */
export function boundedListOf(label: string, items: readonly string[], maxChars: number): string {
  let line = label
  for (const [i, item] of items.entries()) {
    const next = `${line}${i === 0 ? '' : ', '}${item}`
    if (next.length > maxChars && i > 0) return `${line}, and ${items.length - i} more`
    line = clippedOf(next, maxChars)
  }
  return line
}

/** The mark a text shortened from the left begins with. */
export const LEFT_CUT_MARK = '…'

/** `path` in at most `maxChars`: whole, or its tail after {@link LEFT_CUT_MARK},
 * cut at a folder separator where one falls within the room (`…/name.md`),
 * so the file's own name, the words that tell it apart, is what stays. */
export function tailOf(path: string, maxChars: number): string {
  if (path.length <= maxChars) return path
  const room = Math.max(0, maxChars - LEFT_CUT_MARK.length)
  let tail = path.slice(path.length - room)
  if (isLowSurrogate(tail.charCodeAt(0))) tail = tail.slice(1)
  const slash = tail.search(/[\\/]/)
  return `${LEFT_CUT_MARK}${slash > 0 ? tail.slice(slash) : tail}`
}

/** The longest run of backticks in `text`: a fence one longer (at least three)
 * is one nothing in the text can close. One pass. */
export function longestBacktickRunOf(text: string): number {
  let longest = 0
  let run = 0
  for (let i = 0; i < text.length; i++) {
    run = text.charCodeAt(i) === 96 ? run + 1 : 0
    if (run > longest) longest = run
  }
  return longest
}

/** What a rejection says: the engine rejects with an Error, a caller's throw may be anything. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
