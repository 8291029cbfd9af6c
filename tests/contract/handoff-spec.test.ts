// What cannot be built from the handoff spec (protocol/handoff-spec.ts) is
// held to it here, each failure naming the file to change: the counts and
// section lists the READMEs and the skills' Markdown spell out, the eval
// cases' section grader, and the eval's parent handoff. The skills' templates are held
// by tests/contract/contract.test.ts, the fixtures by format-corpus.test.ts.
import { execFileSync } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { formatProblems } from '../../packages/compact-handoff/hooks/format/handoff-format.js'
import { HANDOFF_SECTION_COUNT_WORD, HANDOFF_SECTIONS } from '../../packages/compact-handoff/hooks/protocol/handoff-spec.js'
import { forkPromptOf } from '../../packages/compact-handoff/hooks/compaction/fork-prompt.js'
import { PARENT_HANDOFF_TEXT } from '../support/eval-histories.js'
import { SECTIONS_GRADER, sectionsPatternOf } from '../harness/generated.js'

const ROOT = join(import.meta.dirname, '..', '..')
/** Records of past runs keep the words of their day. */
const RECORDS = ['tests/fork-eval/runs/', 'tests/fork-eval/inputs/', 'tests/fixtures/']

const docs = execFileSync('git', ['ls-files', '*.md'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((path) => path !== '' && !RECORDS.some((record) => path.startsWith(record)))
  .map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }))

/** "ten sections", "ten level-2 sections", "the ten headings": a count of a
 * handoff's sections as prose writes it (not "level-3 headings"). */
const COUNT_RE = /(?<![\w-])(\w+) (?:level-2 )?(?:sections|headings)\b/g
const COUNT_WORDS = /^(?:no|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|\d+)$/

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length
}

/** "A, B (what B holds), C and D" as its names; "and" joins only the last
 * two (a name may hold it: "Tried and ruled out"). */
function listedNamesOf(list: string): string[] {
  const items = list.replace(/\([^)]*\)/g, '').replace(/\s+/g, ' ').split(',').map((item) => item.trim())
  const last = items.pop() ?? ''
  const join = last.lastIndexOf(' and ')
  return [...items, ...(join < 0 ? [last] : [last.slice(0, join), last.slice(join + 5)])].filter((name) => name !== '')
}

describe('the counts and lists of sections the docs spell out', () => {
  const counts = docs.flatMap(({ path, text }) =>
    [...text.matchAll(COUNT_RE)].filter((m) => COUNT_WORDS.test(m[1]!.toLowerCase())).map((m) => ({ where: `${path}:${lineOf(text, m.index)}`, word: m[1]!.toLowerCase() })),
  )

  test('every count of a handoff\'s sections is the spec\'s', () => {
    expect(counts.length, 'the READMEs and the skills count the sections somewhere').toBeGreaterThan(0)
    const wrong = counts.filter((c) => c.word !== HANDOFF_SECTION_COUNT_WORD).map((c) => `${c.where}: "${c.word}"`)
    expect(wrong, `change each to "${HANDOFF_SECTION_COUNT_WORD}" (protocol/handoff-spec.ts has ${HANDOFF_SECTIONS.length} sections)`).toEqual([])
  })

  test('every list of the sections "in this order" names the spec\'s, in its order', () => {
    const lists = docs.flatMap(({ path, text }) =>
      [...text.matchAll(/sections in this order: ([^]*?)\.(?:\s|$)/g)].map((m) => ({
        where: `${path}:${lineOf(text, m.index)}`,
        names: listedNamesOf(m[1]!),
      })),
    )
    expect(lists.length).toBeGreaterThan(0)
    for (const { where, names } of lists) expect(names, `${where}: name the sections of protocol/handoff-spec.ts in its order`).toEqual([...HANDOFF_SECTIONS])
  })

  test('the fork is told the same count', () => {
    expect(forkPromptOf({ focus: '', isMidTurn: false })).toContain(`then these ${HANDOFF_SECTION_COUNT_WORD} sections as level-2 headings`)
  })
})

type Grader = { name: string; input_match?: string }
const EVALS = join(ROOT, 'skills', 'evals')
const cases = readdirSync(EVALS, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
  .map((d) => ({ path: `skills/evals/${d.name}/case.yaml`, graders: (parse(readFileSync(join(EVALS, d.name, 'case.yaml'), 'utf8')) as { graders: Grader[] }).graders }))

describe('the eval cases\' section grader', () => {
  const graded = cases.flatMap(({ path, graders }) => graders.filter((g) => g.name === SECTIONS_GRADER).map((g) => ({ path, pattern: g.input_match })))

  test('is the spec\'s sections, in order, each non-empty', () => {
    expect(graded.length).toBeGreaterThan(0)
    const expected = sectionsPatternOf(HANDOFF_SECTIONS)
    for (const { path, pattern } of graded) expect(pattern, `${path}: run pnpm gen (it sets the input_match of ${SECTIONS_GRADER})`).toBe(expected)
  })

  test('passes a Write of a handoff in the spec\'s shape and fails one less any section', () => {
    const pattern = new RegExp(sectionsPatternOf(HANDOFF_SECTIONS))
    const write = (sections: readonly string[]) =>
      JSON.stringify({ file_path: '/p/plans/handoffs/HANDOFF_x_2026-11-29.md', content: `---\nkind: handoff\n---\n\n# Handoff: x\n\n${sections.map((s) => `## ${s}\nNone\n`).join('\n')}` })
    expect(pattern.test(write(HANDOFF_SECTIONS))).toBe(true)
    for (const name of HANDOFF_SECTIONS) expect(pattern.test(write(HANDOFF_SECTIONS.filter((s) => s !== name))), `without ${name}`).toBe(false)
  })

  test('no grader name counts the sections (the count lives in the spec)', () => {
    const counted = cases.flatMap(({ path, graders }) => graders.filter((g) => /(?:^|-)[a-z]+-sections\b/.test(g.name) && COUNT_WORDS.test(g.name.split('-')[0]!)).map((g) => `${path}: ${g.name}`))
    expect(counted).toEqual([])
  })
})

test('the eval\'s parent handoff (tests/support/eval-histories.ts, skills/evals/_project/csvkit.sh) passes the format check', () => {
  expect(formatProblems(PARENT_HANDOFF_TEXT, 'handoff', { projectDir: '/project' })).toEqual([])
})
