// A differential test of the mod's format check (hooks/handoff-format.ts, a
// hand-written scanner) against the Node validator (remark + zod), over
// handoffs and plans generated from a seed and mutated in the ways a model or
// a person slips: HTML blocks, indented and setext headings, quoted YAML,
// CRLF, a BOM, the lenient forms of parent, created and headings, and
// breaking changes (missing and empty sections, bad keys, headings in code).
//
// The mod may refuse more than the validator, never less: a file it accepts
// replaces the conversation. Where both define the rules a variant breaks, they
// report the same set of rules (tests/support/handoff-text.ts says which rules
// only one side has). Variants built only from forms meant to be
// accepted must pass both. FORMAT_SEED=<n> replays a failing seed.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { formatDiagnostics } from '../../packages/compact-handoff/hooks/handoff-format.js'
import { HANDOFF_SECTIONS, PLAN_SECTIONS } from '../../packages/compact-handoff/hooks/protocol-contents.js'
import type { FileKind } from '../../packages/compact-handoff/hooks/protocol-paths.js'
import { validateHandoff } from '../../packages/handoff-tools/src/validate.js'
import { comparableRules } from '../support/handoff-text.js'
import { randOf, type Rand } from '../support/property.js'

const SEED = Number(process.env.FORMAT_SEED ?? 20_261_129)
const VARIANTS = 1_200
/** remark parses a variant in ~2-8 ms on a loaded 2-core machine. */
const VALIDATOR_TIMEOUT_MS = 120_000
const PROJECT = '/srv/app'
const CONTEXT = { projectDir: PROJECT }

type Section = { name: string; heading: string[]; body: string[] }
type Doc = { kind: FileKind; frontmatter: string[]; title: string[]; sections: Section[] }

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

function handoffOf(rand: Rand): Doc {
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

function planOf(rand: Rand): Doc {
  return {
    kind: 'plan',
    frontmatter: ['kind: plan', 'created: 2026-11-29T16:40:00Z', 'chain: HANDOFF_parser-rewrite_2026-11-29', 'focus: "the parser rewrite"'],
    title: ['# Plan: parser rewrite'],
    sections: PLAN_SECTIONS.map((name) => sectionOf(name, name === 'Phases' ? ['', ...phasesBodyOf(rand)] : name === 'Goal' ? [...SNIPPETS[0]!, '', ...bodyOf(rand)] : bodyOf(rand))),
  }
}

function render(doc: Doc): string {
  const sections = doc.sections.flatMap((s) => [...s.heading, ...s.body, ''])
  return ['---', ...doc.frontmatter, '---', '', ...doc.title, '', ...sections].join('\n')
}

// Mutations. `keeps`: a form a good file may take, which both checks must
// accept. `any`: may break the file; then only "never laxer" is checked.

type Intent = 'keeps' | 'any'
type DocMutation = { name: string; intent: Intent; apply: (doc: Doc, rand: Rand) => Doc }
type TextMutation = { name: string; intent: Intent; apply: (text: string, rand: Rand) => string }

function withValue(doc: Doc, key: string, value: string): Doc {
  return { ...doc, frontmatter: doc.frontmatter.map((line) => (line.startsWith(`${key}:`) ? `${key}: ${value}` : line)) }
}

function withSection(doc: Doc, rand: Rand, change: (section: Section, index: number) => Section | Section[]): Doc {
  const at = rand.int(doc.sections.length)
  return { ...doc, sections: doc.sections.flatMap((s, i) => (i === at ? change(s, i) : [s])) }
}

/** Whether the body's last block may hold an indented line (a list or a quote). */
function endsInContainer(body: readonly string[]): boolean {
  const last = [...body].reverse().find((line) => line.trim() !== '') ?? ''
  return /^\s*(?:[-*+]|\d+[.)]|>)|^\s/.test(last)
}

