// The blocks a scan keeps open while it reads lines (containers such as
// quotes and list items, and the leaf a line may go on: a paragraph, code or
// an HTML block), and how a new line continues each of them.
import type { HtmlEnd } from './markdown-html.js'
import { CODE_INDENT_COLUMNS, advance, advanceNextNonspace, isBlankFrom, isSpaceOrTab, runLength, type Cursor } from './markdown-lines.js'

export type Paragraph = { kind: 'paragraph'; lines: string[]; rootIndex: number | undefined }

export type Block =
  | { kind: 'quote' }
  | { kind: 'list'; marker: string }
  /** `width`: columns a line must be indented by to continue the item. */
  | { kind: 'item'; width: number; hasChildren: boolean }
  | Paragraph
  | { kind: 'fence'; char: string; length: number; indent: number }
  | { kind: 'indented' }
  | { kind: 'html'; end: HtmlEnd }

export type BlockKind = Block['kind']

export function isCodeOrHtml(block: Block | undefined): boolean {
  return block?.kind === 'fence' || block?.kind === 'indented' || block?.kind === 'html'
}

export function canContain(parent: BlockKind, child: BlockKind | 'heading' | 'break'): boolean {
  if (parent === 'list') return child === 'item'
  return (parent === 'quote' || parent === 'item') && child !== 'item'
}

/** Whether an open block goes on with this line, consuming its markers. */
export function continuationOf(block: Block, c: Cursor): 'matched' | 'unmatched' | 'line consumed' {
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
