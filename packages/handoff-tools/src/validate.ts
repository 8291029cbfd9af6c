// Validates SKILL.md, handoff and plan files from their markdown tree (remark
// with remark-frontmatter) and their frontmatter (yaml, then zod). This is the
// reference the mod's light line scanner (hooks/format/handoff-format.ts) is held to:
// it sees headings exactly as a CommonMark reader does, so a heading inside a
// code block, a blockquote or a list is not a section.
import { remark } from 'remark'
import remarkFrontmatter from 'remark-frontmatter'
import { parseDocument } from 'yaml'
import type { z } from 'zod'
import {
  MAX_HANDOFF_BYTES,
  MIN_NONBLANK_CHARS,
  PLAN_SECTIONS,
  nonBlankCharsOf,
  phaseNumberOf,
  sectionNameOf,
} from '../../compact-handoff/hooks/protocol/protocol-contents.js'
import { HANDOFF_SECTIONS } from '../../compact-handoff/hooks/protocol/handoff-spec.js'
import type { FileKind } from '../../compact-handoff/hooks/protocol/protocol-paths.js'
import { diagnostic, START, type Diagnostic, type Position } from './diagnostics.js'
import { handoffFrontmatterSchema, planFrontmatterSchema, skillFrontmatterSchema, type ValidateContext } from './schemas.js'

const processor = remark().use(remarkFrontmatter, ['yaml'])

type Root = ReturnType<typeof processor.parse>
type Node = Root['children'][number]
type Heading = Extract<Node, { type: 'heading' }>

function startOf(node: { position?: { start: Position } | undefined } | undefined): Position {
  const start = node?.position?.start
  return start ? { line: start.line, column: start.column } : START
}

/** Plain text of a node, as a reader sees it (markup dropped). */
export function plainTextOf(node: unknown): string {
  if (typeof node !== 'object' || node === null) return ''
  if ('value' in node && typeof node.value === 'string') return node.value
  if ('children' in node && Array.isArray(node.children)) return node.children.map(plainTextOf).join('')
  return ''
}

export function parseMarkdown(text: string): Root {
  return processor.parse(text)
}

type YamlRead = { data: unknown; keyLines: Map<string, number>; problems: Diagnostic[] }

