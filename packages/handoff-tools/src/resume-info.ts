// What a tool needs to resume from a handoff or plan file, read from its
// markdown tree: `handoff-check --json` prints this for each file, with the
// problems found, so a tool need not parse Markdown itself.
import { parseDocument } from 'yaml'
import { sectionNameOf } from '../../compact-handoff/hooks/protocol/protocol-contents.js'
import type { Diagnostic } from './diagnostics.js'
import { parseMarkdown, plainTextOf } from './validate.js'

type Root = ReturnType<typeof parseMarkdown>
type Node = Root['children'][number]

/** A problem as a tool reads it; the rule names are the CLI's. */
export type Problem = { rule: string; line: number; message: string }

export type FileSummary = {
  /** The path as given on the command line. */
  file: string
  /** What the file was checked as; null when it was not (unreadable, unknown). */
  kind: 'handoff' | 'plan' | 'skill' | null
  /** The frontmatter's keys and values as YAML reads them (failsafe for a
   * handoff or plan: every scalar a string); null when it has none that parses. */
  frontmatter: Record<string, unknown> | null
  /** The first level-1 heading's text. */
  title: string | null
  /** Every level-2 section: its heading's text and its Markdown source. */
  sections: { heading: string; text: string }[]
  /** The Next step section's text. */
  nextStep: string | null
  /** The Files section's list items: what to reopen. */
  files: string[]
  /** The Verify section's commands: a list item's first code span (its text
   * when it has none), a code block's lines, a paragraph's code spans. */
  verify: string[]
  /** Empty when the file passes. */
  problems: Problem[]
}

export function problemOf(d: Diagnostic): Problem {
  return { rule: d.ruleId, line: d.line, message: d.reason }
}

type Section = { heading: string; content: Node[] }

function sectionsOf(root: Root): Section[] {
  const sections: Section[] = []
  let open: Section | undefined
  for (const node of root.children) {
    if (node.type === 'heading' && node.depth <= 2) {
      open = node.depth === 2 ? { heading: plainTextOf(node).trim(), content: [] } : undefined
      if (open) sections.push(open)
    } else if (node.type !== 'yaml') open?.content.push(node)
  }
  return sections
}

function sourceOf(text: string, nodes: readonly Node[]): string {
  const start = nodes[0]?.position?.start.offset
  const end = nodes[nodes.length - 1]?.position?.end.offset
  return start === undefined || end === undefined ? '' : text.slice(start, end).trim()
}

function listItemsOf(nodes: readonly Node[]): Node[] {
  return nodes.flatMap((node) => (node.type === 'list' ? (node.children as Node[]) : []))
}

/** Every inline code span under `node`. */
function codeSpansOf(node: unknown): string[] {
  if (typeof node !== 'object' || node === null) return []
  if ('type' in node && node.type === 'inlineCode' && 'value' in node && typeof node.value === 'string') return [node.value]
  if ('children' in node && Array.isArray(node.children)) return node.children.flatMap(codeSpansOf)
  return []
}

function commandsOf(nodes: readonly Node[]): string[] {
  return nodes.flatMap((node): string[] => {
    if (node.type === 'code') return node.value.split('\n').map((line) => line.trim()).filter((line) => line !== '')
    if (node.type === 'list') {
      return listItemsOf([node]).flatMap((item) => {
        // `cmd` -> `expected output`: the first span is the command.
        const command = codeSpansOf(item)[0]
        return [command ?? plainTextOf(item).trim()]
      })
    }
    return codeSpansOf(node)
  })
}

function frontmatterOf(root: Root, kind: FileSummary['kind']): Record<string, unknown> | null {
  const first = root.children[0]
  if (first?.type !== 'yaml') return null
  const document = parseDocument(first.value, { schema: kind === 'skill' ? 'core' : 'failsafe', uniqueKeys: true })
  if (document.errors.length > 0) return null
  try {
    const data: unknown = document.toJS()
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** The summary of one file's text checked as `kind`, with its problems. */
export function summaryOf(file: string, text: string, kind: FileSummary['kind'], problems: readonly Diagnostic[]): FileSummary {
  const root = parseMarkdown(text)
  const sections = sectionsOf(root)
  const named = (name: string) => sections.find((s) => sectionNameOf(s.heading) === name)
  const title = root.children.find((node) => node.type === 'heading' && node.depth === 1)
  const next = named('Next step')
  return {
    file,
    kind,
    frontmatter: frontmatterOf(root, kind),
    title: title === undefined ? null : plainTextOf(title).trim(),
    sections: sections.map((s) => ({ heading: s.heading, text: sourceOf(text, s.content) })),
    nextStep: next === undefined ? null : sourceOf(text, next.content),
    files: listItemsOf(named('Files')?.content ?? []).map((item) => plainTextOf(item).trim()),
    verify: commandsOf(named('Verify')?.content ?? []),
    problems: problems.map(problemOf),
  }
}

/** The summary of a file that could not be checked at all. */
export function unreadSummaryOf(file: string, problems: readonly Diagnostic[]): FileSummary {
  return { file, kind: null, frontmatter: null, title: null, sections: [], nextStep: null, files: [], verify: [], problems: problems.map(problemOf) }
}
