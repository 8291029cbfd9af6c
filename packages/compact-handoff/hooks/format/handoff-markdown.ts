// The one Markdown reader of the hooks module: the handoff format's grammar,
// not CommonMark. A heading is `#` to `######` and a blank at column 0 outside
// a code fence; a fence opens with ``` or ~~~ at column 0 to 3 and closes with
// a bare run of the same character at least as long; every other line is body
// text. The skills and the fork prompt ask for exactly this shape.
//
// The Node validator reads the same files with remark (CommonMark), and a
// file this check passes replaces a conversation, so the two must never
// disagree on where a section starts. CommonMark reads a column-0 heading as a
// document heading unless a fence or an HTML block holds it; every other line
// that CommonMark may read as a heading, or a fence it may close elsewhere, is
// refused here (`refusals`), with how to write it plainly. The argument and
// its test: tests/contract/format-differential.test.ts.
//
// One pass over the lines, each looked at a bounded number of times, no
// backtracking regex: a hook that runs ~5 s without yielding gets its mod
// unloaded (seen live, 2.1.332).

const TAB_STOP_COLUMNS = 4
/** A line indented this far is no heading, fence or HTML start in CommonMark. */
const CODE_INDENT_COLUMNS = 4

export function isSpaceOrTab(char: string | undefined): boolean {
  return char === ' ' || char === '\t'
}

/** The index of the first character from `from` on that is not a space or tab. */
export function skipBlanks(s: string, from: number): number {
  let i = from
  while (isSpaceOrTab(s[i])) i++
  return i
}

/** Whether `line` holds only spaces and tabs from index `from` on. */
export function isBlankFrom(line: string, from: number): boolean {
  return skipBlanks(line, from) >= line.length
}

/** `s` without the spaces and tabs at its end. */
export function trimBlanksEnd(s: string): string {
  let end = s.length
  while (end > 0 && isSpaceOrTab(s[end - 1])) end--
  return s.slice(0, end)
}

/** The lines of a text, split where CommonMark ends a line (LF, CRLF or CR),
 * and the ending after each ('' after the last). */
export function linesOf(text: string): { lines: string[]; ends: string[] } {
  const parts = text.split(/(\r\n|\r|\n)/)
  return { lines: parts.filter((_, i) => i % 2 === 0), ends: [...parts.filter((_, i) => i % 2 === 1), ''] }
}

function runLength(line: string, from: number, char: string): number {
  let end = from
  while (line[end] === char) end++
  return end - from
}

/** Columns of leading blanks (a tab to the next multiple of four), and where they end. */
function indentOf(line: string): { columns: number; end: number } {
  let columns = 0
  let end = 0
  for (; isSpaceOrTab(line[end]); end++) columns += line[end] === '\t' ? TAB_STOP_COLUMNS - (columns % TAB_STOP_COLUMNS) : 1
  return { columns, end }
}

/** An ATX heading's text: the rest of the line without its closing run of `#`
 * (which must follow a blank) and surrounding blanks. */
function atxTextOf(rest: string): string {
  const text = trimBlanksEnd(rest)
  let hashes = text.length
  while (hashes > 0 && text[hashes - 1] === '#') hashes--
  const hasClosingRun = hashes < text.length && (hashes === 0 || isSpaceOrTab(text[hashes - 1]))
  return hasClosingRun ? trimBlanksEnd(text.slice(0, hashes)) : text
}

/** The ATX heading that starts at `from` in `line`, if one does. */
function atxAt(line: string, from: number): { depth: number; text: string } | undefined {
  const depth = runLength(line, from, '#')
  const after = from + depth
  if (depth === 0 || depth > 6 || (after < line.length && !isSpaceOrTab(line[after]))) return undefined
  return { depth, text: atxTextOf(line.slice(skipBlanks(line, after))) }
}

/** A heading of the format: at column 0. */
export function headingOf(line: string): { depth: number; text: string } | undefined {
  return atxAt(line, 0)
}

export type Fence = { char: string; length: number; indent: number }

/** The fence `line` opens: ``` or ~~~ (three or more) after at most three
 * spaces; a backtick fence's info string holds no backtick. */