const PARENT_PATH = 'plans/handoffs/HANDOFF_parser-rewrite_2026-11-28.md'
const VALID_CREATED = [
  '2026-11-29', '2026-11-29T14:05Z', '2026-11-29T14:05:00', '2026-11-29 14:05:00', '2026-11-29T14:05:00.123Z',
  '2026-11-29T14:05:00+01:00', '2026-11-29 14:05-05:30', '2024-02-29', '2026-12-31T23:59:59.999999Z', '"2026-11-29"',
]
const INVALID_CREATED = [
  '2026-02-29', '2026-11-31', '2026-13-01', '2026-00-10', '2026-11-29T24:00:00Z', '2026-11-29T14:05:60Z', '2026-11-29t14:05:00z',
  '2026-11-29T14:05:00+0100', '2026/11/29', 'yesterday', '2026-11-29T14Z', '2026-11-29  14:05', '2026-11-29T14:05:00 Z', '26-11-29', '',
]
const VALID_PARENTS = [PARENT_PATH, `./${PARENT_PATH}`, `${PROJECT}/${PARENT_PATH}`, '.claude/handoffs/HANDOFF_a_2026-11-28.md', `${PROJECT}/.claude/handoffs/HANDOFF_a.md`, `"./${PARENT_PATH}"`]
const INVALID_PARENTS = [
  `../app/${PARENT_PATH}`, `/srv/other/${PARENT_PATH}`, 'plans/handoffs/../handoffs/HANDOFF_x.md', `././${PARENT_PATH}`, 'plans//handoffs/HANDOFF_x.md',
  'plans/handoffs/PLAN_x.md', 'plans\\handoffs\\HANDOFF_x.md', 'None', `${PROJECT}/../app/${PARENT_PATH}`, 'plans/handoffs/old/HANDOFF_x.md',
  'HANDOFF_x.md', `${PROJECT}`, `${PROJECT}/./${PARENT_PATH}`, `/${PARENT_PATH}`, `.${PARENT_PATH}`,
]
const GOOD_VALUES: readonly [string, string][] = [
  ['focus', '"say \\"hi\\" to the parser"'], ['focus', "'it''s the parser'"], ['focus', '"tab\\there, \\u00e9t\\u00e9, \\x41, \\/"'],
  ['focus', "'plain in single quotes'"], ['focus', 'parser # a comment'], ['focus', '"quoted" # a comment'], ['focus', '-x, ?y and :z'],
  ['focus', 'a#b and a:b'], ['focus', 'Ünïcödé 🙂 text'], ['kind', '"KIND"'], ['status', "'in-progress'"], ['chain', '"HANDOFF_parser-rewrite_2026-11-29"'],
  ['focus', '"\\U0001F642"'], ['focus', '"a\\\\b"'],
]
const BAD_VALUES: readonly [string, string][] = [
  ['focus', '"bad "inner" quotes"'], ['focus', "'it's'"], ['focus', '"bad \\q escape"'], ['focus', '"unterminated'], ['focus', "'x' trailing"],
  ['focus', '"x"#c'], ['focus', '- x'], ['focus', '[x]'], ['focus', '{x: y}'], ['focus', 'a: b'], ['focus', '&x y'], ['focus', '*x'], ['focus', '!x y'],
  ['focus', '|'], ['focus', '>'], ['focus', '%x'], ['focus', '@x'], ['focus', '`x`'], ['focus', ',x'], ['focus', '? x'], ['focus', 'x:'], ['focus', '#c'],
  ['focus', '"\\x4"'], ['focus', '"\\u12"'], ['focus', '"\\U00110000"'], ['focus', '"ctl\x01"'], ['focus', '""'], ['focus', ''], ['focus', "''"],
  ['status', 'paused'], ['status', 'In-progress'], ['seq', '0'], ['seq', '02'], ['seq', 'first'], ['seq', '"1"'], ['seq', '1.0'], ['kind', 'plan'],
  ['kind', 'handoff'], ['chain', 'my-chain'], ['chain', 'PLAN_x'], ['focus', '"\\ud800"'], ['focus', 'a\u0085b'], ['focus', '\ufeffx'], ['focus', '\u2028'], ['focus', '"\\u2028\\u00a0"'], ['focus', '\u3000'],
]
const HEADING_FORMS = [(n: string) => n.toLowerCase(), (n: string) => n.toUpperCase(), (n: string) => n.replace(/\b\w/g, (c) => c.toUpperCase()), (n: string) => `${n}:`, (n: string) => `${n}.`, (n: string) => `${n} :`, (n: string) => `${n}!`, (n: string) => `${n}?`, (n: string) => `${n}  `, (n: string) => `${n} ##`]
const MARKUP_HEADINGS = [(n: string) => `**${n}**`, (n: string) => `\`${n}\``, (n: string) => `[${n}](x)`, (n: string) => `_${n}_`, (n: string) => `${n}&#33;`, (n: string) => `${n.slice(0, -1)}&#${n.charCodeAt(n.length - 1)};`, (n: string) => `\\${n}`, (n: string) => `<span>${n}</span>`, (n: string) => `![${n}](x)`, (n: string) => `[${n}][docs]`, (n: string) => `${n} \\#`, (n: string) => `${n} #`, (n: string) => `${n}&colon;`, (n: string) => `[${n}](a(b)c "t)")`, (n: string) => `${n}&amp;`]
const SWALLOWING_HTML = [['<div>'], ['<details>', ''], ['<!--'], ['<script>'], ['<?php'], ['<!DOCTYPE html'], ['<![CDATA['], ['<a href="x">'], ['<custom-tag>'], ['</div>'], ['<DIV class="x">'], ['<pre'], ['<style>']]
const CONTAINER_PREFIXES = ['> ', '- ', '1. ', '>', '* ', '2) ', '  ', '   ', '    ', '\t', ' \t']

