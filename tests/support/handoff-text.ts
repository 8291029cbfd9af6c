// Builds handoff and plan file texts that pass the mod's format check, for the
// suites that need a good file (file-check) without testing the format itself.
// Section names come from protocol.ts, so a renamed section updates them here.
import { HANDOFF_SECTIONS, PLAN_SECTIONS } from '../../packages/compact-handoff/hooks/protocol.js'

const CREATED = '2026-11-29T14:05:00Z'
const CHAIN = 'HANDOFF_parser-rewrite_2026-11-29'

/** Body text for a section: a sentence long enough that the file clears the size floor. */
function bodyOf(section: string): string {
  return `${section}: the parser rewrite keeps the old grammar and adds CRLF support, checked by pnpm test.`
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
