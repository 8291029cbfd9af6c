// The on-disk format check the mod runs before any swap: frontmatter, the
// required sections in order, a plan's numbered phases, a size floor and cap.
// A hooks module can import no npm package (engine rule, 2.1.332), so this is a
// line scanner, not a markdown parser; tests/format-corpus.test.ts holds it to
// the remark + zod validator in packages/handoff-tools over a fixture corpus and
// fails wherever this accepts a file the validator rejects.
import {
  HANDOFF_DIRS,
  HANDOFF_FRONTMATTER_KEYS,
  HANDOFF_SECTIONS,
  MIN_NONBLANK_CHARS,
  PLAN_FRONTMATTER_KEYS,
  PLAN_SECTIONS,
  fileKindOfName,
  type FileKind,
  HANDOFF_STATUSES,
  MAX_HANDOFF_BYTES,
  NO_PARENT,
} from './protocol.js'

/** Frontmatter values are ISO 8601 date-times with a zone, as the skills write them. */
const CREATED_RE = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/
const POSITIVE_INT_RE = /^[1-9]\d*$/
const KEY_LINE_RE = /^([A-Za-z_][\w-]*):(?:[ \t]+(.*?))?[ \t]*$/
/** Plain YAML scalars may not start with these; such a value is a structure this
 * flat reader does not model, so it is refused rather than misread. */
const YAML_INDICATOR_RE = /^[[\]{}|>&*!%@`#,?:-](?:\s|$)|^[[\]{}|>&*!%@`]/
const FENCE_RE = /^ {0,3}(`{3,}|~{3,})(.*)$/
const ATX_RE = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/
const SETEXT_RE = /^ {0,3}(=+|-+)[ \t]*$/
/** Lines that open a block other than a paragraph, so a setext underline
 * after them is not one. */
const NOT_PARAGRAPH_RE = /^(?: {4}|\t| {0,3}(?:[-*+][ \t]|\d{1,9}[.)][ \t]|>|#|<))/
const PHASE_TITLE_RE = /^Phase (\d+):[ \t]*\S/

type Heading = { depth: number; text: string; line: number }
type Frontmatter = { fields: Map<string, string>; bodyStart: number }

function utf8Bytes(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

function unquote(raw: string): string | undefined {
  if (raw.startsWith('"')) return raw.endsWith('"') && raw.length >= 2 ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : undefined
  if (raw.startsWith("'")) return raw.endsWith("'") && raw.length >= 2 ? raw.slice(1, -1).replace(/''/g, "'") : undefined
  const plain = raw.replace(/[ \t]+#.*$/, '')
  return YAML_INDICATOR_RE.test(plain) || /:(?:\s|$)/.test(plain) ? undefined : plain
}

function readFrontmatter(lines: readonly string[], problems: string[]): Frontmatter | undefined {
  if (lines[0]?.trimEnd() !== '---') {
    problems.push('has no frontmatter: start the file with a "---" line, the kind\'s keys, and a closing "---" line')
    return undefined
  }
  const close = lines.findIndex((line, i) => i > 0 && line.trimEnd() === '---')
  if (close < 0) {
    problems.push('frontmatter is never closed: add a "---" line after its last key')
    return undefined
  }
  const fields = new Map<string, string>()
  for (let i = 1; i < close; i++) {
    const line = lines[i] ?? ''
    if (line.trim() === '' || /^\s*#/.test(line)) continue
    const match = KEY_LINE_RE.exec(line)
    const value = match ? unquote(match[2] ?? '') : undefined
    if (!match || value === undefined) {
      problems.push(`frontmatter line ${i + 1} is not a "key: value" pair: write each key on one line with a plain or quoted value`)
      continue
    }
    if (fields.has(match[1]!)) problems.push(`frontmatter key "${match[1]}" appears twice: keep one`)
    fields.set(match[1]!, value.trim())
  }
  return { fields, bodyStart: close + 1 }
}

function isHandoffPath(relPath: string): boolean {
  const cut = relPath.lastIndexOf('/')
  const dir = relPath.slice(0, Math.max(cut, 0))
  return (HANDOFF_DIRS as readonly string[]).includes(dir) && fileKindOfName(relPath.slice(cut + 1)) === 'handoff'
}

function frontmatterProblems(fields: ReadonlyMap<string, string>, kind: FileKind): string[] {
  const problems: string[] = []
  const keys = kind === 'plan' ? PLAN_FRONTMATTER_KEYS : HANDOFF_FRONTMATTER_KEYS
  for (const key of keys) {
    if (!fields.has(key)) problems.push(`frontmatter lacks "${key}": add it (a ${kind} has ${keys.join(', ')})`)
  }
  const value = (key: string) => fields.get(key) ?? ''
  if (fields.has('kind') && value('kind') !== kind) {
    problems.push(`frontmatter says "kind: ${value('kind')}" but the file name makes it a ${kind}: set "kind: ${kind}"`)
  }
  if (fields.has('created') && !CREATED_RE.test(value('created'))) {
    problems.push(`"created: ${value('created')}" is not an ISO 8601 time with a zone: write it like 2026-11-29T14:05:00Z`)
  }
  if (fields.has('chain') && fileKindOfName(`${value('chain')}.md`) !== 'handoff') {
    problems.push(`"chain: ${value('chain')}" is not a chain id: use the first handoff's file name without ".md"`)
  }
  if (fields.has('focus') && value('focus') === '') problems.push('"focus" is empty: write the focus the handoff was asked for, or "none"')
  if (kind === 'plan') return problems
  if (fields.has('status') && !(HANDOFF_STATUSES as readonly string[]).includes(value('status'))) {
    problems.push(`"status: ${value('status')}" is not one of ${HANDOFF_STATUSES.join(', ')}: pick one`)
  }
  const seqOk = POSITIVE_INT_RE.test(value('seq'))
  if (fields.has('seq') && !seqOk) problems.push(`"seq: ${value('seq')}" is not a whole number from 1: write 1 for a first handoff`)
  const parent = value('parent')
  const parentOk = parent === NO_PARENT || isHandoffPath(parent)
  if (fields.has('parent') && !parentOk) {
    problems.push(`"parent: ${parent}" is neither "${NO_PARENT}" nor a handoff path like plans/handoffs/HANDOFF_<slug>_<date>.md`)
  }
  if (seqOk && parentOk && (value('seq') === '1') !== (parent === NO_PARENT)) {
    problems.push(`"seq: ${value('seq')}" and "parent: ${parent}" disagree: a first handoff has seq 1 and parent ${NO_PARENT}, a continuation names its parent`)
  }
  return problems
}