const DOC_MUTATIONS: readonly DocMutation[] = [
  { name: 'created form', intent: 'keeps', apply: (doc, rand) => withValue(doc, 'created', rand.pick(VALID_CREATED)) },
  {
    name: 'parent form',
    intent: 'keeps',
    apply: (doc, rand) => (doc.kind === 'plan' ? doc : withValue(withValue(doc, 'seq', String(2 + rand.int(8))), 'parent', rand.pick(VALID_PARENTS))),
  },
  {
    name: 'heading case and punctuation',
    intent: 'keeps',
    apply: (doc, rand) => withSection(doc, rand, (s) => ({ ...s, heading: [`## ${rand.pick(HEADING_FORMS)(s.name)}`] })),
  },
  {
    name: 'quoted or commented value',
    intent: 'keeps',
    apply: (doc, rand) => {
      const [key, value] = rand.pick(GOOD_VALUES)
      return withValue(doc, key, key === 'kind' ? `"${doc.kind}"` : value)
    },
  },
  { name: 'frontmatter comment', intent: 'keeps', apply: (doc, rand) => ({ ...doc, frontmatter: [...doc.frontmatter.slice(0, 2), rand.pick(['# a comment', '  # indented comment', '', '\t']), ...doc.frontmatter.slice(2)] }) },
  {
    name: 'indented heading, 1-3 spaces',
    intent: 'keeps',
    apply: (doc, rand) =>
      withSection(doc, rand, (s, i) => {
        const spaces = i > 0 && endsInContainer(doc.sections[i - 1]!.body) ? ' ' : ' '.repeat(1 + rand.int(3))
        return { ...s, heading: s.heading.map((line) => `${spaces}${line.trimStart()}`) }
      }),
  },
  {
    name: 'setext heading',
    intent: 'keeps',
    apply: (doc, rand) => withSection(doc, rand, (s) => ({ ...s, heading: [s.name, `${'-'.repeat(1 + rand.int(5))}${rand.pick(['', ' ', '\t'])}`] })),
  },
  { name: 'HTML comment in a section', intent: 'keeps', apply: (doc, rand) => withSection(doc, rand, (s) => ({ ...s, body: [...s.body, '', rand.pick(['<!-- note -->', '<!--\nnote\n-->'])] })) },
  { name: 'HTML block in a section', intent: 'keeps', apply: (doc, rand) => withSection(doc, rand, (s) => ({ ...s, body: [...s.body, '', ...rand.pick([['<div class="note">', 'text', '</div>'], ['<table><tr><td>x</td></tr></table>'], ['<br/>']])] })) },
  { name: 'extra heading', intent: 'keeps', apply: (doc, rand) => withSection(doc, rand, (s) => ({ ...s, body: [...s.body, '', rand.pick(['### A sub-heading', '#### Deeper', '### Notes: **bold**']), 'Sub-heading text.'] })) },

  { name: 'bad created', intent: 'any', apply: (doc, rand) => withValue(doc, 'created', rand.pick(INVALID_CREATED)) },
  { name: 'bad parent', intent: 'any', apply: (doc, rand) => withValue(withValue(doc, 'seq', '2'), 'parent', rand.pick(INVALID_PARENTS)) },
  { name: 'seq and parent disagree', intent: 'any', apply: (doc, rand) => (rand.int(2) === 0 ? withValue(doc, 'seq', '3') : withValue(doc, 'parent', PARENT_PATH)) },
  {
    name: 'bad value',
    intent: 'any',
    apply: (doc, rand) => {
      const [key, value] = rand.pick(BAD_VALUES)
      return withValue(doc, key, value)
    },
  },
  {
    name: 'bad key line',
    intent: 'any',
    apply: (doc, rand) => {
      const at = rand.int(doc.frontmatter.length)
      const line = doc.frontmatter[at]!
      const bad = rand.pick([
        () => line.replace(/^(\w)(\w)/, '$2$1'),
        () => ` ${line}`,
        () => line.replace(': ', ':'),
        () => line.replace(/^\w/, (c) => c.toUpperCase()),
        () => `${line}\n${line}`,
        () => line.replace(': ', ' : '),
        () => `"${line.replace(':', '":')}`,
        () => `${line}\n  continued`,
        () => '...',
        () => '',
      ])()
      return { ...doc, frontmatter: doc.frontmatter.map((l, i) => (i === at ? bad : l)) }
    },
  },
  { name: 'missing section', intent: 'any', apply: (doc, rand) => withSection(doc, rand, () => []) },
  { name: 'empty section', intent: 'any', apply: (doc, rand) => withSection(doc, rand, (s) => ({ ...s, body: rand.pick([[], [''], ['   '], ['<!-- -->']]) })) },
  { name: 'duplicate section', intent: 'any', apply: (doc, rand) => ({ ...doc, sections: [...doc.sections, rand.pick(doc.sections)] }) },
  {
    name: 'sections out of order',
    intent: 'any',
    apply: (doc, rand) => {
      if (doc.sections.length < 2) return doc
      const i = rand.int(doc.sections.length - 1)
      const sections = [...doc.sections]
      ;[sections[i], sections[i + 1]] = [sections[i + 1]!, sections[i]!]
      return { ...doc, sections }
    },
  },
  {
    name: 'heading in a code fence',
    intent: 'any',
    apply: (doc, rand) =>
      withSection(doc, rand, (s) => {
        const fence = rand.pick(['```', '~~~', '````', '``` x`y', '  ```'])
        const close = rand.pick([fence.trim(), '```', '~~~', '`````', '', '``` x'])
        return { ...s, heading: [fence, ...s.heading], body: [...s.body, close] }
      }),
  },
  { name: 'heading in a container', intent: 'any', apply: (doc, rand) => withSection(doc, rand, (s) => ({ ...s, heading: s.heading.map((l) => `${rand.pick(CONTAINER_PREFIXES)}${l}`) })) },
  {
    name: 'heading after a list item',
    intent: 'any',
    apply: (doc, rand) =>
      withSection(doc, rand, (s, i) => {
        const previous = doc.sections[i - 1]
        if (!previous) return s
        previous.body = [...previous.body, rand.pick(['- item', '1. item', '10. item', '-', '> quote', '- a\n  - b'])]
        return { ...s, heading: s.heading.map((l) => `${rand.pick(['', ' ', '  ', '   ', '    ', '\t'])}${l}`) }
      }),
  },
  {
    name: 'HTML that may swallow a heading',
    intent: 'any',
    apply: (doc, rand) => withSection(doc, rand, (s) => ({ ...s, heading: [...rand.pick(SWALLOWING_HTML), ...s.heading], body: [...s.body, ...rand.pick([[], ['-->'], ['</script>'], ['?>'], ['>'], [']]>'], ['</pre>']])] })),
  },
  {
    name: 'risky setext',
    intent: 'any',
    apply: (doc, rand) =>
      withSection(doc, rand, (s) => {
        const under = rand.pick(['===', '---', '- - -', '  ---', '    ---', '-', '=', '***'])
        const text = rand.pick([s.name, `[${s.name}]`, `[x]: /url\n${s.name}`, `- ${s.name}`, `> ${s.name}`, `${s.name}\n${s.name}`, `    ${s.name}`])
        return { ...s, heading: [text, under] }
      }),
  },
  {
    name: 'block soup',
    intent: 'any',
    apply: (doc, rand) => withSection(doc, rand, (s) => ({ ...s, body: Array.from({ length: 3 + rand.int(10) }, () => rand.pick(SOUP_LINES)) })),
  },
  { name: 'markup in a heading', intent: 'any', apply: (doc, rand) => withSection(doc, rand, (s) => ({ ...s, heading: [`## ${rand.pick(MARKUP_HEADINGS)(s.name)}`], body: [...s.body, '', '[docs]: https://example.com'] })) },
  {
    name: 'phase change',
    intent: 'any',
    apply: (doc, rand) => ({
      ...doc,
      sections: doc.sections.map((s) =>
        s.name !== 'Phases'
          ? s
          : {
              ...s,
              body: s.body.map((line) =>
                line.startsWith('### Phase') && rand.int(2) === 0
                  ? rand.pick([
                      line.replace(/\d+/, String(rand.int(5))),
                      line.replace('###', '####'),
                      line.replace('Phase', 'phase'),
                      line.replace('Phase', '**Phase**'),
                      line.replace(/: .*/, ':'),
                      line.replace(/: (.*)/, ': ![$1](x)'),
                      line.replace(/: /, '&#58; '),
                      `${line}\n### Phase 1: again`,
                    ])
                  : line,
              ),
            },
      ),
    }),
  },
]