/** Parses the YAML node; positions are shifted to the file's lines. */
function readYaml(value: string, at: Position, schema: 'core' | 'failsafe'): YamlRead {
  const document = parseDocument(value, { schema, uniqueKeys: true })
  const firstLine = at.line + 1
  const problems = document.errors.map((error) => {
    const pos = error.linePos?.[0]
    const where = pos ? { line: firstLine + pos.line - 1, column: pos.col } : at
    // yaml's message counts lines from the frontmatter's start; the diagnostic's position counts from the file's
    const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')
    return diagnostic('frontmatter-yaml', `frontmatter is not valid YAML: ${message}`, where)
  })
  const keyLines = new Map<string, number>()
  value.split('\n').forEach((line, i) => {
    const key = /^([^\s:#][^:]*):/.exec(line)?.[1]
    if (key !== undefined && !keyLines.has(key)) keyLines.set(key, firstLine + i)
  })
  if (problems.length > 0) return { data: undefined, keyLines, problems }
  try {
    return { data: document.toJS(), keyLines, problems }
  } catch (error) {
    // A document that parses can still fail to resolve: an alias with no anchor (`focus: *x`).
    const message = error instanceof Error ? error.message : String(error)
    return { data: undefined, keyLines, problems: [diagnostic('frontmatter-yaml', `frontmatter is not valid YAML: ${message}`, at)] }
  }
}

function schemaProblems(
  schema: z.ZodType,
  read: YamlRead,
  at: Position,
  ruleOf: (path: readonly PropertyKey[]) => string,
): Diagnostic[] {
  if (read.data === undefined) return []
  const result = schema.safeParse(read.data ?? {})
  if (result.success) return []
  return result.error.issues.map((issue) => {
    const key = issue.path[0]
    const line = typeof key === 'string' ? read.keyLines.get(key) : undefined
    const name = key === undefined ? 'frontmatter' : `"${String(key)}"`
    const reason = issue.code === 'unrecognized_keys' ? `unknown frontmatter key(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}: remove them` : `${name} ${issue.message}`
    return diagnostic(ruleOf(issue.path), reason, line === undefined ? at : { line, column: 1 })
  })
}

function sizeProblems(text: string): Diagnostic[] {
  const problems: Diagnostic[] = []
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes > MAX_HANDOFF_BYTES) problems.push(diagnostic('file-too-large', `file is ${bytes} bytes, over the ${MAX_HANDOFF_BYTES}-byte cap`))
  const nonBlank = nonBlankCharsOf(text)
  if (nonBlank < MIN_NONBLANK_CHARS) {
    problems.push(diagnostic('too-short', `file holds ${nonBlank} non-blank characters; at least ${MIN_NONBLANK_CHARS} are needed`))
  }
  return problems
}

/** A section: its heading and the top-level nodes up to the next heading of
 * the same or a higher level. */
type Section = { heading: Heading; content: Node[] }

function sectionsAt(nodes: readonly Node[], depth: number): Section[] {
  const sections: Section[] = []
  let open: Section | undefined
  for (const node of nodes) {
    if (node.type === 'heading' && node.depth <= depth) {
      open = node.depth === depth ? { heading: node, content: [] } : undefined
      if (open) sections.push(open)
    } else open?.content.push(node)
  }
  return sections
}

function sectionProblems(root: Root, kind: FileKind): Diagnostic[] {
  const problems: Diagnostic[] = []
  const body = root.children.filter((node) => node.type !== 'yaml')
  const sections = sectionsAt(body, 2)
  const required: readonly string[] = kind === 'plan' ? PLAN_SECTIONS : HANDOFF_SECTIONS
  let previous: { name: string; index: number; at: Position } | undefined
  for (const [position, name] of required.entries()) {
    const found = sections.flatMap((s, i) => (sectionNameOf(plainTextOf(s.heading)) === name ? [i] : []))
    const index = found[0]
    if (index === undefined) {
      const where = position === 0 ? 'as the first section' : `after "## ${required[position - 1]}"`
      problems.push(diagnostic('section-missing', `missing section "## ${name}": add it ${where}`, previous?.at ?? startOf(body[0])))
      continue
    }
    const section = sections[index]!
    const at = startOf(section.heading)
    for (const extra of found.slice(1)) {
      problems.push(diagnostic('section-duplicate', `section "## ${name}" appears again: merge it into the first`, startOf(sections[extra]!.heading)))
    }
    if (previous && index < previous.index) {
      problems.push(diagnostic('section-order', `section "## ${name}" comes before "## ${previous.name}": use the order ${required.join(', ')}`, at))
    }
    if (section.content.length === 0) problems.push(diagnostic('section-empty', `section "## ${name}" is empty: write its content, or "None"`, at))
    if (kind === 'plan' && name === 'Phases') problems.push(...phaseProblems(section))
    previous = { name, index, at }
  }
  return problems
}

function phaseProblems(phases: Section): Diagnostic[] {
  const problems: Diagnostic[] = []
  let expected = 1
  for (const phase of sectionsAt(phases.content, 3)) {
    const title = plainTextOf(phase.heading).trim()
    const number = phaseNumberOf(title)
    if (number === undefined) continue
    const at = startOf(phase.heading)
    if (number !== expected) problems.push(diagnostic('phase-numbering', `"### ${title}" should be Phase ${expected}: number phases 1, 2, 3… in order`, at))
    if (phase.content.length === 0) problems.push(diagnostic('phase-empty', `"### ${title}" is empty: give its actions, files and how to verify it`, at))
    expected++
  }
  if (expected === 1) problems.push(diagnostic('phase-missing', '"## Phases" has no "### Phase 1: <title>"', startOf(phases.heading)))
  return problems
}

function yamlNodeOf(root: Root): Extract<Node, { type: 'yaml' }> | undefined {
  const first = root.children[0]
  return first?.type === 'yaml' ? first : undefined
}

/** Every problem of a handoff or plan file; empty when it is sound. `context`
 * names the project its `parent` path is read against. */
export function validateHandoff(text: string, kind: FileKind, context: ValidateContext): Diagnostic[] {
  const problems = sizeProblems(text)
  if (problems.some((p) => p.ruleId === 'file-too-large')) return problems
  const root = parseMarkdown(text)
  const yaml = yamlNodeOf(root)
  if (!yaml) {
    problems.push(diagnostic('frontmatter-missing', `no frontmatter: start the file with "---", the ${kind}'s keys, and "---"`))
  } else {
    const at = startOf(yaml)
    const read = readYaml(yaml.value, at, 'failsafe')
    const schema = kind === 'plan' ? planFrontmatterSchema : handoffFrontmatterSchema(context)
    problems.push(...read.problems, ...schemaProblems(schema, read, at, (path) => (path[0] === 'kind' ? 'kind-mismatch' : 'frontmatter-field')))
  }
  problems.push(...sectionProblems(root, kind))
  return problems
}

/** Every problem of a SKILL.md; `folder` is the name of the folder holding it. */
export function validateSkill(text: string, folder: string): Diagnostic[] {
  const root = parseMarkdown(text)
  const yaml = yamlNodeOf(root)
  if (!yaml) return [diagnostic('frontmatter-missing', 'no frontmatter: a SKILL.md starts with "---", its keys (at least description), and "---"')]
  const at = startOf(yaml)
  const read = readYaml(yaml.value, at, 'core')
  const problems = [...read.problems, ...schemaProblems(skillFrontmatterSchema, read, at, () => 'skill-frontmatter')]
  const name = (read.data as { name?: unknown } | undefined)?.name
  if (typeof name === 'string' && name !== folder) {
    problems.push(diagnostic('skill-name', `"name: ${name}" differs from its folder "${folder}": keep them equal so the command name is the folder's`, { line: read.keyLines.get('name') ?? at.line, column: 1 }))
  }
  if (root.children.length < 2) problems.push(diagnostic('skill-empty', 'the skill has no instructions after its frontmatter', at))
  return problems
}
