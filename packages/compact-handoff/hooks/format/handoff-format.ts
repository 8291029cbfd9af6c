// The on-disk format check the mod runs before any swap: frontmatter, the
// required sections in order, a plan's numbered phases, a size floor and cap.
// A hooks module can import no npm package (engine rule, 2.1.332), so the
// frontmatter is read by frontmatter.ts' flat YAML reader and the body by handoff-markdown.ts;
// tests/contract/format-corpus.test.ts and tests/contract/format-differential.test.ts hold this to
// the remark + zod validator in packages/handoff-tools and fail wherever this
// accepts a file the validator rejects or reads other sections in it. Where
// the validator may read a line otherwise, it refuses and says how to write it plainly.
//
// It runs in a hook over model-written text: every step is linear in the text
// (no backtracking regex), since a hook that runs ~5 s without yielding gets
// the mod unloaded for the rest of the session (seen live, 2.1.332).
import { readFrontmatterOf, type Frontmatter } from './frontmatter.js'
import {
  HANDOFF_FRONTMATTER_KEYS,
  HANDOFF_STATUSES,
  MAX_HANDOFF_BYTES,
  MIN_NONBLANK_CHARS,
  NO_PARENT,
  PLAN_FRONTMATTER_KEYS,
  PLAN_SECTIONS,
  isChainValue,
  isCreatedValue,
  isFocusValue,
  isSeqValue,
  nonBlankCharsOf,
  parentRelPathOf,
  phaseNumberOf,
  sectionNameOf,
  type RuleProblem,
  type SectionName,
} from '../protocol/protocol-contents.js'
import { HANDOFF_SECTIONS } from '../protocol/handoff-spec.js'
import type { FileKind } from '../protocol/protocol-paths.js'
import { bodyLinesOf, type BodyLine, type Heading } from './handoff-markdown.js'

// What a level-2 or level-3 heading names: a section, a plan's phase, or
// nothing this check can be sure of. Headings are matched on their source;
// CommonMark's inline parsing can make a heading's text differ from it
// (`## **Goal**` reads "Goal"). A heading with inline markup is read a second
// time with the markup dropped, and when the two readings disagree on the
// section or phase it names, the file is sent back: the validator reads the
// rendered text, and this check must never find a section where the validator
// finds none, or miss one it finds. One pass over the heading, so linear in
// its length.

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

type HeadingReading = { section: SectionName | undefined; phase: number | undefined; isUnclear: boolean }

/** What a heading names: a section at level 2, a phase at level 3. */
export function readingOf(heading: Heading): HeadingReading {
  const section = sectionNameOf(heading.text)
  const phase = phaseNumberOf(heading.text)
  if (!hasInlineMarkup(heading.text) || (heading.depth !== 2 && heading.depth !== 3)) return { section, phase, isUnclear: false }
  const bare = markupFreeTextOf(heading.text)
  const differs = heading.depth === 2 ? (text: string) => sectionNameOf(text) !== section : (text: string) => phaseNumberOf(text) !== phase
  return { section, phase, isUnclear: bare === undefined || differs(bare) }
}

/** What the check knows beyond the text: the project (the absolute path of
 * the folder the session runs in), against which `parent` is read. */
export type FormatContext = { projectDir: string }

/** Values quoted back in a problem are cut here, so a runaway value does not
 * flood the repair prompt. */
const MAX_SHOWN_CHARS = 80

/** `value` cut to MAX_SHOWN_CHARS, never between the halves of a surrogate pair. */
function shown(value: string): string {
  if (value.length <= MAX_SHOWN_CHARS) return value
  const last = value.charCodeAt(MAX_SHOWN_CHARS - 1)
  return `${value.slice(0, last >= 0xd800 && last <= 0xdbff ? MAX_SHOWN_CHARS - 1 : MAX_SHOWN_CHARS)}…`
}