/** Lines that open, close or continue blocks, and heading-like lines, for
 * sections made of a random run of them. */
const SOUP_LINES = [
  '- item', '  - nested', '    deeper', '1. one', '1) one', '3. three', '> quote', '> > deeper', '>', '```', '~~~', '````', '```x`', '<div>', '</div>', '<!-- x',
  '-->', '<a b="c">', '<br/>', '', '', '', 'text', 'more text', '---', '===', '***', '- - -', '    code', '\tcode', ' \tmixed', '## Goal', '  ## Goal',
  '   ## Verify', '## Next step', 'Goal', '# Title', '### Phase 1: x', '### Phase 2: y', '[x]: /u', '[Goal]', '-', '*', '+ plus', '10. ten', '  text',
]

const NOISE_LINES = [
  '---', '***', '___', '===', '-', '- ', '* x', '1. x', '2) x', '> x', '>', '```', '~~~', '```js', '````', '<div>', '</div>', '<!--', '-->', '<br>',
  '<a href="x">', '    indented', '\tcode', '[x]: /url', '', '## Goal', '## Verify', '# Title', '### Phase 1: x', 'kind: handoff', '  ## Next step',
  '#', '##', '## ', '#######', '\\## Goal', '<details>', 'Goal', '   ---', '- - -', '| a | b |', ' ', '\u00a0', 'x\u2028y', '```\u2028', '---\u00a0', '--- ',
]

