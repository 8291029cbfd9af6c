// The top-level blocks of a Markdown body as a CommonMark reader (remark, the
// Node validator's parser) sees them, and which of them are headings. A hooks
// module can import no npm package (engine rule, 2.1.332), so this follows the
// CommonMark block-structure algorithm itself: block quotes, list items, fenced
// and indented code, the seven kinds of HTML block, ATX and setext headings,
// thematic breaks, paragraphs and their lazy continuation lines, with tabs
// counted to the next multiple of four columns. A heading inside a list, a
// quote, an HTML block or a fence is not a top-level block, so it is no section.
// Inline markup is not parsed: a heading's text is its source.
//
// Every step looks at each character a bounded number of times (no
// backtracking regex), and container nesting is capped, so the scan is linear
// in the text: a hook that runs ~5 s without yielding gets its mod unloaded.

export type RootBlock =
  /** `text` is the heading's source: an ATX heading's without its markers, a
   * setext heading's lines joined by "\n". */
  | { kind: 'heading'; depth: number; text: string; line: number }
  | { kind: 'other'; line: number }
  /** A construct whose reading depends on what this scanner does not model. */
  | { kind: 'unclear'; line: number; why: string }

/** Far deeper than any real document; past it the scan stops with an unclear
 * block, because each line is matched against every open container and an
 * unbounded nesting would make the scan quadratic. */
export const MAX_NESTING = 100

const TAB_STOP_COLUMNS = 4
/** An indent of this many columns makes indented code (CommonMark). */
const CODE_INDENT_COLUMNS = 4

type Paragraph = { kind: 'paragraph'; lines: string[]; rootIndex: number | undefined }
type Block =
  | { kind: 'quote' }
  | { kind: 'list'; marker: string }
  /** `width`: columns a line must be indented by to continue the item. */
  | { kind: 'item'; width: number; hasChildren: boolean }
  | Paragraph
  | { kind: 'fence'; char: string; length: number; indent: number }
  | { kind: 'indented' }
  | { kind: 'html'; end: HtmlEnd }

type BlockKind = Block['kind']

/** What ends an HTML block: a blank line (kinds 6 and 7), the closing tag of
 * any raw-text element (kind 1, whichever element opened it), or a line
 * holding the given text (kinds 2 to 5), that line included. */
type HtmlEnd = { kind: 'blank line' } | { kind: 'raw closing tag' } | { kind: 'text'; text: string }

/** How the current line stands against the open blocks: how many of them it
 * continued, whether the rest are closed yet, and whether a list item starting
 * on it interrupts a leaf (see isInterrupting). */
type LineState = { matched: number; allClosed: boolean; isInterrupting: boolean }

/** Where the scan stands on the current line. `column` counts tabs to the next
 * tab stop; a tab only partly consumed by a container leaves `offset` on it. */