/** ATX and setext headings outside fenced code and HTML comments, and which of
 * them have text of their own before the next heading. */
function headingsOf(lines: readonly string[], from: number): { headings: Heading[]; hasContent: Set<number> } {
  const headings: Heading[] = []
  const contentLines = new Map<number, number>()
  let fence: { char: string; length: number } | undefined
  let inComment = false
  /** Lines of the paragraph still open, which a setext underline turns into a heading. */
  let paragraphLines = 0
  const addContent = (count: number) => {
    const owner = headings.length - 1
    if (owner >= 0) contentLines.set(owner, (contentLines.get(owner) ?? 0) + count)
  }
  for (let i = from; i < lines.length; i++) {
    const line = lines[i] ?? ''
    if (fence) {
      addContent(1)
      const close = FENCE_RE.exec(line)
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length && close[2]!.trim() === '') fence = undefined
      continue
    }
    if (inComment) {
      addContent(1)
      if (line.includes('-->')) inComment = false
      continue
    }
    const open = FENCE_RE.exec(line)
    const setext = SETEXT_RE.exec(line)
    const atx = ATX_RE.exec(line)
    if (setext && paragraphLines > 0) {
      // As in CommonMark, a run of "-" or "=" right under text underlines it:
      // the paragraph above is a heading, not content of the section before.
      addContent(-paragraphLines)
      const text = lines.slice(i - paragraphLines, i).map((l) => l.trim()).join('\n')
      headings.push({ depth: setext[1]![0] === '=' ? 1 : 2, text, line: i - paragraphLines + 1 })
      paragraphLines = 0
    } else if (open && !(open[1]![0] === '`' && open[2]!.includes('`'))) {
      fence = { char: open[1]![0]!, length: open[1]!.length }
      addContent(1)
      paragraphLines = 0
    } else if (/^ {0,3}<!--/.test(line) && !line.includes('-->')) {
      inComment = true
      addContent(1)
      paragraphLines = 0
    } else if (atx) {
      headings.push({ depth: atx[1]!.length, text: (atx[2] ?? '').trim(), line: i + 1 })
      paragraphLines = 0
    } else if (line.trim() === '') {
      paragraphLines = 0
    } else {
      addContent(1)
      const startsParagraph = !NOT_PARAGRAPH_RE.test(line)
      paragraphLines = paragraphLines > 0 || startsParagraph ? paragraphLines + 1 : 0
    }
  }
  const hasContent = new Set([...contentLines].filter(([, count]) => count > 0).map(([index]) => index))
  return { headings, hasContent }
}