function linesAround(text: string): { lines: string[]; end: string } {
  return { lines: text.split('\n'), end: '\n' }
}

const TEXT_MUTATIONS: readonly TextMutation[] = [
  { name: 'CRLF', intent: 'keeps', apply: (text) => text.replace(/\r?\n/g, '\r\n') },
  { name: 'BOM', intent: 'keeps', apply: (text) => `\uFEFF${text.replace(/^\uFEFF/, '')}` },
  {
    name: 'trailing blanks',
    intent: 'keeps',
    apply: (text, rand) =>
      text
        .split('\n')
        .map((line) => (rand.int(4) === 0 && !/^(?: {4}|\t)/.test(line) && line !== '' ? line.replace(/\r?$/, (end) => `${rand.pick([' ', '  ', '\t'])}${end}`) : line))
        .join('\n'),
  },
  { name: 'CR or mixed line ends', intent: 'any', apply: (text, rand) => text.split('\n').map((line) => `${line}${rand.pick(['\n', '\r\n', '\r'])}`).join('') },
  {
    name: 'noise line',
    intent: 'any',
    apply: (text, rand) => {
      const { lines, end } = linesAround(text)
      lines.splice(rand.int(lines.length + 1), 0, rand.pick(NOISE_LINES))
      return lines.join(end)
    },
  },
  {
    name: 'line dropped or doubled',
    intent: 'any',
    apply: (text, rand) => {
      const { lines, end } = linesAround(text)
      const at = rand.int(lines.length)
      lines.splice(at, rand.int(2), ...(rand.int(2) === 0 ? [lines[at] ?? ''] : []))
      return lines.join(end)
    },
  },
]

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'handoffs')
const GOOD_FIXTURES: readonly { kind: FileKind; text: string }[] = ['handoff', 'continuation', 'code-blocks', 'plan', 'bom', 'crlf'].map((name) => ({
  kind: (JSON.parse(readFileSync(join(FIXTURES, name, 'expected.json'), 'utf8')) as { kind: FileKind }).kind,
  text: readFileSync(join(FIXTURES, name, 'input.md'), 'utf8'),
}))