function frontmatterProblems({ fields, keyLines }: Frontmatter, kind: FileKind, context: FormatContext): RuleProblem[] {
  const problems: RuleProblem[] = []
  const field = (key: string, message: string): RuleProblem => ({ rule: key === 'kind' ? 'kind-mismatch' : 'frontmatter-field', line: keyLines.get(key) ?? 1, message })
  const keys = kind === 'plan' ? PLAN_FRONTMATTER_KEYS : HANDOFF_FRONTMATTER_KEYS
  for (const key of keys) {
    if (!fields.has(key)) problems.push(field(key, `frontmatter lacks "${key}": add it (a ${kind} has ${keys.join(', ')})`))
  }
  const value = (key: string) => fields.get(key) ?? ''
  if (fields.has('kind') && value('kind') !== kind) {
    problems.push(field('kind', `frontmatter says "kind: ${shown(value('kind'))}" but the file name makes it a ${kind}: set "kind: ${kind}"`))
  }
  if (fields.has('created') && !isCreatedValue(value('created'))) {
    problems.push(field('created', `"created: ${shown(value('created'))}" is not a date or an ISO 8601 time: write it like 2026-11-29T14:05:00Z, or 2026-11-29`))
  }
  if (fields.has('chain') && !isChainValue(value('chain'))) {
    problems.push(field('chain', `"chain: ${shown(value('chain'))}" is not a chain id: use the first handoff's file name without ".md"`))
  }
  // Blank in any script counts as empty, as it does for the validator (JS trim).
  if (fields.has('focus') && !isFocusValue(value('focus'))) problems.push(field('focus', '"focus" is empty: write the focus the handoff was asked for, or "none"'))
  if (kind === 'plan') return problems
  if (fields.has('status') && !(HANDOFF_STATUSES as readonly string[]).includes(value('status'))) {
    problems.push(field('status', `"status: ${shown(value('status'))}" is not one of ${HANDOFF_STATUSES.join(', ')}: pick one`))
  }
  const seqOk = isSeqValue(value('seq'))
  if (fields.has('seq') && !seqOk) problems.push(field('seq', `"seq: ${shown(value('seq'))}" is not a whole number from 1: write 1 for a first handoff`))
  const parent = parentRelPathOf(value('parent'), context.projectDir)
  if (fields.has('parent') && parent === undefined) {
    problems.push(field(
      'parent',
      `"parent: ${shown(value('parent'))}" is neither "${NO_PARENT}" nor the path of a handoff in plans/handoffs/ or .claude/handoffs/ of this project, like plans/handoffs/HANDOFF_<slug>_<date>.md`,
    ))
  }
  if (seqOk && parent !== undefined && (value('seq') === '1') !== (parent === NO_PARENT)) {
    problems.push(field('seq', `"seq: ${value('seq')}" and "parent: ${shown(value('parent'))}" disagree: a first handoff has seq 1 and parent ${NO_PARENT}, a continuation names its parent`))
  }
  return problems
}

/** A heading and the body lines up to the next heading of its level or higher. */
type Section = { heading: Heading; content: BodyLine[] }

function sectionsAt(blocks: readonly BodyLine[], depth: number): Section[] {
  const sections: Section[] = []
  let open: Section | undefined
  for (const block of blocks) {
    if (block.kind === 'heading' && block.depth <= depth) {
      open = block.depth === depth ? { heading: block, content: [] } : undefined
      if (open) sections.push(open)
    } else open?.content.push(block)
  }
  return sections
}

function sectionProblems(blocks: readonly BodyLine[], readings: ReadonlyMap<BodyLine, HeadingReading>, kind: FileKind): RuleProblem[] {
  const problems: RuleProblem[] = []
  const sections = sectionsAt(blocks, 2)
  const required: readonly SectionName[] = kind === 'plan' ? PLAN_SECTIONS : HANDOFF_SECTIONS
  const names = sections.map((section) => readings.get(section.heading)?.section)
  let previous: { name: string; index: number; line: number } | undefined
  for (const [position, name] of required.entries()) {
    // One look over the sections for each of the few required names: linear.
    const found = names.flatMap((named, i) => (named === name ? [i] : []))
    const index = found[0]
    if (index === undefined) {
      const where = position === 0 ? 'as the first section' : `after "## ${required[position - 1]}"`
      problems.push({ rule: 'section-missing', line: previous?.line ?? 1, message: `missing section "## ${name}": add it ${where} (write "None" when there is nothing to say)` })
      continue
    }
    const section = sections[index]!
    const line = section.heading.line
    if (found.length > 1) problems.push({ rule: 'section-duplicate', line: sections[found[1]!]!.heading.line, message: `section "## ${name}" appears ${found.length} times (lines ${found.map((i) => sections[i]!.heading.line).join(', ')}): merge them into one` })
    if (previous && index < previous.index) problems.push({ rule: 'section-order', line, message: `section "## ${name}" (line ${line}) comes before "## ${previous.name}": put the sections in the order ${required.join(', ')}` })
    if (section.content.length === 0) problems.push({ rule: 'section-empty', line, message: `section "## ${name}" (line ${line}) is empty: write its content, or "None"` })
    if (kind === 'plan' && name === 'Phases') problems.push(...phaseProblems(section, readings))
    previous = { name, index, line }
  }
  return problems
}

function phaseProblems(phases: Section, readings: ReadonlyMap<BodyLine, HeadingReading>): RuleProblem[] {
  const problems: RuleProblem[] = []
  let expected = 1
  for (const phase of sectionsAt(phases.content, 3)) {
    const number = readings.get(phase.heading)?.phase
    if (number === undefined) continue
    const title = shown(phase.heading.text.trim())
    if (number !== expected) problems.push({ rule: 'phase-numbering', line: phase.heading.line, message: `"### ${title}" (line ${phase.heading.line}) should be Phase ${expected}: number phases 1, 2, 3… in order` })
    if (phase.content.length === 0) problems.push({ rule: 'phase-empty', line: phase.heading.line, message: `"### ${title}" (line ${phase.heading.line}) is empty: give its actions, files and how to verify it` })
    expected++
  }
  if (expected === 1) problems.push({ rule: 'phase-missing', line: phases.heading.line, message: '"## Phases" has no "### Phase 1: <title>": add the phases as level-3 headings numbered from 1' })
  return problems
}

