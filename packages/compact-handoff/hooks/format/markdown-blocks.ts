// The top-level blocks of a Markdown body as a CommonMark reader (remark, the
// Node validator's parser) sees them, and which of them are headings. A hooks
// module can import no npm package (engine rule, 2.1.332), so this follows the
// CommonMark block-structure algorithm itself: block quotes, list items, fenced
// and indented code, the seven kinds of HTML block, ATX and setext headings,
// thematic breaks, paragraphs and their lazy continuation lines, with tabs
// counted to the next multiple of four columns. A heading inside a list, a
// quote, an HTML block or a fence is not a top-level block, so it is no section.
// Inline markup is not parsed: a heading's text is its source. What a line
// opens with is read by markdown-lines.ts and markdown-html.ts; how a line
// continues each open block, by markdown-open-blocks.ts.
//
// Every step looks at each character a bounded number of times (no
// backtracking regex), and container nesting is capped, so the scan is linear
// in the text: a hook that runs ~5 s without yielding gets its mod unloaded.
import { closesHtmlBlock, htmlBlockOf } from './markdown-html.js'
import {
  CODE_INDENT_COLUMNS,
  advance,
  advanceNextNonspace,
  atxTextOf,
  findNextNonspace,
  isSpaceOrTab,
  isThematicBreak,
  listItemMarkerOf,
  openListItem,
  runLength,
  setextDepthOf,
  skipBlanks,
  type Cursor,
} from './markdown-lines.js'
import { canContain, continuationOf, isCodeOrHtml, type Block, type BlockKind, type Paragraph } from './markdown-open-blocks.js'

export type RootBlock =
  /** `text` is the heading's source: an ATX heading's without its markers, a
   * setext heading's lines joined by "\n". */
  | { kind: 'heading'; depth: number; text: string; line: number }
  /** `isHtml`: an HTML block, which a Markdown preview does not show as text. */
  | { kind: 'other'; line: number; isHtml?: true }
  /** A construct whose reading depends on what this scanner does not model. */
  | { kind: 'unclear'; line: number; why: string }

/** Far deeper than any real document; past it the scan stops with an unclear
 * block, because each line is matched against every open container and an
 * unbounded nesting would make the scan quadratic. */
export const MAX_NESTING = 100

/** How the current line stands against the open blocks: how many of them it
 * continued, whether the rest are closed yet, and whether a list item starting
 * on it interrupts a leaf (see isInterrupting). */
type LineState = { matched: number; allClosed: boolean; isInterrupting: boolean }

/** What a block start is tried on: the cursor, the line's 1-based number, the
 * innermost open block the line continued, and how the line stands. */
type LineStart = { c: Cursor; lineNo: number; container: Block | undefined; state: LineState }

/** What a block start did to the line: opened a container (more may start on
 * the line), opened a leaf, or took the whole line. */
