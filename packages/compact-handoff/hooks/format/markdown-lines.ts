// What one line of Markdown says on its own: a cursor that walks it by
// characters and by columns (a tab counts to the next multiple of four), and
// the markers a line can open with (ATX and setext headings, thematic breaks,
// list items). markdown-blocks.ts decides what the line does to the blocks
// already open. Each function looks at each character a bounded number of
// times, so a long line costs linear time.

const TAB_STOP_COLUMNS = 4

/** An indent of this many columns makes indented code (CommonMark). */
export const CODE_INDENT_COLUMNS = 4

/** Where the scan stands on the current line. `column` counts tabs to the next
 * tab stop; a tab only partly consumed by a container leaves `offset` on it. */
export type Cursor = {
  line: string
  offset: number
  column: number
  nextNonspace: number
  nextNonspaceColumn: number
  indent: number
  isBlank: boolean
  isIndented: boolean
}

export function isSpaceOrTab(char: string | undefined): boolean {
  return char === ' ' || char === '\t'
}

export function findNextNonspace(c: Cursor): void {
  let i = c.offset
  let column = c.column
  for (; i < c.line.length; i++) {
    const char = c.line[i]
    if (char === ' ') column++
    else if (char === '\t') column += TAB_STOP_COLUMNS - (column % TAB_STOP_COLUMNS)
    else break
  }
  c.nextNonspace = i
  c.nextNonspaceColumn = column
  c.indent = column - c.column
  c.isBlank = i >= c.line.length
  c.isIndented = c.indent >= CODE_INDENT_COLUMNS
}

export function advanceNextNonspace(c: Cursor): void {
  c.offset = c.nextNonspace
  c.column = c.nextNonspaceColumn
}

/** Moves `count` characters on, or `count` columns when `byColumns`, where a
 * tab may be consumed in part. */
export function advance(c: Cursor, count: number, byColumns: boolean): void {
  let left = count
  while (left > 0 && c.offset < c.line.length) {
    if (c.line[c.offset] === '\t') {
      const toTabStop = TAB_STOP_COLUMNS - (c.column % TAB_STOP_COLUMNS)
      if (byColumns) {
        const step = Math.min(toTabStop, left)
        c.column += step
        if (step === toTabStop) c.offset++
        left -= step
      } else {
        c.column += toTabStop
        c.offset++
        left--
      }
    } else {
      c.offset++
      c.column++
      left--
    }
  }
}

export function runLength(line: string, from: number, char: string): number {
  let end = from
  while (line[end] === char) end++
  return end - from
}

/** Whether `line` holds only spaces and tabs from index `from` on. */
export function isBlankFrom(line: string, from: number): boolean {
  for (let i = from; i < line.length; i++) if (!isSpaceOrTab(line[i])) return false
  return true
}

/** The index of the first character from `from` on that is not a space or tab. */
export function skipBlanks(s: string, from: number): number {
  let i = from
  while (isSpaceOrTab(s[i])) i++
  return i
}

/** `***`, `---` or `___`, three or more, with only blanks between. */
export function isThematicBreak(line: string, from: number): boolean {
  const char = line[from]
  if (char !== '*' && char !== '-' && char !== '_') return false
  let count = 0
  for (let i = from; i < line.length; i++) {
    if (line[i] === char) count++
    else if (!isSpaceOrTab(line[i])) return false
  }
  return count >= 3
}

/** `===` or `---` with nothing but trailing blanks: a setext underline. */
export function setextDepthOf(line: string, from: number): number | undefined {
  const char = line[from]
  if (char !== '=' && char !== '-') return undefined
  return isBlankFrom(line, from + runLength(line, from, char)) ? (char === '=' ? 1 : 2) : undefined
}

/** An ATX heading's text: the rest of the line without its closing run of `#`
 * (which must follow a blank) and surrounding blanks. */
export function atxTextOf(rest: string): string {
  let end = rest.length
  while (end > 0 && isSpaceOrTab(rest[end - 1])) end--
  let hashes = end
  while (hashes > 0 && rest[hashes - 1] === '#') hashes--
  if (hashes < end && (hashes === 0 || isSpaceOrTab(rest[hashes - 1]))) {
    end = hashes
    while (end > 0 && isSpaceOrTab(rest[end - 1])) end--
  }
  return rest.slice(0, end)
}

export function isAsciiLetter(char: string | undefined): boolean {
  return char !== undefined && ((char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z'))
}

function isAsciiDigit(char: string | undefined): boolean {
  return char !== undefined && char >= '0' && char <= '9'
}

export function isAsciiAlnum(char: string | undefined): boolean {
  return isAsciiLetter(char) || isAsciiDigit(char)
}

export type ListMarker = { marker: string; length: number; isOrdered: boolean; isOne: boolean }

function listMarkerAt(line: string, from: number): ListMarker | undefined {
  const char = line[from]
  if (char === '-' || char === '+' || char === '*') return { marker: char, length: 1, isOrdered: false, isOne: false }
  let end = from
  while (end - from < 10 && isAsciiDigit(line[end])) end++
  const digits = end - from
  const delimiter = line[end]
  if (digits < 1 || digits > 9 || (delimiter !== '.' && delimiter !== ')')) return undefined
  return { marker: delimiter, length: digits + 1, isOrdered: true, isOne: Number(line.slice(from, end)) === 1 }
}

/** The list item marker at the cursor, if an item may start there. An
 * interrupting item must not be empty and, if ordered, must start at 1. */
export function listItemMarkerOf(c: Cursor, isInterrupting: boolean): ListMarker | undefined {
  if (c.indent >= CODE_INDENT_COLUMNS) return undefined
  const { line } = c
  const found = listMarkerAt(line, c.nextNonspace)
  if (!found) return undefined
  if (found.isOrdered && isInterrupting && !found.isOne) return undefined
  const afterMarker = c.nextNonspace + found.length
  if (afterMarker < line.length && !isSpaceOrTab(line[afterMarker])) return undefined
  if (isInterrupting && isBlankFrom(line, afterMarker)) return undefined
  return found
}

/** Moves the cursor past the marker and the blanks that belong to it;
 * answers the list the item belongs to and how far its content is indented. */
export function openListItem(c: Cursor, found: ListMarker): { marker: string; width: number } {
  const { line } = c
  const markerIndent = c.indent
  advanceNextNonspace(c)
  advance(c, found.length, true)
  const spacesStart = { offset: c.offset, column: c.column }
  do advance(c, 1, true)
  while (c.column - spacesStart.column < 5 && isSpaceOrTab(line[c.offset]))
  const spaces = c.column - spacesStart.column
  const isEmptyItem = c.offset >= line.length
  let padding = found.length + spaces
  if (spaces >= 5 || spaces < 1 || isEmptyItem) {
    padding = found.length + 1
    c.offset = spacesStart.offset
    c.column = spacesStart.column
    if (isSpaceOrTab(line[c.offset])) advance(c, 1, true)
  }
  return { marker: `${found.isOrdered ? 'ordered' : 'bullet'}${found.marker}`, width: markerIndent + padding }
}

/** The lines of a text, split where CommonMark ends a line (LF, CRLF or CR),
 * and the ending after each ('' after the last). */
export function linesOf(text: string): { lines: string[]; ends: string[] } {
  const parts = text.split(/(\r\n|\r|\n)/)
  return { lines: parts.filter((_, i) => i % 2 === 0), ends: [...parts.filter((_, i) => i % 2 === 1), ''] }
}