export function fenceOf(line: string): Fence | undefined {
  const indent = runLength(line, 0, ' ')
  const char = line[indent]
  if (indent >= CODE_INDENT_COLUMNS || (char !== '`' && char !== '~')) return undefined
  const length = runLength(line, indent, char)
  if (length < 3 || (char === '`' && line.includes('`', indent + length))) return undefined
  return { char, length, indent }
}

/** Whether `line`, after any blanks, is a bare run of the fence's character at
 * least as long: a closing fence when at most three spaces precede it. */
function closingRunOf(fence: Fence, line: string): { columns: number } | undefined {
  const { columns, end } = indentOf(line)
  if (line[end] !== fence.char) return undefined
  const run = runLength(line, end, fence.char)
  return run >= fence.length && isBlankFrom(line, end + run) ? { columns } : undefined
}

/** Whether `line` closes `fence` (a tab before it makes four columns). */
export function closesFence(fence: Fence, line: string): boolean {
  const run = closingRunOf(fence, line)
  return run !== undefined && run.columns < CODE_INDENT_COLUMNS
}

const RAW_TAGS = ['script', 'pre', 'style', 'textarea']

/** The texts that end an HTML block of CommonMark's kinds 1 to 5 (which a
 * blank line does not end), when `rest` (a line from its `<`) opens one, and
 * where on the line the end is looked for from. */
function rawHtmlOpenerOf(rest: string): { ends: readonly string[]; opener: number } | undefined {
  const lower = rest.slice(0, 12).toLowerCase()
  for (const tag of RAW_TAGS) {
    const after = lower[tag.length + 1]
    if (lower.startsWith(`<${tag}`) && (after === undefined || after === ' ' || after === '\t' || after === '>')) return { ends: RAW_TAGS.map((t) => `</${t}>`), opener: tag.length + 1 }
  }
  // `<!-->` and `<!--->` are whole comments (CommonMark 0.31, micromark).
  if (rest.startsWith('<!--')) return { ends: ['-->'], opener: 2 }
  if (rest.startsWith('<![CDATA[')) return { ends: [']]>'], opener: 9 }
  if (rest.startsWith('<?')) return { ends: ['?>'], opener: 2 }
  const letter = rest[2]?.toLowerCase()
  if (rest.startsWith('<!') && letter !== undefined && letter >= 'a' && letter <= 'z') return { ends: ['>'], opener: 2 }
  return undefined
}

function holdsAny(text: string, ends: readonly string[]): boolean {
  const lower = text.toLowerCase()
  return ends.some((end) => lower.includes(end))
}

/** A body line: a heading, or text (`isHtml` when it may be part of an HTML
 * block, which a Markdown preview does not show). Blank lines are left out. */
export type BodyLine = { kind: 'heading'; depth: number; text: string; line: number } | { kind: 'text'; line: number; isHtml?: true }
export type Heading = Extract<BodyLine, { kind: 'heading' }>
type Refusal = { line: number; why: string }

/** The state between lines: inside a fence, inside an HTML block that a blank
 * line does not end (`isCertain` when CommonMark reads it as such: it opened
 * at column 0 outside any HTML), or possibly inside one that a blank line ends. */
type Open = { kind: 'fence'; fence: Fence; line: number } | { kind: 'raw html'; ends: readonly string[]; isCertain: boolean } | { kind: 'html' } | undefined

/**
 * The body's lines from index `from` on, read by the format's grammar, and the
 * lines refused because CommonMark may read them otherwise. A heading after a
 * list or quote marker is body text here, and no document heading there.
 */
