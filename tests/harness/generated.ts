/**
 * The files built from the handoff spec (packages/compact-handoff/hooks/protocol/handoff-spec.ts)
 * and kept in the repository because a tool other than ours reads them: the eval cases' section
 * grader (the eval runner reads case.yaml) and the fork eval's prompts and writer inputs (a
 * stand-in model reads them).
 * `pnpm gen` writes them; tests/contract/generated.test.ts fails while any is out of date. So a
 * section added to the spec reaches them all by `pnpm gen`, none edited by hand.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { forkPromptOf } from '../../packages/compact-handoff/hooks/compaction/fork-prompt.js'
import { HANDOFF_SECTIONS } from '../../packages/compact-handoff/hooks/protocol/handoff-spec.js'
import { EXACT_VALUES_RULE, HANDOFF_WRITING_RULES } from '../../packages/compact-handoff/hooks/protocol/protocol-contents.js'
import { CONDITIONED_EXACT_VALUES_RULE, VARIANTS, writerInputOf } from '../fork-eval/method.js'

export interface GeneratedFile {
  /** Repository-relative, with `/`. */
  path: string
  text: string
}

/** The eval cases' grader that holds a handoff's sections in order, none empty. */
export const SECTIONS_GRADER = 'handoff-sections-in-order-none-empty'

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}

/** The grader's pattern over a Write call's JSON input: a handoff file whose content holds
 * each section's heading in order, none followed straight by another heading (nor, for the
 * last, by the content's end). */
export function sectionsPatternOf(sections: readonly string[]): string {
  const between = String.raw`(?:[^"\\]|\\.)*?`
  return (
    String.raw`^(?=.*"file_path":"(?:[^"]*/)?HANDOFF_[^"/]*\.md").*?"content":"` +
    sections
      .map((name, i) => `${between}\\\\n## ${escaped(name)}\\\\n${i === sections.length - 1 ? String.raw`(?!(?:\\n)*(?:## |"))` : String.raw`(?!(?:\\n)*## )`}`)
      .join('')
  )
}

/** A case.yaml with its section grader's `input_match` set to the spec's pattern (a YAML
 * single-quoted scalar), every other line as it was. */
export function withSectionsGrader(yaml: string): string {
  const lines = yaml.split('\n')
  const at = lines.findIndex((line) => line.trim() === `- name: ${SECTIONS_GRADER}`)
  if (at < 0) return yaml
  for (let i = at + 1; i < lines.length && !/^\s*- name: /.test(lines[i]!); i++) {
    const match = /^(\s*)input_match: /.exec(lines[i]!)
    if (match !== null) {
      lines[i] = `${match[1]}input_match: '${sectionsPatternOf(HANDOFF_SECTIONS).replace(/'/g, "''")}'`
      break
    }
  }
  return lines.join('\n')
}

/** Every generated file, as the spec makes it now. */
export function generatedFilesOf(root: string): GeneratedFile[] {
  const read = (path: string) => readFileSync(join(root, path), 'utf8')
  const dirsOf = (path: string) => readdirSync(join(root, path), { withFileTypes: true }).filter((d) => d.isDirectory() && !d.name.startsWith('_')).map((d) => d.name).sort()
  const cases = dirsOf('skills/evals').map((name) => `skills/evals/${name}/case.yaml`)
  // every: the current prompt; after: the same with the exact-values rule runs 1 and 2 had;
  // before: after less the writing rules (tests/fork-eval/method.ts names the three).
  const every = forkPromptOf({ focus: '', isMidTurn: true })
  const after = every.replace(`- ${EXACT_VALUES_RULE}`, `- ${CONDITIONED_EXACT_VALUES_RULE}`)
  const ruleLines = new Set([CONDITIONED_EXACT_VALUES_RULE, ...HANDOFF_WRITING_RULES.slice(1)].map((rule) => `- ${rule}`))
  const prompts: Record<(typeof VARIANTS)[number], string> = { every, after, before: after.split('\n').filter((line) => !ruleLines.has(line)).join('\n') }
  return [
    ...cases.map((path) => ({ path, text: withSectionsGrader(read(path)) })),
    ...VARIANTS.flatMap((variant) => [
      { path: `tests/fork-eval/prompts/${variant}.txt`, text: prompts[variant] },
      { path: `tests/fork-eval/inputs/writer-${variant}.md`, text: writerInputOf(prompts[variant]) },
    ]),
  ]
}
