// What a level-2 or level-3 heading names: a section, a plan's phase, or
// nothing this check can be sure of. Headings are matched on their source; CommonMark's inline parsing can make a
// heading's text differ from it (`## **Goal**` reads "Goal"). A heading with
// inline markup is read a second time with the markup dropped, and when the
// two readings disagree on the section or phase it names, the file is sent
// back: the validator reads the rendered text, and this check must never
// find a section where the validator finds none, or miss one it finds.
// One pass over the heading, so linear in its length.
import type { Heading } from './handoff-markdown.js'
import { phaseNumberOf, sectionNameOf, type SectionName } from '../protocol/protocol-contents.js'

/** Named character references read as text; any other name makes a heading unclear. */
const NAMED_REFERENCES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }
const CHARACTER_REFERENCE_RE = /^&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{0,31}));/
/** Dropped from a heading's second reading: escapes, code span and emphasis
 * delimiters, link and image brackets, autolink and HTML angle brackets. */
const DROPPED_MARKUP = new Set(['\\', '`', '*', '_', '[', ']', '<', '>', '!'])

function hasInlineMarkup(source: string): boolean {
  for (const char of source) if (DROPPED_MARKUP.has(char) || char === '&') return true
  return false
}

/** The character reference at `source[at]` (an `&`): its text (undefined for a
 * name this reader does not know) and its length; undefined when none is there. */
function referenceAt(source: string, at: number): { text: string | undefined; length: number } | undefined {
  const match = CHARACTER_REFERENCE_RE.exec(source.slice(at, at + 40))
  if (!match) return undefined
  const [whole, decimal, hex, name] = match
  const code = decimal !== undefined ? Number(decimal) : hex !== undefined ? parseInt(hex, 16) : undefined
  const text = code !== undefined ? String.fromCodePoint(code > 0 && code <= 0x10ffff ? code : 0xfffd) : NAMED_REFERENCES[name ?? '']
  return { text, length: whole.length }
}

/**
 * A heading's text with inline markup dropped: image descriptions, link
 * destinations and reference labels (`![…]`, `](…)`, `][…]`) removed,
 * character references decoded, the markup characters deleted. Undefined when
 * it holds a reference this reader does not know. One pass, so linear.
 */
function markupFreeTextOf(source: string): string | undefined {
  const parts: string[] = []
  /** Inside `](…)`: how many parentheses are open, and any open title quote. */
  let destination: { depth: number; quote: string | undefined } | undefined
  let inLabel = false
  /** Inside `![…]`: how many brackets are open. */
  let imageDepth = 0
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!
    if (imageDepth > 0) {
      if (char === '\\') i++
      else if (char === '[') imageDepth++
      else if (char === ']') imageDepth--
      if (imageDepth > 0) continue
      // The description is closed: a destination or a label may follow.
      if (source[i + 1] === '(') destination = { depth: 1, quote: undefined }
      inLabel = source[i + 1] === '['
      if (destination || inLabel) i++
    } else if (destination) {
      if (char === '\\') i++
      else if (destination.quote !== undefined) destination.quote = char === destination.quote ? undefined : destination.quote
      else if (char === '"' || char === "'") destination.quote = char
      else if (char === '(') destination.depth++
      else if (char === ')' && --destination.depth === 0) destination = undefined
    } else if (inLabel) {
      if (char === '\\') i++
      else if (char === ']') inLabel = false
    } else if (char === '!' && source[i + 1] === '[') {
      imageDepth = 1
      i++
    } else if (char === ']' && source[i + 1] === '(') {
      destination = { depth: 1, quote: undefined }
      i++
    } else if (char === ']' && source[i + 1] === '[') {
      inLabel = true
      i++
    } else if (char === '&') {
      const reference = referenceAt(source, i)
      if (reference && reference.text === undefined) return undefined
      parts.push(reference?.text ?? '&')
      i += (reference?.length ?? 1) - 1
    } else if (!DROPPED_MARKUP.has(char)) parts.push(char)
  }
  return parts.join('')
}

export type HeadingReading = { section: SectionName | undefined; phase: number | undefined; isUnclear: boolean }

/** What a heading names: a section at level 2, a phase at level 3. */
export function readingOf(heading: Heading): HeadingReading {
  const section = sectionNameOf(heading.text)
  const phase = phaseNumberOf(heading.text)
  if (!hasInlineMarkup(heading.text) || (heading.depth !== 2 && heading.depth !== 3)) return { section, phase, isUnclear: false }
  const bare = markupFreeTextOf(heading.text)
  const differs = heading.depth === 2 ? (text: string) => sectionNameOf(text) !== section : (text: string) => phaseNumberOf(text) !== phase
  return { section, phase, isUnclear: bare === undefined || differs(bare) }
}
