// The documents the format differential test starts from: a good handoff or
// plan drawn from a seed. Each part is kept as its own lines so that a
// mutation can bend one heading or one frontmatter key and render again,
// instead of editing text it would have to parse first.
import { PLAN_SECTIONS } from '../../packages/compact-handoff/hooks/protocol/protocol-contents.js'
import { HANDOFF_SECTIONS } from '../../packages/compact-handoff/hooks/protocol/handoff-spec.js'
import type { FileKind } from '../../packages/compact-handoff/hooks/protocol/protocol-paths.js'
import type { Rand } from './property.js'

export type Section = { name: string; heading: string[]; body: string[] }
export type Doc = { kind: FileKind; frontmatter: string[]; title: string[]; sections: Section[] }

// Section bodies: the blocks real handoffs hold, several with heading-like
// lines that are not headings (inside code, quotes, comments, list items).
const SNIPPETS: readonly string[][] = [
  ['Plain words about the work, long enough to count as content of a section.'],
  ['A paragraph that runs', 'over two lines, with `npm test` and *emphasis* in it.'],
  ['- first point', '- second point with `pnpm test`', '  continued on an indented line'],
  ['1. step one', '2. step two', '   - a nested detail'],
  ['* a star item', '+ a plus item'],
  ['```sh', '# a shell comment', '## not a heading', 'pnpm test', '```'],
  ['~~~', '## Goal', '~~~'],
  ['````markdown', '```', '## Verify', '```', '````'],
  ['> quoted from the user:', '> ## Next step', '> keep it short'],
  ['<!-- a note for the reader -->'],
  ['<!--', '## Goal', '-->'],
  ['| file | change |', '| --- | --- |', '| src/a.ts | new |'],
  ['None'],
  ['See [the docs][docs].', '', '[docs]: https://example.com/docs'],
  ['- [x] done', '- [ ] not done'],
  ['Text before some code:', '', '    indented code', '    ## not a heading either'],
  ['- an item with a fence:', '', '  ```', '  ## inside the item', '  ```'],
  ['<details>', '<summary>the log</summary>', '', 'Details text.', '', '</details>'],
  ['Verify:', '`git status --short` -> nothing'],
]

function bodyOf(rand: Rand): string[] {
  const count = 1 + rand.int(3)
  return Array.from({ length: count }, () => rand.pick(SNIPPETS)).flatMap((snippet, i) => (i === 0 ? snippet : ['', ...snippet]))
}

function sectionOf(name: string, body: string[]): Section {
  return { name, heading: [`## ${name}`], body }
}

function phasesBodyOf(rand: Rand): string[] {
  const count = 1 + rand.int(3)
  return Array.from({ length: count }, (_, i) => [`### Phase ${i + 1}: ${rand.pick(['tokenizer', 'parser', 'wire it up', 'docs'])}`, ...bodyOf(rand), '']).flat()
}

export function handoffOf(rand: Rand): Doc {
  return {
    kind: 'handoff',
    frontmatter: [
      'kind: handoff',
      'created: 2026-11-29T14:05:00Z',
      `status: ${rand.pick(['in-progress', 'waiting-for-user', 'done'])}`,
      'chain: HANDOFF_parser-rewrite_2026-11-29',
      'seq: 1',
      'parent: none',
      `focus: ${rand.pick(['none', '"the parser rewrite"', 'parser rewrite'])}`,
    ],
    title: ['# Handoff: parser rewrite'],
    sections: HANDOFF_SECTIONS.map((name) => sectionOf(name, name === 'Goal' ? [...SNIPPETS[0]!, '', ...bodyOf(rand)] : bodyOf(rand))),
  }
}

export function planOf(rand: Rand): Doc {
  return {
    kind: 'plan',
    frontmatter: ['kind: plan', 'created: 2026-11-29T16:40:00Z', 'chain: HANDOFF_parser-rewrite_2026-11-29', 'focus: "the parser rewrite"'],
    title: ['# Plan: parser rewrite'],
    sections: PLAN_SECTIONS.map((name) => sectionOf(name, name === 'Phases' ? ['', ...phasesBodyOf(rand)] : name === 'Goal' ? [...SNIPPETS[0]!, '', ...bodyOf(rand)] : bodyOf(rand))),
  }
}

export function render(doc: Doc): string {
  const sections = doc.sections.flatMap((s) => [...s.heading, ...s.body, ''])
  return ['---', ...doc.frontmatter, '---', '', ...doc.title, '', ...sections].join('\n')
}
