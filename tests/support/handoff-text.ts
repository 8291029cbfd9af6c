// Builds handoff and plan file texts that pass the mod's format check, for the
// suites that need a good file (file-check) without testing the format itself.
// Section names come from handoff-spec.ts and protocol-contents.ts, so a renamed section updates them here.
import { PLAN_SECTIONS } from '../../packages/compact-handoff/hooks/protocol/protocol-contents.js'
import { HANDOFF_SECTIONS } from '../../packages/compact-handoff/hooks/protocol/handoff-spec.js'

const CREATED = '2026-11-29T14:05:00Z'
const CHAIN = 'HANDOFF_parser-rewrite_2026-11-29'

/** Body text for a section: a sentence long enough that the file clears the size floor. */
function bodyOf(section: string): string {
  return `${section}: the parser rewrite keeps the old grammar and adds CRLF support, checked by pnpm test.`
}

/** The title and sections a fork's reply holds: a handoff without its frontmatter. */
export function forkReplyTextOf(): string {
  return ['# Handoff: parser rewrite', '', ...HANDOFF_SECTIONS.flatMap((section) => [`## ${section}`, '', bodyOf(section), ''])].join('\n')
}

export function handoffTextOf(): string {
  return [
    '---',
    'kind: handoff',
    `created: ${CREATED}`,
    'status: in-progress',
    `chain: ${CHAIN}`,
    'seq: 1',
    'parent: none',
    'focus: parser rewrite',
    '---',
    '',
    '# Handoff: parser rewrite',
    '',
    ...HANDOFF_SECTIONS.flatMap((section) => [`## ${section}`, '', bodyOf(section), '']),
  ].join('\n')
}

export function planTextOf(): string {
  const sections = PLAN_SECTIONS.flatMap((section) =>
    section === 'Phases'
      ? ['## Phases', '', '### Phase 1: Tokenizer', '', bodyOf('Phase 1'), '', '### Phase 2: Parser', '', bodyOf('Phase 2'), '']
      : [`## ${section}`, '', bodyOf(section), ''],
  )
  return ['---', 'kind: plan', `created: ${CREATED}`, `chain: ${CHAIN}`, 'focus: parser rewrite', '---', '', '# Plan: parser rewrite', '', ...sections].join('\n')
}

// Rule by rule: the mod's check (formatDiagnostics) and the validator
// (validateHandoff) name the same rule the same way, so a test can compare the
// set of rules each reports, not only the verdict.
//
// Rules only the mod has: it reads Markdown with a line scanner and the
// frontmatter with a flat reader, and refuses what those cannot read the way
// remark and yaml do: markdown-unclear, heading-unclear, frontmatter-unread,
// frontmatter-line-end. It also caps its list for the repair prompt
// (too-many-problems). Once it reports one of these, its other rules rest on a
// reading the validator does not share, so only the verdict is compared.
// When either side finds the frontmatter is not YAML (frontmatter-yaml), the
// validator checks no field and the mod checks the fields it could read, so the
// field rules (frontmatter-field, kind-mismatch) are left out of the comparison.
// Rules only the validator has are the CLI's and SKILL.md's (unknown-kind,
// read-failed, skill-*), never reported for a handoff or plan text.
export const MOD_ONLY_RULES: ReadonlySet<string> = new Set(['markdown-unclear', 'heading-unclear', 'frontmatter-unread', 'frontmatter-line-end', 'too-many-problems'])
const FIELD_RULES = new Set(['frontmatter-field', 'kind-mismatch'])

/** The two sides' rule sets, sorted, ready to compare; undefined when the mod
 * reported a rule only it has. */
export function comparableRules(modRules: readonly string[], validatorRules: readonly string[]): { mod: string[]; validator: string[] } | undefined {
  if (modRules.some((rule) => MOD_ONLY_RULES.has(rule))) return undefined
  const dropFields = modRules.includes('frontmatter-yaml') || validatorRules.includes('frontmatter-yaml')
  const setOf = (rules: readonly string[]) => [...new Set(rules)].filter((rule) => !(dropFields && FIELD_RULES.has(rule))).sort()
  return { mod: setOf(modRules), validator: setOf(validatorRules) }
}