type Variant = { kind: FileKind; text: string; mutations: string[] }

/** A generated document or a good fixture, with 1 to 4 mutations of `intent`
 * (`any` draws from all). Fixtures take only the text mutations. */
function variantOf(rand: Rand, intent: Intent): Variant {
  const docMutations = DOC_MUTATIONS.filter((m) => intent === 'any' || m.intent === 'keeps')
  const textMutations = TEXT_MUTATIONS.filter((m) => intent === 'any' || m.intent === 'keeps')
  const count = 1 + rand.int(4)
  const mutations: string[] = []
  if (rand.int(6) === 0) {
    const fixture = rand.pick(GOOD_FIXTURES)
    let text = fixture.text
    for (let i = 0; i < count; i++) {
      const mutation = rand.pick(textMutations)
      text = mutation.apply(text, rand)
      mutations.push(mutation.name)
    }
    return { kind: fixture.kind, text, mutations: ['fixture', ...mutations] }
  }
  let doc = rand.int(3) === 0 ? planOf(rand) : handoffOf(rand)
  const textSteps: TextMutation[] = []
  for (let i = 0; i < count; i++) {
    if (rand.int(3) === 0) textSteps.push(rand.pick(textMutations))
    else {
      const mutation = rand.pick(docMutations)
      doc = mutation.apply({ ...doc, sections: doc.sections.map((s) => ({ ...s })) }, rand)
      mutations.push(mutation.name)
    }
  }
  let text = render(doc)
  for (const mutation of textSteps) {
    text = mutation.apply(text, rand)
    mutations.push(mutation.name)
  }
  return { kind: doc.kind, text, mutations }
}

/** Each side's problems, one line each, and the rule sets to compare
 * (undefined where the mod reported a rule only it has). */
type Verdicts = { mod: string[]; validator: string[]; rules: { mod: string[]; validator: string[] } | undefined }