function bodyProblems(lines: readonly string[], from: number, kind: FileKind): RuleProblem[] {
  const { body, refusals } = bodyLinesOf(lines, from)
  const problems = refusals.map(({ line, why }): RuleProblem => ({ rule: 'markdown-unclear', line, message: `line ${line}: ${why}` }))
  const readings = new Map<BodyLine, HeadingReading>()
  for (const line of body) {
    if (line.kind !== 'heading' || (line.depth !== 2 && line.depth !== 3)) continue
    const reading = readingOf(line)
    readings.set(line, reading)
    if (reading.isUnclear) {
      const message = `line ${line.line}: the heading "${shown(line.text)}" names a section only once its markup is rendered: write section and phase headings as plain text, like "## Goal"`
      problems.push({ rule: 'heading-unclear', line: line.line, message })
    }
  }
  return [...problems, ...sectionProblems(body, readings, kind)]
}

/** At most this many problems are listed; a file with more is rewritten, not
 * patched, and the list goes into the repair prompt. */
const MAX_LISTED_PROBLEMS = 30

function cappedProblems(problems: readonly RuleProblem[]): RuleProblem[] {
  if (problems.length <= MAX_LISTED_PROBLEMS) return [...problems]
  const more = { rule: 'too-many-problems', line: 1, message: `and ${problems.length - MAX_LISTED_PROBLEMS} more problems: rewrite the file in the documented shape` }
  return [...problems.slice(0, MAX_LISTED_PROBLEMS), more]
}

/** Every problem that keeps `text` from replacing a conversation as a file
 * of `kind`, as data; empty when none. Each message says what is wrong and
 * how to fix it. */
export function formatDiagnostics(text: string, kind: FileKind, context: FormatContext): RuleProblem[] {
  const bytes = new TextEncoder().encode(text).length
  if (bytes > MAX_HANDOFF_BYTES) return [{ rule: 'file-too-large', line: 1, message: `is ${bytes} bytes, over the ${MAX_HANDOFF_BYTES}-byte cap: keep to what the next session needs` }]
  const problems: RuleProblem[] = []
  const nonBlank = nonBlankCharsOf(text)
  if (nonBlank < MIN_NONBLANK_CHARS) problems.push({ rule: 'too-short', line: 1, message: `holds ${nonBlank} non-blank characters; at least ${MIN_NONBLANK_CHARS} are needed` })
  const { lines, frontmatter, problems: unread } = readFrontmatterOf(text)
  problems.push(...unread)
  if (frontmatter) problems.push(...frontmatterProblems(frontmatter, kind, context))
  problems.push(...bodyProblems(lines, frontmatter?.bodyStart ?? 0, kind))
  return cappedProblems(problems)
}

/** formatDiagnostics' messages, one line each: what the repair prompt lists. */
export function formatProblems(text: string, kind: FileKind, context: FormatContext): string[] {
  return formatDiagnostics(text, kind, context).map((d) => d.message)
}

/** Each level-2 section's text, keyed by the section it names (the first of a
 * name wins), read by the same reader as the format check: a heading inside a
 * fence, a list or a quote is no section, here as there, and a line that may
 * be HTML (a comment a preview hides) is left out of the text. The resume
 * prompt quotes from here, so what it quotes is what the check passed; the
 * Node side reads with remark (handoff-tools' validate.ts and resume-info.ts),
 * held to this one by tests/contract/format-differential.test.ts. Linear:
 * each line is taken once. */
export function sectionTextsOf(text: string): Map<SectionName, string> {
  const { lines, frontmatter } = readFrontmatterOf(text)
  const from = frontmatter?.bodyStart ?? 0
  const byLine = new Map(bodyLinesOf(lines, from).body.map((line) => [line.line, line]))
  const texts = new Map<SectionName, string>()
  let open: { name: SectionName; parts: string[] } | undefined
  const close = () => {
    if (open !== undefined && !texts.has(open.name)) texts.set(open.name, open.parts.join('\n').trim())
  }
  for (let i = from; i < lines.length; i++) {
    const line = byLine.get(i + 1)
    if (line?.kind === 'heading' && line.depth <= 2) {
      close()
      const name = line.depth === 2 ? readingOf(line).section : undefined
      open = name === undefined ? undefined : { name, parts: [] }
    } else if (open !== undefined && !(line?.kind === 'text' && line.isHtml === true)) open.parts.push(lines[i]!)
  }
  close()
  return texts
}