type BlockStart = 'container' | 'leaf' | 'line done'

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
      const start = this.blockStart({ c, lineNo, container, state })
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

  /** Tries each block start in CommonMark's order; the first that matches
   * takes the line. 'container' when a quote or list item opened (more may
   * start on the same line), 'leaf' when a code or HTML block opened, 'line
   * done' when a one-line block took the line. */
  private blockStart(at: LineStart): BlockStart | 'none' {
    return (
      this.quoteStart(at) ??
      this.atxHeadingStart(at) ??
      this.fenceStart(at) ??
      this.htmlStart(at) ??
      this.setextHeadingStart(at) ??
      this.thematicBreakStart(at) ??
      this.listItemStart(at) ??
      this.indentedCodeStart(at) ??
      'none'
    )
  }

  private quoteStart({ c, lineNo, state }: LineStart): BlockStart | undefined {
    if (c.isIndented || c.line[c.nextNonspace] !== '>') return undefined
    advanceNextNonspace(c)
    advance(c, 1, false)
    if (isSpaceOrTab(c.line[c.offset])) advance(c, 1, true)
    this.closeUnmatched(state)
    this.addChild('quote', lineNo, { kind: 'quote' })
    return 'container'
  }

  private atxHeadingStart({ c, lineNo, state }: LineStart): BlockStart | undefined {
    const { line, nextNonspace: at } = c
    if (c.isIndented || line[at] !== '#') return undefined
    const hashes = runLength(line, at, '#')
    if (hashes > 6 || (at + hashes < line.length && !isSpaceOrTab(line[at + hashes]))) return undefined
    this.closeUnmatched(state)
    const text = atxTextOf(line.slice(skipBlanks(line, at + hashes)))
    this.addChild('heading', lineNo, undefined, { kind: 'heading', depth: hashes, text, line: lineNo })
    return 'line done'
  }

  private fenceStart({ c, lineNo, state }: LineStart): BlockStart | undefined {
    const { line, nextNonspace: at } = c
    const char = line[at]
    if (c.isIndented || (char !== '`' && char !== '~')) return undefined
    const length = runLength(line, at, char)
    if (length < 3 || (char === '`' && line.includes('`', at + length))) return undefined
    this.closeUnmatched(state)
    this.addChild('fence', lineNo, { kind: 'fence', char, length, indent: c.indent })
    advanceNextNonspace(c)
    advance(c, length, false)
    return 'leaf'
  }

  private htmlStart({ c, lineNo, container, state }: LineStart): BlockStart | undefined {
    if (c.isIndented || c.line[c.nextNonspace] !== '<') return undefined
    const html = htmlBlockOf(c.line.slice(c.nextNonspace), container?.kind !== 'paragraph')
    if (!html) return undefined
    if (html.isCompleteTag && this.isLazyParagraphOpen(state, c)) {
      // remark (micromark) lets a kind-7 block interrupt a paragraph on a
      // lazy line, inside the paragraph's container; it ends with the
      // first line that does not continue that container.
      this.open.pop()
      this.open.push({ kind: 'html', end: html.end })
      state.allClosed = true
      return 'leaf'
    }
    this.closeUnmatched(state)
    this.addChild('html', lineNo, { kind: 'html', end: html.end }, { kind: 'other', line: lineNo, isHtml: true })
    return 'leaf'
  }

  private setextHeadingStart({ c, container, state }: LineStart): BlockStart | undefined {
    if (c.isIndented || container?.kind !== 'paragraph') return undefined
    const depth = setextDepthOf(c.line, c.nextNonspace)
    if (depth === undefined) return undefined
    this.closeUnmatched(state)
    this.open.pop()
    this.recordSetextHeading(container, depth)
    return 'line done'
  }

  private thematicBreakStart({ c, lineNo, state }: LineStart): BlockStart | undefined {
    if (c.isIndented || !isThematicBreak(c.line, c.nextNonspace)) return undefined
    this.closeUnmatched(state)
    this.addChild('break', lineNo)
    return 'line done'
  }

  private listItemStart({ c, lineNo, container, state }: LineStart): BlockStart | undefined {
    if (c.isIndented && container?.kind !== 'list') return undefined
    const found = listItemMarkerOf(c, state.isInterrupting)
    if (!found && state.isInterrupting && this.tip?.kind === 'indented' && listItemMarkerOf(c, false)) {
      // Whether an empty or numbered item may follow indented code depends
      // on how that code began, in ways remark does not document.
      this.blocks.push({ kind: 'unclear', line: lineNo, why: 'an empty or numbered list item right after indented code' })
    }
    if (!found) return undefined
    const item = openListItem(c, found)
    this.closeUnmatched(state)
    const tip = this.tip
    if (tip?.kind !== 'list' || tip.marker !== item.marker) this.addChild('list', lineNo, { kind: 'list', marker: item.marker })
    this.addChild('item', lineNo, { kind: 'item', width: item.width, hasChildren: false })
    return 'container'
  }

  private indentedCodeStart({ c, lineNo, state }: LineStart): BlockStart | undefined {
    if (!c.isIndented || this.tip?.kind === 'paragraph' || c.isBlank) return undefined
    advance(c, CODE_INDENT_COLUMNS, true)
    this.closeUnmatched(state)
    this.addChild('indented', lineNo, { kind: 'indented' })
    return 'leaf'
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
}

/** The document's top-level blocks in the body that starts at line index `from`. */
export function rootBlocksOf(lines: readonly string[], from: number): RootBlock[] {
  return new BlockScanner().scan(lines, from)
}