/** Whether heading `index` has any content before the next heading of depth
 * `depth` or higher (a section's sub-headings count as its content). */
function sectionHasContent(headings: readonly Heading[], hasContent: ReadonlySet<number>, index: number, depth: number): boolean {
  for (let i = index; i < headings.length; i++) {
    if (i > index && headings[i]!.depth <= depth) return false
    if (i > index || hasContent.has(i)) return true
  }
  return false
}

function sectionProblems(headings: readonly Heading[], hasContent: ReadonlySet<number>, kind: FileKind): string[] {
  const problems: string[] = []
  const required: readonly string[] = kind === 'plan' ? PLAN_SECTIONS : HANDOFF_SECTIONS
  let previous: { name: string; index: number } | undefined
  for (const [position, name] of required.entries()) {
    const found = headings.flatMap((h, i) => (h.depth === 2 && h.text === name ? [i] : []))
    const index = found[0]
    if (index === undefined) {
      const where = position === 0 ? 'as the first section' : `after "## ${required[position - 1]}"`
      problems.push(`missing section "## ${name}": add it ${where} (write "None" when there is nothing to say)`)
      continue
    }
    if (found.length > 1) problems.push(`section "## ${name}" appears ${found.length} times (lines ${found.map((i) => headings[i]!.line).join(', ')}): merge them into one`)
    if (previous && index < previous.index) problems.push(`section "## ${name}" (line ${headings[index]!.line}) comes before "## ${previous.name}": put the sections in the order ${required.join(', ')}`)
    if (!sectionHasContent(headings, hasContent, index, 2)) problems.push(`section "## ${name}" (line ${headings[index]!.line}) is empty: write its content, or "None"`)
    previous = { name, index }
  }
  return kind === 'plan' ? [...problems, ...phaseProblems(headings, hasContent)] : problems
}

function phaseProblems(headings: readonly Heading[], hasContent: ReadonlySet<number>): string[] {
  const start = headings.findIndex((h) => h.depth === 2 && h.text === 'Phases')
  if (start < 0) return []
  const problems: string[] = []
  let expected = 1
  for (let i = start + 1; i < headings.length && headings[i]!.depth > 2; i++) {
    const heading = headings[i]!
    const match = heading.depth === 3 ? PHASE_TITLE_RE.exec(heading.text) : null
    if (!match) continue
    if (Number(match[1]) !== expected) problems.push(`"### ${heading.text}" (line ${heading.line}) should be Phase ${expected}: number phases 1, 2, 3… in order`)
    if (!sectionHasContent(headings, hasContent, i, 3)) problems.push(`"### ${heading.text}" (line ${heading.line}) is empty: give its actions, files and how to verify it`)
    expected++
  }
  if (expected === 1) problems.push('"## Phases" has no "### Phase 1: <title>": add the phases as level-3 headings numbered from 1')
  return problems
}

/** Problems that keep `text` from replacing a conversation as a file of `kind`;
 * empty when none. Each says what is wrong and how to fix it. */
export function formatProblems(text: string, kind: FileKind): string[] {
  const bytes = utf8Bytes(text)
  if (bytes > MAX_HANDOFF_BYTES) return [`is ${bytes} bytes, over the ${MAX_HANDOFF_BYTES}-byte cap: keep to what the next session needs`]
  const problems: string[] = []
  const nonBlank = text.replace(/^\uFEFF/, '').replace(/\s+/g, '').length
  if (nonBlank < MIN_NONBLANK_CHARS) problems.push(`holds ${nonBlank} non-blank characters; at least ${MIN_NONBLANK_CHARS} are needed`)
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  const frontmatter = readFrontmatter(lines, problems)
  if (frontmatter) problems.push(...frontmatterProblems(frontmatter.fields, kind))
  const { headings, hasContent } = headingsOf(lines, frontmatter?.bodyStart ?? 0)
  problems.push(...sectionProblems(headings, hasContent, kind))
  return problems
}

/** The frontmatter's fields, or undefined when the text has none that reads
 * cleanly: how the mod learns a parent handoff's chain and seq. */
export function frontmatterOf(text: string): ReadonlyMap<string, string> | undefined {
  const problems: string[] = []
  const frontmatter = readFrontmatter(text.replace(/^\uFEFF/, '').split(/\r?\n/), problems)
  return frontmatter !== undefined && problems.length === 0 ? frontmatter.fields : undefined
}
