// The texts a well-behaved skill writes and answers, for the kit tests.
import { HANDOFF_SECTIONS, type HandoffSection } from '../../hooks/protocol/handoff-spec.js'

/** What each section of the kit's good handoff says, keyed by the spec's
 * sections; one it has no words for (just added to the spec) holds "None",
 * as a writer with nothing to say for it writes it. */
const SECTION_LINES: Readonly<Partial<Record<HandoffSection, readonly string[]>>> = {
  Goal: ['The tokenizer and parser handle every fixture in tests/fixtures without the legacy regex path.'],
  Constraints: ['- "Do not touch the public API of parse()."'],
  State: ['- Tokenizer rewritten. Verified: `pnpm vitest run tokenizer` → 42 passed.', '- Parser error recovery: unverified.'],
  'In progress': ['src/parser.ts: recoverFrom() handles ; but not } yet.'],
  'Tried and ruled out': ['- A PEG grammar: too slow (3x on the big fixture).'],
  Decisions: ['- Hand-written recursive descent, because error messages need positions.'],
  'Open questions': ['None'],
  Files: ['- src/parser.ts', '- src/tokenizer.ts'],
  'Next step': ['Make recoverFrom() handle a closing brace, then run the parser suite.'],
  Verify: ['- `pnpm vitest run tokenizer` → 42 passed'],
}

/** A handoff's title and sections: what a fork replies, and what the skill
 * writes below its frontmatter. */
export function handoffBody(): string {
  return ['# Handoff: parser rewrite', '', ...HANDOFF_SECTIONS.flatMap((name) => [`## ${name}`, ...(SECTION_LINES[name] ?? ['None'])]), ''].join('\n')
}

export function handoffText(focus = 'finish the parser'): string {
  return [
    '---',
    'kind: handoff',
    'created: 2026-11-29T23:00:00Z',
    'status: in-progress',
    'chain: HANDOFF_parser_2026-11-29',
    'seq: 1',
    'parent: none',
    `focus: ${focus}`,
    '---',
    '',
    handoffBody(),
  ].join('\n')
}

export function planText(): string {
  return [
    '---',
    'kind: plan',
    'created: 2026-11-29T23:00:00Z',
    'chain: HANDOFF_parser_2026-11-29',
    'focus: finish the parser',
    '---',
    '',
    '# Plan: finish the parser',
    '',
    '## Goal',
    'Every fixture parses with the new recursive descent parser and the regex path is gone.',
    '## Phases',
    '### Phase 1: error recovery',
    '- Handle } in recoverFrom(); files: src/parser.ts; verify: `pnpm vitest run parser`.',
    '### Phase 2: remove the regex path',
    '- Delete src/legacy.ts; verify: `pnpm vitest run` all green.',
    '## Risks',
    '- Fixtures that relied on the regex quirks.',
    '',
  ].join('\n')
}

export function readyAnswer(paths: string[], prompt = 'Read the handoff and continue from its Next step.'): string {
  return [
    'Handoff written.',
    '',
    'PASTE THIS INTO YOUR NEXT SESSION:',
    '----------------------------------------',
    prompt,
    '----------------------------------------',
    `COMPACT-HANDOFF-READY: ${paths.join(' | ')}`,
  ].join('\n')
}
