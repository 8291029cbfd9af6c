// The handoff inside a fork's reply: the title line and the sections, without
// what a model puts around them (a preamble, a code fence wrapping the whole,
// a closing remark). Headings and fences are read by the format check's own
// reader (format/handoff-markdown.ts), so the cut and the check see one shape.
// Runs in a hook over model-written text, so every step is one pass over the
// lines, with no regex that can backtrack on a long line.
import { closesFence, fenceOf, headingOf, type Fence } from '../format/handoff-markdown.js'
import { sectionNameOf } from '../protocol/protocol-contents.js'

export type ForkReply = {
  /** The handoff's title and sections, ending with one line break. */
  body: string
  /** The title's text (`Handoff: …`), when the reply has a title line. */
  title?: string
}

const LIST_ITEM_RE = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/
const INDENTED_RE = /^(?: {2}|\t)/
const THEMATIC_BREAK_RE = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/

function isSectionHeading(line: string): boolean {
  const heading = headingOf(line)
  return heading?.depth === 2 && sectionNameOf(heading.text) !== undefined
}

/** Where the handoff starts: its title line (`# …`) or, with none, its first
 * section heading. */
function startOf(lines: readonly string[]): number | undefined {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (headingOf(line)?.depth === 1 || isSectionHeading(line)) return i
  }
  return undefined
}

/** The fence the whole handoff sits in: the last line before it that is not
 * blank, when that line opens a fence. */
function outerFenceOf(lines: readonly string[], start: number): Fence | undefined {
  for (let i = start - 1; i >= 0; i--) {
    if (lines[i]!.trim() === '') continue
    return fenceOf(lines[i]!)
  }
  return undefined
}

/** Steps one line through the fences inside the handoff: the block open after
 * it, or 'closes-outer' when it is the fence that closes the outer one. A
 * closing fence closes the inner block open; with none open, it closes the
 * outer fence or opens a block. */
function fenceStep(line: string, inner: Fence | undefined, outer: Fence | undefined): Fence | undefined | 'closes-outer' {
  if (inner) return closesFence(inner, line) ? undefined : inner
  if (outer && closesFence(outer, line)) return 'closes-outer'
  return fenceOf(line)
}

/** Where the handoff ends (exclusive) inside the outer fence, and the last
 * section heading seen before it (outside any inner block). */
function fencedEndOf(lines: readonly string[], start: number, outer: Fence | undefined): { end: number; lastSection: number | undefined } {
  let inner: Fence | undefined
  let lastSection: number | undefined
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!
    if (inner === undefined && isSectionHeading(line)) lastSection = i
    const next = fenceStep(line, inner, outer)
    if (next === 'closes-outer') return { end: i, lastSection }
    inner = next
  }
  return { end: lines.length, lastSection }
}

/** Where the last section ends when no fence says so: at a heading or a
 * thematic break after its content, or at the first paragraph after a blank
 * line once it has content, unless that paragraph is a list item, an indented
 * continuation or a fence. A closing remark ("Let me know…") goes; the Verify
 * commands, one bullet each, stay. */
function lastSectionEndOf(lines: readonly string[], from: number, end: number): number {
  let inner: Fence | undefined
  let hasContent = false
  let blankRunAt: number | undefined
  for (let i = from; i < end; i++) {
    const line = lines[i]!
    if (inner === undefined) {
      if (line.trim() === '') {
        blankRunAt ??= i
        continue
      }
      const isHeading = (headingOf(line)?.depth ?? 7) <= 2
      const isAside = blankRunAt !== undefined && !LIST_ITEM_RE.test(line) && !INDENTED_RE.test(line) && fenceOf(line) === undefined
      if (hasContent && (isHeading || THEMATIC_BREAK_RE.test(line) || isAside)) return blankRunAt ?? i
    }
    const next = fenceStep(line, inner, undefined)
    inner = next === 'closes-outer' ? undefined : next
    hasContent = true
    blankRunAt = undefined
  }
  return end
}

/**
 * The handoff in `reply`: from its title line (or first section heading) to
 * the end of its last section. A reply with neither comes back whole, trimmed,
 * so the format check can say what it lacks.
 */
export function forkReplyOf(reply: string): ForkReply {
  const lines = reply.replace(/\r\n?/g, '\n').split('\n')
  const start = startOf(lines)
  if (start === undefined) return { body: `${reply.trim()}\n` }
  const outer = outerFenceOf(lines, start)
  const fenced = fencedEndOf(lines, start, outer)
  // A fence that closed says where the handoff ends; otherwise its last section does.
  const isClosed = fenced.end < lines.length
  const end = !isClosed && fenced.lastSection !== undefined ? lastSectionEndOf(lines, fenced.lastSection + 1, fenced.end) : fenced.end
  let last = end
  while (last > start && lines[last - 1]!.trim() === '') last--
  const title = headingOf(lines[start]!)
  return { body: `${lines.slice(start, last).join('\n')}\n`, ...(title?.depth === 1 ? { title: title.text } : {}) }
}