type Cursor = {
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

function findNextNonspace(c: Cursor): void {
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

function advanceNextNonspace(c: Cursor): void {
  c.offset = c.nextNonspace
  c.column = c.nextNonspaceColumn
}

/** Moves `count` characters on, or `count` columns when `byColumns`, where a
 * tab may be consumed in part. */
function advance(c: Cursor, count: number, byColumns: boolean): void {
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

function runLength(line: string, from: number, char: string): number {
  let end = from
  while (line[end] === char) end++
  return end - from
}

/** Whether `line` holds only spaces and tabs from index `from` on. */
export function isBlankFrom(line: string, from: number): boolean {
  for (let i = from; i < line.length; i++) if (!isSpaceOrTab(line[i])) return false
  return true
}

/** `***`, `---` or `___`, three or more, with only blanks between. */
function isThematicBreak(line: string, from: number): boolean {
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
function setextDepthOf(line: string, from: number): number | undefined {
  const char = line[from]
  if (char !== '=' && char !== '-') return undefined
  return isBlankFrom(line, from + runLength(line, from, char)) ? (char === '=' ? 1 : 2) : undefined
}

/** An ATX heading's text: the rest of the line without its closing run of `#`
 * (which must follow a blank) and surrounding blanks. */
function atxTextOf(rest: string): string {
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

// HTML blocks (CommonMark 4.6): what opens each kind and what closes it.
const RAW_TAGS = ['script', 'pre', 'style', 'textarea']
const BLOCK_TAGS = new Set(
  ('address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt ' +
    'fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link ' +
    'main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead ' +
    'title tr track ul').split(' '),
)

function isAsciiLetter(char: string | undefined): boolean {
  return char !== undefined && ((char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z'))
}

function isAsciiDigit(char: string | undefined): boolean {
  return char !== undefined && char >= '0' && char <= '9'
}

function isAsciiAlnum(char: string | undefined): boolean {
  return isAsciiLetter(char) || isAsciiDigit(char)
}

function tagNameEnd(s: string, from: number): number {
  let i = from
  if (!isAsciiLetter(s[i])) return from
  while (isAsciiAlnum(s[i]) || s[i] === '-') i++
  return i
}

/** The index of the first character from `from` on that is not a space or tab. */
export function skipBlanks(s: string, from: number): number {
  let i = from
  while (isSpaceOrTab(s[i])) i++
  return i
}

function isAttributeNameStart(char: string | undefined): boolean {
  return isAsciiLetter(char) || char === '_' || char === ':'
}

function isAttributeNameChar(char: string | undefined): boolean {
  return isAsciiAlnum(char) || char === '_' || char === ':' || char === '.' || char === '-'
}

/** The end of an attribute value at `from`, or -1 when there is none. */
function attributeValueEnd(s: string, from: number): number {
  const quote = s[from]
  if (quote === '"' || quote === "'") {
    const close = s.indexOf(quote, from + 1)
    return close < 0 ? -1 : close + 1
  }
  let i = from
  while (i < s.length && s.charCodeAt(i) > 0x20 && !'"\'=<>`'.includes(s[i]!)) i++
  return i > from ? i : -1
}

/** Whether `s` is one complete open or closing tag and nothing but blanks after
 * it: what opens an HTML block of kind 7. */
function isCompleteTagLine(s: string): boolean {
  const closing = s[1] === '/'
  let i = tagNameEnd(s, closing ? 2 : 1)
  if (i === (closing ? 2 : 1)) return false
  if (closing) {
    i = skipBlanks(s, i)
    return s[i] === '>' && isBlankFrom(s, i + 1)
  }
  for (;;) {
    const afterBlanks = skipBlanks(s, i)
    if (afterBlanks === i || !isAttributeNameStart(s[afterBlanks])) {
      i = afterBlanks
      break
    }
    i = afterBlanks + 1
    while (isAttributeNameChar(s[i])) i++
    const beforeEquals = skipBlanks(s, i)
    if (s[beforeEquals] === '=') {
      const valueEnd = attributeValueEnd(s, skipBlanks(s, beforeEquals + 1))
      if (valueEnd < 0) return false
      i = valueEnd
    }
  }
  if (s[i] === '/') i++
  return s[i] === '>' && isBlankFrom(s, i + 1)
}

/** The HTML block `s` (a line from its `<`) opens: what closes it, and
 * whether it is kind 7 (a complete tag alone on its line), which cannot
 * interrupt a paragraph; undefined when it opens none. */
function htmlBlockOf(s: string, mayBeCompleteTag: boolean): { end: HtmlEnd; isCompleteTag: boolean } | undefined {
  const lower = s.slice(0, 12).toLowerCase()
  const ending = (end: HtmlEnd) => ({ end, isCompleteTag: false })
  const endingAt = (text: string) => ending({ kind: 'text', text })
  for (const tag of RAW_TAGS) {
    const after = lower[tag.length + 1]
    if (lower.startsWith(`<${tag}`) && (after === undefined || after === ' ' || after === '\t' || after === '>')) return ending({ kind: 'raw closing tag' })
  }
  if (s.startsWith('<!--')) return endingAt('-->')
  if (s.startsWith('<?')) return endingAt('?>')
  if (s.startsWith('<!') && isAsciiLetter(s[2])) return endingAt('>')
  if (s.startsWith('<![CDATA[')) return endingAt(']]>')
  const nameStart = s[1] === '/' ? 2 : 1
  const nameEnd = tagNameEnd(s, nameStart)
  const after = s[nameEnd]
  const endsName = after === undefined || after === ' ' || after === '\t' || after === '>' || (after === '/' && s[nameEnd + 1] === '>')
  if (BLOCK_TAGS.has(s.slice(nameStart, nameEnd).toLowerCase()) && endsName) return ending({ kind: 'blank line' })
  return mayBeCompleteTag && isCompleteTagLine(s) ? { end: { kind: 'blank line' }, isCompleteTag: true } : undefined
}

function closesHtmlBlock(end: HtmlEnd, rest: string): boolean {
  if (end.kind === 'blank line') return false
  if (end.kind === 'text') return rest.includes(end.text)
  const lower = rest.toLowerCase()
  return RAW_TAGS.some((tag) => lower.includes(`</${tag}>`))
}

type ListMarker = { marker: string; length: number; isOrdered: boolean; isOne: boolean }

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

/** Scans lines, keeping the open blocks from the document down (the document
 * itself is implicit), and records the document's own children. */
class BlockScanner {
  private readonly open: Block[] = []
  readonly blocks: RootBlock[] = []
  private stopped = false

  scan(lines: readonly string[], from: number): RootBlock[] {
    for (let i = from; i < lines.length && !this.stopped; i++) this.scanLine(lines[i] ?? '', i + 1)
    return this.blocks
  }

  private get tip(): Block | undefined {
    return this.open[this.open.length - 1]
  }

  /** Closes open blocks that cannot hold `kind`, records a document child, and
   * opens `block` (a one-line block such as a heading is recorded, not opened). */
  private addChild(kind: BlockKind | 'heading' | 'break', lineNo: number, block?: Block, root?: RootBlock): void {
    while (this.open.length > 0 && !canContain(this.tip!.kind, kind)) this.open.pop()
    const parent = this.tip
    if (parent === undefined) {
      if (block?.kind === 'paragraph') block.rootIndex = this.blocks.length
      this.blocks.push(root ?? { kind: 'other', line: lineNo })
    } else if (parent.kind === 'item') parent.hasChildren = true
    if (block) this.open.push(block)
    if (this.open.length > MAX_NESTING) {
      this.blocks.push({ kind: 'unclear', line: lineNo, why: `blocks nest more than ${MAX_NESTING} deep` })
      this.stopped = true
    }
  }

  private scanLine(line: string, lineNo: number): void {
    const c: Cursor = { line, offset: 0, column: 0, nextNonspace: 0, nextNonspaceColumn: 0, indent: 0, isBlank: false, isIndented: false }
    let matched = 0
    for (const block of this.open) {
      findNextNonspace(c)
      const result = continuationOf(block, c)
      if (result === 'line consumed') {
        this.open.length = matched
        return
      }
      if (result === 'unmatched') break
      matched++
    }
    const state: LineState = { matched, allClosed: matched === this.open.length, isInterrupting: this.isInterrupting(matched) }
    let container: Block | undefined = matched > 0 ? this.open[matched - 1] : undefined

    for (let leafStarted = isCodeOrHtml(container); !leafStarted; ) {
      findNextNonspace(c)
      const start = this.blockStart(c, lineNo, container, state)
      if (start === 'line done') return
      if (start === 'none') {
        advanceNextNonspace(c)
        break
      }
      container = this.tip
      leafStarted = start === 'leaf'
      if (this.stopped) return
    }

    const tip = this.tip
    if (this.isLazyParagraphOpen(state, c) && tip?.kind === 'paragraph') {
      tip.lines.push(line.slice(c.offset))
      return
    }
    this.closeUnmatched(state)
    if (container?.kind === 'paragraph') container.lines.push(line.slice(c.offset))
    else if (container?.kind === 'html') {
      if (closesHtmlBlock(container.end, line.slice(c.offset))) this.open.pop()
    } else if (!isCodeOrHtml(container) && !c.isBlank && c.offset < line.length) {
      advanceNextNonspace(c)
      this.addChild('paragraph', lineNo, { kind: 'paragraph', lines: [line.slice(c.offset)], rootIndex: undefined })
    }
  }

  /** Closes the open blocks this line did not continue, once a new block starts. */
  private closeUnmatched(state: LineState): void {
    if (!state.allClosed) this.open.length = state.matched
    state.allClosed = true
  }

  /** A paragraph open in a container this line did not continue, which a
   * plain line goes on lazily. */
  private isLazyParagraphOpen(state: LineState, c: Cursor): boolean {
    return !state.allClosed && !c.isBlank && this.tip?.kind === 'paragraph'
  }

  /** Tries each block start in CommonMark's order. 'container' when a quote or
   * list item opened (more may start on the same line), 'leaf' when a code or
   * HTML block opened, 'line done' when a one-line block took the line. */
  private blockStart(c: Cursor, lineNo: number, container: Block | undefined, state: LineState): 'container' | 'leaf' | 'line done' | 'none' {
    const { line } = c
    const at = c.nextNonspace
    const char = line[at]
    if (!c.isIndented && char === '>') {
      advanceNextNonspace(c)
      advance(c, 1, false)
      if (isSpaceOrTab(line[c.offset])) advance(c, 1, true)
      this.closeUnmatched(state)
      this.addChild('quote', lineNo, { kind: 'quote' })
      return 'container'
    }
    if (!c.isIndented && char === '#') {
      const hashes = runLength(line, at, '#')
      if (hashes <= 6 && (at + hashes === line.length || isSpaceOrTab(line[at + hashes]))) {
        this.closeUnmatched(state)
        const text = atxTextOf(line.slice(skipBlanks(line, at + hashes)))
        this.addChild('heading', lineNo, undefined, { kind: 'heading', depth: hashes, text, line: lineNo })
        return 'line done'
      }
    }
    if (!c.isIndented && (char === '`' || char === '~')) {
      const length = runLength(line, at, char)
      if (length >= 3 && !(char === '`' && line.includes('`', at + length))) {
        this.closeUnmatched(state)
        this.addChild('fence', lineNo, { kind: 'fence', char, length, indent: c.indent })
        advanceNextNonspace(c)
        advance(c, length, false)
        return 'leaf'
      }
    }
    if (!c.isIndented && char === '<') {
      const html = htmlBlockOf(line.slice(at), container?.kind !== 'paragraph')
      if (html?.isCompleteTag && this.isLazyParagraphOpen(state, c)) {
        // remark (micromark) lets a kind-7 block interrupt a paragraph on a
        // lazy line, inside the paragraph's container; it ends with the
        // first line that does not continue that container.
        this.open.pop()
        this.open.push({ kind: 'html', end: html.end })
        state.allClosed = true
        return 'leaf'
      }
      if (html) {
        this.closeUnmatched(state)
        this.addChild('html', lineNo, { kind: 'html', end: html.end })
        return 'leaf'
      }
    }
    const setextDepth = !c.isIndented && container?.kind === 'paragraph' ? setextDepthOf(line, at) : undefined
    if (setextDepth !== undefined && container?.kind === 'paragraph') {
      this.closeUnmatched(state)
      this.open.pop()
      this.recordSetextHeading(container, setextDepth)
      return 'line done'
    }
    if (!c.isIndented && isThematicBreak(line, at)) {
      this.closeUnmatched(state)
      this.addChild('break', lineNo)
      return 'line done'
    }
    if (!c.isIndented || container?.kind === 'list') {
      const found = this.listMarkerOf(c, state.isInterrupting)
      if (!found && state.isInterrupting && this.tip?.kind === 'indented' && this.listMarkerOf(c, false)) {
        // Whether an empty or numbered item may follow indented code depends
        // on how that code began, in ways remark does not document.
        this.blocks.push({ kind: 'unclear', line: lineNo, why: 'an empty or numbered list item right after indented code' })
      }
      if (found) {
        const item = this.openListItem(c, found)
        this.closeUnmatched(state)
        const tip = this.tip
        if (tip?.kind !== 'list' || tip.marker !== item.marker) this.addChild('list', lineNo, { kind: 'list', marker: item.marker })
        this.addChild('item', lineNo, { kind: 'item', width: item.width, hasChildren: false })
        return 'container'
      }
    }
    if (c.isIndented && this.tip?.kind !== 'paragraph' && !c.isBlank) {
      advance(c, CODE_INDENT_COLUMNS, true)
      this.closeUnmatched(state)
      this.addChild('indented', lineNo, { kind: 'indented' })
      return 'leaf'
    }
    return 'none'
  }

  /** A setext underline turns the paragraph above into a heading. Only a
   * document child is recorded; a paragraph that opens with `[` may be link
   * reference definitions, which CommonMark takes out before deciding. */
  private recordSetextHeading(paragraph: Paragraph, depth: number): void {
    if (paragraph.rootIndex === undefined) return
    const line = this.blocks[paragraph.rootIndex]!.line
    this.blocks[paragraph.rootIndex] = paragraph.lines[0]?.startsWith('[')
      ? { kind: 'unclear', line, why: 'a setext heading whose text starts with "[" (it may be a link definition)' }
      : { kind: 'heading', depth, text: paragraph.lines.join('\n'), line }
  }

  /** Whether a list item starting on this line interrupts a paragraph or
   * indented code: so remark (micromark) reads it, when every open container
   * went on and one of those leaves is open. The answer holds for every item
   * the line opens, nested ones included. */
  private isInterrupting(matched: number): boolean {
    const tip = this.tip
    const isLeafOpen = tip?.kind === 'paragraph' || tip?.kind === 'indented' || tip?.kind === 'fence' || tip?.kind === 'html'
    const containers = isLeafOpen ? this.open.length - 1 : this.open.length
    return matched >= containers && (tip?.kind === 'paragraph' || tip?.kind === 'indented')
  }

  /** The list item marker at the cursor, if an item may start there. An
   * interrupting item must not be empty and, if ordered, must start at 1. */
  private listMarkerOf(c: Cursor, isInterrupting: boolean): ListMarker | undefined {
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
  private openListItem(c: Cursor, found: ListMarker): { marker: string; width: number } {
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
}

function isCodeOrHtml(block: Block | undefined): boolean {
  return block?.kind === 'fence' || block?.kind === 'indented' || block?.kind === 'html'
}

function canContain(parent: BlockKind, child: BlockKind | 'heading' | 'break'): boolean {
  if (parent === 'list') return child === 'item'
  return (parent === 'quote' || parent === 'item') && child !== 'item'
}

/** Whether an open block goes on with this line, consuming its markers. */
function continuationOf(block: Block, c: Cursor): 'matched' | 'unmatched' | 'line consumed' {
  const { line } = c
  switch (block.kind) {
    case 'quote':
      if (c.isIndented || line[c.nextNonspace] !== '>') return 'unmatched'
      advanceNextNonspace(c)
      advance(c, 1, false)
      if (isSpaceOrTab(line[c.offset])) advance(c, 1, true)
      return 'matched'
    case 'list':
      return 'matched'
    case 'item':
      if (c.isBlank) {
        // An item can begin with at most one blank line.
        if (!block.hasChildren) return 'unmatched'
        advanceNextNonspace(c)
        return 'matched'
      }
      if (c.indent < block.width) return 'unmatched'
      advance(c, block.width, true)
      return 'matched'
    case 'paragraph':
      return c.isBlank ? 'unmatched' : 'matched'
    case 'fence': {
      const run = line[c.nextNonspace] === block.char ? runLength(line, c.nextNonspace, block.char) : 0
      if (c.indent <= 3 && run >= block.length && isBlankFrom(line, c.nextNonspace + run)) return 'line consumed'
      for (let i = block.indent; i > 0 && isSpaceOrTab(line[c.offset]); i--) advance(c, 1, true)
      return 'matched'
    }
    case 'indented':
      if (c.isIndented) advance(c, CODE_INDENT_COLUMNS, true)
      else if (c.isBlank) advanceNextNonspace(c)
      else return 'unmatched'
      return 'matched'
    case 'html':
      return c.isBlank && block.end.kind === 'blank line' ? 'unmatched' : 'matched'
  }
}

/** The lines of a text, split where CommonMark ends a line (LF, CRLF or CR),
 * and the ending after each ('' after the last). */
export function linesOf(text: string): { lines: string[]; ends: string[] } {
  const parts = text.split(/(\r\n|\r|\n)/)
  return { lines: parts.filter((_, i) => i % 2 === 0), ends: [...parts.filter((_, i) => i % 2 === 1), ''] }
}

/** The document's top-level blocks in the body that starts at line index `from`. */
export function rootBlocksOf(lines: readonly string[], from: number): RootBlock[] {
  return new BlockScanner().scan(lines, from)
}
