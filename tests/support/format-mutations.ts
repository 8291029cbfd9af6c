// The ways the differential test bends or breaks a document, after the slips
// a model or a person makes: HTML blocks, indented and setext headings, quoted
// YAML, CRLF, a BOM, the lenient forms of parent, created and headings, and
// breaking changes (missing and empty sections, bad keys, headings in code).
// The lists lean on the corners where the format's simple grammar and
// CommonMark (remark) may read a line differently, which the check must refuse.
import type { Doc, Section } from './format-documents.js'
import type { Rand } from './property.js'

/** `keeps`: a form a good file may take, which both checks must accept.
 * `any`: may break the file; then only "never laxer" is checked. */
export type Intent = 'keeps' | 'any'
export type DocMutation = { name: string; intent: Intent; apply: (doc: Doc, rand: Rand) => Doc }
export type TextMutation = { name: string; intent: Intent; apply: (text: string, rand: Rand) => string }

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

/** The project both checks are told about: the parents below are valid or
 * not relative to it, so the test must hand the checks this same directory. */
export const PROJECT = '/srv/app'

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

export const DOC_MUTATIONS: readonly DocMutation[] = [
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
    intent: 'any',
    apply: (doc, rand) =>
      withSection(doc, rand, (s, i) => {
        const spaces = i > 0 && endsInContainer(doc.sections[i - 1]!.body) ? ' ' : ' '.repeat(1 + rand.int(3))
        return { ...s, heading: s.heading.map((line) => `${spaces}${line.trimStart()}`) }
      }),
  },
  {
    name: 'setext heading',
    intent: 'any',
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
        const fence = rand.pick(['```', '~~~', '````', '``` x`y', '  ```', '- item\n  ```', '1. item\n   ~~~', '\t```', ' ```'])
        const close = rand.pick([fence.trim().split('\n').at(-1)!.trim(), '```', '~~~', '`````', '', '``` x', '  ```', '   ```', '     ```', '\t```'])
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
  '  ```', '   ~~~', '\t```', '    ```', '<!-->', '  <!--', '<details>', '<pre>', '</pre>', '- ```', '> ```', '\t## Goal', ' \t## Goal',
]

const NOISE_LINES = [
  '---', '***', '___', '===', '-', '- ', '* x', '1. x', '2) x', '> x', '>', '```', '~~~', '```js', '````', '<div>', '</div>', '<!--', '-->', '<br>',
  '<a href="x">', '    indented', '\tcode', '[x]: /url', '', '## Goal', '## Verify', '# Title', '### Phase 1: x', 'kind: handoff', '  ## Next step',
  '#', '##', '## ', '#######', '\\## Goal', '<details>', 'Goal', '   ---', '- - -', '| a | b |', ' ', '\u00a0', 'x\u2028y', '```\u2028', '---\u00a0', '--- ',
]

function linesAround(text: string): { lines: string[]; end: string } {
  return { lines: text.split('\n'), end: '\n' }
}

export const TEXT_MUTATIONS: readonly TextMutation[] = [
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
