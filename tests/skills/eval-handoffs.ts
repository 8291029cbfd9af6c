// The files and answers a scripted model gives in the eval cases: good ones follow the
// skills' format and carry the facts of the case's past session; bad ones break named rules.
import { HANDOFF_SECTIONS, type HandoffSection } from '../../packages/compact-handoff/hooks/protocol/handoff-spec.js'
import { COMMITS, PARENT_HANDOFF, UNVERIFIED_CLAIMS, USER_WORDS } from '../support/eval-sessions.js'

/** What the judge's request says first: how a judge request is told apart. */
export const JUDGE_ASK = 'You are grading the output of a coding agent against a criterion.'
export const DASHES = '-'.repeat(40)
export const TODAY = new Date().toISOString().slice(0, 10)

export type Variant = 'good' | 'bad'

// ---------------------------------------------------------------------------------------
// The files a scripted model writes. Good ones follow the skills' format and carry the facts
// of the case's past session; bad ones break named rules.

interface HandoffInput {
  chain: string
  seq: number
  parent: string
  focus: string
  state: string[]
  inProgress: string
  openQuestions: string
  nextStep: string
  verify: string[]
  constraints?: string[]
}

/** Each section of a good handoff of the case's work, keyed by the spec's
 * sections; one the case has no words for (just added to the spec) holds
 * "None", as a writer with nothing to say for it writes it. */
function sectionLinesOf(f: HandoffInput): Partial<Record<HandoffSection, string[]>> {
  return {
    Goal: [`"${USER_WORDS.goal}" Done when node --test passes with fields holding commas, quotes and line breaks.`],
    Constraints: f.constraints ?? USER_WORDS.standing.map((s) => `- ${s}`),
    State: f.state,
    'In progress': [f.inProgress],
    'Tried and ruled out': [`- \`field.replace('"', '""')\`: replaces only the first quote; "doubles embedded quotes" fails with '"say ""hi""'.`],
    Decisions: ['- Fields with line breaks are in scope: the user took back their earlier "skip CRLF for now".'],
    'Open questions': [f.openQuestions],
    Files: ['Changed, uncommitted: src/format.js, test/format.test.js.', 'Reopen first (at most 5, most important first):', '1. `src/format.js`', '2. `test/format.test.js`'],
    'Next step': [f.nextStep],
    Verify: f.verify,
  }
}

export function handoffText(f: HandoffInput): string {
  const sections = sectionLinesOf(f)
  return [
    '---',
    'kind: handoff',
    `created: ${TODAY}T16:40:00Z`,
    'status: in-progress',
    `chain: ${f.chain}`,
    `seq: ${f.seq}`,
    `parent: ${f.parent}`,
    `focus: ${f.focus}`,
    '---',
    '',
    '# Handoff: RFC 4180 quoting in formatRow',
    '',
    ...HANDOFF_SECTIONS.flatMap((name) => [`## ${name}`, ...(sections[name] ?? ['None']), '']),
  ].join('\n')
}

export const QUOTING_INPUT: HandoffInput = {
  chain: `HANDOFF_csv-quoting_${TODAY}`,
  seq: 1,
  parent: 'none',
  focus: 'none',
  state: [
    '- [verified] a field holding a comma is quoted - `node --test` -> "quotes a field that holds a comma" passes',
    `- [unverified] ${UNVERIFIED_CLAIMS.parseRow}: said in the session, never tested`,
  ],
  inProgress: 'src/format.js quoteField wraps the field in quotes but doubles only the first embedded quote. Uncommitted.',
  openQuestions: 'None',
  nextStep: "In src/format.js, make quoteField use `field.replaceAll('\"', '\"\"')`, then run `node --test`.",
  verify: ['- `git status --short` -> ` M src/format.js` and ` M test/format.test.js`', '- `node --test` -> 2 pass, 1 fail ("doubles embedded quotes")'],
}

export const CONTINUATION_INPUT: HandoffInput = {
  chain: 'HANDOFF_csv-quoting_2026-11-27',
  seq: 2,
  parent: PARENT_HANDOFF,
  focus: 'none',
  state: [
    `- [verified] embedded quotes are doubled - \`node --test\` -> 3 pass; committed as ${COMMITS.quoting}`,
    `- [unverified] ${UNVERIFIED_CLAIMS.readme}: said without reading the README`,
  ],
  inProgress: 'test/format.test.js has a new failing test for a field holding \\r\\n; quoteField does not look for line breaks yet.',
  openQuestions: '- Should formatRow also quote fields with leading or trailing spaces? Asked Sam; no answer yet.',
  nextStep: 'In src/format.js, add \\r and \\n to the pattern in quoteField, then run `node --test`.',
  verify: ['- `git log -1 --format=%s` -> `Quote fields per RFC 4180`', '- `node --test` -> 3 pass, 1 fail ("quotes a field that holds a line break")'],
}

export function planText(chain: string): string {
  const phase = (n: number, title: string, action: string, files: string, verify: string): string[] => [
    `### Phase ${n}: ${title}`,
    `Actions: ${action}`,
    `Files: ${files}`,
    `Verify: ${verify}`,
    '',
  ]
  return [
    '---',
    'kind: plan',
    `created: ${TODAY}T16:40:00Z`,
    `chain: ${chain}`,
    'focus: none',
    '---',
    '',
    '# Plan: RFC 4180 in csvkit',
    '',
    '## Goal',
    'formatRow writes RFC 4180 CSV, parseRow reads it back, and the README shows a quoted field.',
    '',
    '## Phases',
    '',
    ...phase(1, 'Double embedded quotes', "make quoteField use `replaceAll('\"', '\"\"')`.", 'src/format.js', '`node --test` -> 3 pass'),
    ...phase(2, 'Quote fields with line breaks', 'add \\r and \\n to the pattern in quoteField; add a test.', 'src/format.js, test/format.test.js', '`node --test` -> 4 pass'),
    ...phase(3, 'parseRow reads quoted fields', 'parse quoted fields and doubled quotes; add test/parse.test.js.', 'src/parse.js, test/parse.test.js', '`node --test` -> all pass'),
    ...phase(4, 'README example', 'show a row with a quoted field.', 'README.md', '`grep -n Smith README.md` -> the example'),
    '## Risks',
    '- parseRow callers may rely on the naive split; a changed result would show in their tests.',
    '',
  ].join('\n')
}

export function continuePrompt(handoff: string, next: string): string {
  return `The handoff skill has already run for this work; do not run it again. Read ${handoff}, then reopen the files it lists under "Reopen first". Before editing anything, run its Verify commands and compare the results with the note; where the repository and the note disagree, trust the repository. Then start on its Next step: ${next}`
}

export function normalReply(handoff: string): string {
  return [`Wrote ${handoff}.`, 'Next step: make quoteField double every quote.', '', 'PASTE THIS INTO YOUR NEXT SESSION:', DASHES, continuePrompt(handoff, 'the quote fix in src/format.js.'), DASHES].join('\n')
}