function verdictsOf({ kind, text }: Variant): Verdicts {
  const mod = formatDiagnostics(text, kind, CONTEXT)
  const validator = validateHandoff(text, kind, CONTEXT)
  return {
    mod: mod.map((d) => `${d.line} ${d.message} [${d.rule}]`),
    validator: validator.map((d) => `${d.line}:${d.column} ${d.reason} [${d.ruleId}]`),
    rules: comparableRules(
      mod.map((d) => d.rule),
      validator.map((d) => d.ruleId),
    ),
  }
}

/** Where both sides define the rules found, they found the same ones. */
function ruleMismatchOf({ rules }: Verdicts): string | undefined {
  if (rules === undefined || rules.mod.join() === rules.validator.join()) return undefined
  return `the two sides report different rules: mod ${rules.mod.join(', ')}; validator ${rules.validator.join(', ')}`
}

function failureOf(seed: number, run: number, variant: Variant, verdicts: Verdicts, what: string): string {
  return [
    `${what} (FORMAT_SEED=${seed}, run ${run}, a ${variant.kind}, mutations: ${variant.mutations.join(', ')})`,
    `mod: ${JSON.stringify(verdicts.mod)}`,
    `validator: ${JSON.stringify(verdicts.validator)}`,
    `text: ${JSON.stringify(variant.text.slice(0, 4000))}`,
  ].join('\n')
}

/** Runs `count` variants of `intent` from `seed`; returns them with their verdicts. */
function runVariants(seed: number, count: number, intent: Intent, check: (variant: Variant, verdicts: Verdicts) => string | undefined): Map<string, number> {
  const rand = randOf(seed)
  const seen = new Map<string, number>()
  for (let run = 0; run < count; run++) {
    const variant = variantOf(rand, intent)
    const verdicts = verdictsOf(variant)
    const failure = check(variant, verdicts)
    if (failure !== undefined) expect.fail(failureOf(seed, run, variant, verdicts, failure))
    for (const name of variant.mutations) seen.set(name, (seen.get(name) ?? 0) + 1)
    const outcome = `${verdicts.mod.length === 0 ? 'mod accepts' : 'mod refuses'}, ${verdicts.validator.length === 0 ? 'validator accepts' : 'validator refuses'}`
    seen.set(outcome, (seen.get(outcome) ?? 0) + 1)
    if (verdicts.rules !== undefined && verdicts.validator.length > 0) seen.set('rules compared', (seen.get('rules compared') ?? 0) + 1)
  }
  return seen
}

describe(`format check vs validator over ${VARIANTS} variants (FORMAT_SEED=${SEED})`, () => {
  test('the mod accepts nothing the validator rejects, and reports the same rules where both define them', { timeout: VALIDATOR_TIMEOUT_MS }, () => {
    const seen = runVariants(SEED, VARIANTS, 'any', (_variant, verdicts) =>
      verdicts.mod.length === 0 && verdicts.validator.length > 0 ? 'the mod accepts what the validator rejects' : ruleMismatchOf(verdicts),
    )
    for (const { name } of [...DOC_MUTATIONS, ...TEXT_MUTATIONS]) expect(seen.get(name) ?? 0, `the mutation "${name}" was drawn`).toBeGreaterThan(0)
    expect(seen.get('mod accepts, validator accepts') ?? 0, 'some variants are good').toBeGreaterThan(VARIANTS / 10)
    expect(seen.get('mod refuses, validator refuses') ?? 0, 'some variants are broken').toBeGreaterThan(VARIANTS / 10)
    expect(seen.get('rules compared') ?? 0, 'some broken variants are compared rule by rule').toBeGreaterThan(VARIANTS / 10)
  })

  test('both accept every variant made only of forms a good file may take', { timeout: VALIDATOR_TIMEOUT_MS }, () => {
    runVariants(SEED + 1, VARIANTS / 2, 'keeps', (_variant, { mod, validator }) =>
      mod.length > 0 || validator.length > 0 ? 'a form meant to be accepted is refused' : undefined,
    )
  })
})