export function bodyLinesOf(lines: readonly string[], from: number): { body: BodyLine[]; refusals: Refusal[] } {
  const body: BodyLine[] = []
  const refusals: Refusal[] = []
  const refuse = (line: number, why: string) => refusals.push({ line, why })
  let open: Open
  /** Whether the line before may be paragraph text, which a `===` or `---` line makes a heading. */
  let afterText = false
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!
    const lineNo = i + 1
    if (isBlankFrom(line, 0)) {
      if (open?.kind === 'html') open = undefined
      afterText = false
      continue
    }
    if (open?.kind === 'fence') {
      const { fence } = open
      const closing = closingRunOf(fence, line)
      // CommonMark may read a fence opened after blanks as part of a list item,
      // which a less indented line ends and whose own indent a closing fence may take.
      if (fence.indent > 0 && (indentOf(line).columns < fence.indent || (closing !== undefined && closing.columns > CODE_INDENT_COLUMNS - 1))) {
        refuse(lineNo, `a code block opened with ${fence.char.repeat(3)} after ${fence.indent} spaces (line ${open.line}) holds a line indented less, or a closing fence indented more: indent every line of the block as its opening fence, or open it at the start of a line`)
      }
      body.push({ kind: 'text', line: lineNo })
      if (closesFence(fence, line)) open = undefined
      afterText = false
      continue
    }
    if (open?.kind === 'raw html' && open.isCertain) {
      // CommonMark too reads it as a document-level HTML block (no container
      // holds a column-0 line), which ends at the same line.
      if (holdsAny(line, open.ends)) open = undefined
      body.push({ kind: 'text', line: lineNo, isHtml: true })
      afterText = true
      continue
    }
    const heading = headingOf(line)
    const fence = fenceOf(line)
    const { columns, end: indentEnd } = indentOf(line)
    const char = line[indentEnd]
    if ((char === '=' || char === '-') && afterText && isBlankFrom(line, indentEnd + runLength(line, indentEnd, char))) {
      refuse(lineNo, `a line of only "${char}" right under text makes that text a heading in Markdown: put a blank line before it, or write the heading as "## Name"`)
    }
    const indented = indentEnd > 0 && columns < CODE_INDENT_COLUMNS ? atxAt(line, indentEnd) : undefined
    if (indented !== undefined && indented.depth <= 3) refuse(lineNo, `a heading after blanks: write section headings as "## Name" at the start of a line`)
    afterText = heading === undefined && fence === undefined
    const raw = char === '<' && columns < CODE_INDENT_COLUMNS ? rawHtmlOpenerOf(line.slice(indentEnd)) : undefined
    const closesOnItsLine = raw !== undefined && holdsAny(line.slice(indentEnd + raw.opener), raw.ends)
    if (open !== undefined) {
      // An HTML block CommonMark may end elsewhere, or not see at all.
      if ((heading !== undefined && heading.depth <= 3) || fence !== undefined || (open.kind === 'raw html' && raw !== undefined && !closesOnItsLine)) {
        refuse(lineNo, `${heading !== undefined ? 'a heading' : fence !== undefined ? 'a code fence' : 'an HTML block'} inside or right after HTML: put a blank line before it, and start HTML comments at the start of a line`)
      }
      // Past its end, an HTML block around it may still go on to a blank line.
      if (open.kind === 'raw html' && holdsAny(line, open.ends)) open = { kind: 'html' }
      // CommonMark may end the HTML above here and open this block, which a blank line does not end.
      else if (open.kind === 'html' && raw !== undefined && !closesOnItsLine) open = { kind: 'raw html', ends: raw.ends, isCertain: false }
      body.push({ kind: 'text', line: lineNo, isHtml: true })
      afterText = true
    } else if (heading !== undefined) body.push({ kind: 'heading', depth: heading.depth, text: heading.text, line: lineNo })
    else if (fence !== undefined) {
      open = { kind: 'fence', fence, line: lineNo }
      body.push({ kind: 'text', line: lineNo })
    } else if (char === '<' && columns < CODE_INDENT_COLUMNS) {
      open = raw === undefined ? { kind: 'html' } : closesOnItsLine ? undefined : { kind: 'raw html', ends: raw.ends, isCertain: indentEnd === 0 }
      body.push({ kind: 'text', line: lineNo, isHtml: true })
    } else body.push({ kind: 'text', line: lineNo })
  }
  if (open?.kind === 'fence') refuse(open.line, `the code block opened here with ${open.fence.char.repeat(open.fence.length)} is never closed: close it with the same fence on its own line`)
  return { body, refusals }
}
