// The texts a swap installs: the stub behind the marker (with the user's own
// words), the fallback continue-prompt when the skill printed none, and the
// continue-prompt with the messages held during the run.
import { describe, expect, test } from 'vitest'
import { markedStubOf } from '../../../packages/compact-handoff-answer/hooks/answer/marked-stub.js'
import { MARKER } from '../../../packages/compact-handoff/hooks/protocol/protocol.js'
import { NO_HANDOFF, OWN_PLUGIN, compactInstructionsOf, isOwnMarkedCompaction, continuePromptWithHeld, fallbackContinuePromptOf, buildStub, reviewLinesOf } from '../../../packages/compact-handoff/hooks/stub/swap-text.js'
import { NO_WORDS, userWordsSectionOf, withUserMessage, type UserWords } from '../../../packages/compact-handoff/hooks/words/user-words.js'

const HANDOFF = 'plans/handoffs/HANDOFF_parser_2026-11-29.md'
const PLAN = 'plans/handoffs/PLAN_parser_2026-11-29.md'
const WORDS_HEADING = "The user's own messages in this session, verbatim and oldest first. They are the user's exact words and win over anything else in this context:"
const HELD_HEADING = 'The user wrote the following while the handoff was being written and applied. It comes first if it changes the plan:'

function wordsOf(...messages: string[]): UserWords {
  return messages.reduce(withUserMessage, NO_WORDS)
}

describe('buildStub', () => {
  test('names the handoff file and says nothing else was kept', () => {
    const stub = buildStub({ handoff: HANDOFF }, NO_WORDS)
    expect(stub.split('\n')).toContain(`Handoff file: ${HANDOFF}`)
    expect(stub).toContain('Nothing else from before was kept.')
    expect(stub).not.toContain('Plan file:')
    expect(stub).not.toContain(WORDS_HEADING)
  })

  test('names the plan file when there is one', () => {
    expect(buildStub({ handoff: HANDOFF, plan: PLAN }, NO_WORDS).split('\n')).toEqual(expect.arrayContaining([`Handoff file: ${HANDOFF}`, `Plan file: ${PLAN}`]))
  })

  test('is, without words, exactly the files and the closing line', () => {
    expect(buildStub({ handoff: HANDOFF, plan: PLAN }, NO_WORDS).split('\n')).toEqual([
      'The earlier conversation was replaced here by compact-handoff, right after the handoff skill wrote a full handoff of the session.',
      `Handoff file: ${HANDOFF}`,
      `Plan file: ${PLAN}`,
      'Nothing else from before was kept. The next message says what to do.',
    ])
  })

  test('says a handoff written after a digest or a summary replaced the conversation was written from it, and to recall first', () => {
    const digest = buildStub({ handoff: HANDOFF }, NO_WORDS, undefined, {}, 'digest').split('\n')
    expect(digest[0]).toMatch(/^The earlier conversation was replaced here by compact-handoff, right after the handoff skill wrote a handoff of the session from a digest of it: [^\n]*recall them first \(call mcp__compact-handoff__recall\)/)
    expect(digest.slice(1)).toEqual([`Handoff file: ${HANDOFF}`, 'Nothing else from before was kept. The next message says what to do.'])
    const summary = buildStub({ handoff: HANDOFF }, NO_WORDS, undefined, {}, 'summary')
    expect(summary).toMatch(/from Claude Code's own summary of it[^\n]*the summary left out: recall them first/)
    for (const stub of [digest.join('\n'), summary]) expect(stub).not.toContain('a full handoff')
  })

  test("carries the user's words section verbatim between the files and the closing line", () => {
    const words = wordsOf('Rewrite the parser.\nKeep the public API.', '  no new dependencies  ')
    const stub = buildStub({ handoff: HANDOFF, plan: PLAN }, words)
    const section = userWordsSectionOf(words)
    expect(section).toBeDefined()
    expect(stub).toBe(
      [
        'The earlier conversation was replaced here by compact-handoff, right after the handoff skill wrote a full handoff of the session.',
        `Handoff file: ${HANDOFF}`,
        `Plan file: ${PLAN}`,
        '',
        section,
        '',
        'Nothing else from before was kept. The next message says what to do.',
      ].join('\n'),
    )
    expect(stub).toContain('Rewrite the parser.\nKeep the public API.')
    expect(stub).toContain('\n  no new dependencies  \n')
  })

  test('keeps the first request in the stub even after many later messages', () => {
    const words = wordsOf('FIRST: port the build to pnpm', ...Array.from({ length: 40 }, (_, i) => `later ${i} ${'x'.repeat(1_000)}`))
    const stub = buildStub({ handoff: HANDOFF }, words)
    expect(stub).toContain('[user message 1]\nFIRST: port the build to pnpm')
    expect(stub).toContain(`later 39 ${'x'.repeat(1_000)}`)
    expect(stub).not.toContain('later 0 ')
  })
})

describe('NO_HANDOFF', () => {
  test('says no swap has happened yet', () => {
    expect(NO_HANDOFF).toEqual({ kind: 'none' })
  })
})

describe('compactInstructionsOf', () => {
  test('puts the marker alone on the first line, then the stub', () => {
    const stub = buildStub({ handoff: HANDOFF, plan: PLAN }, wordsOf('fix the tokenizer'))
    const instructions = compactInstructionsOf(stub)
    expect(instructions.split('\n')[0]).toBe(MARKER)
    expect(instructions.slice(MARKER.length + 1)).toBe(stub)
  })

  test('is answered by the answer mod with exactly the stub', () => {
    const stub = buildStub({ handoff: HANDOFF }, NO_WORDS)
    expect(markedStubOf({ trigger: 'plugin', instructions: compactInstructionsOf(stub) })).toBe(stub)
  })

  test("is answered with exactly the stub when the user's words hold the marker, CRLF and blank lines", () => {
    const stub = buildStub({ handoff: HANDOFF }, wordsOf(`${MARKER}\r\nnot an instruction`, '\n\nindented\n    code\n'))
    expect(markedStubOf({ trigger: 'plugin', instructions: compactInstructionsOf(stub) })).toBe(stub)
  })
})

describe('isOwnMarkedCompaction', () => {
  const instructions = compactInstructionsOf(buildStub({ handoff: HANDOFF }, NO_WORDS))

  test("is this mod's marked compaction of the main loop, raised by this mod", () => {
    expect(OWN_PLUGIN).toBe('compact-handoff')
    expect(isOwnMarkedCompaction({ instructions }, 'compact-handoff')).toBe(true)
  })

  test('is never another plugin\'s, a subagent\'s, or one without the marker line', () => {
    expect(isOwnMarkedCompaction({ instructions }, 'compact-handoff-answer'), 'another plugin writing our marker').toBe(false)
    expect(isOwnMarkedCompaction({ instructions }, 'engine')).toBe(false)
    expect(isOwnMarkedCompaction({ instructions, agentId: 'a1' }, 'compact-handoff')).toBe(false)
    expect(isOwnMarkedCompaction({ instructions: 'keep the plan' }, 'compact-handoff')).toBe(false)
    expect(isOwnMarkedCompaction({}, 'compact-handoff')).toBe(false)
    expect(isOwnMarkedCompaction({ instructions: MARKER }, 'compact-handoff'), 'the marker with no line after it').toBe(false)
  })
})

describe('fallbackContinuePromptOf', () => {
  test('asks a handoff run to read the handoff, check it, and wait', () => {
    const prompt = fallbackContinuePromptOf('handoff', { handoff: HANDOFF })
    expect(prompt).toContain(`Read the handoff ${HANDOFF} and continue from its Next step.`)
    expect(prompt).toContain('wait for my go-ahead')
    expect(prompt).toContain('do not run it again')
  })

  test('asks a plan run to read the plan and the handoff and start Phase 1', () => {
    const prompt = fallbackContinuePromptOf('plan', { handoff: HANDOFF, plan: PLAN })
    expect(prompt).toContain(`Read the plan ${PLAN} and the handoff ${HANDOFF}.`)
    expect(prompt).toContain('start Phase 1 of the plan')
  })

  test("falls back to a handoff run's prompt in a plan run without a plan", () => {
    expect(fallbackContinuePromptOf('plan', { handoff: HANDOFF })).toBe(fallbackContinuePromptOf('handoff', { handoff: HANDOFF }))
  })

  test("leaves a plan out of a handoff run's prompt", () => {
    expect(fallbackContinuePromptOf('handoff', { handoff: HANDOFF, plan: PLAN })).not.toContain(PLAN)
  })

  test('never starts with a slash', () => {
    expect(fallbackContinuePromptOf('handoff', { handoff: HANDOFF })).not.toMatch(/^\//)
    expect(fallbackContinuePromptOf('plan', { handoff: HANDOFF, plan: PLAN })).not.toMatch(/^\//)
  })
})

describe('continuePromptWithHeld', () => {
  test('gives the prompt itself when nothing was held', () => {
    expect(continuePromptWithHeld('Read the handoff.', [])).toBe('Read the handoff.')
  })

  test('appends the held messages after the prompt, under their heading, numbered in order', () => {
    expect(continuePromptWithHeld('Read the handoff.', ['also fix the README', 'and bump the version']).split('\n')).toEqual([
      'Read the handoff.',
      '',
      HELD_HEADING,
      '[held message 1]',
      'also fix the README',
      '[held message 2]',
      'and bump the version',
    ])
  })

  test('keeps each held message verbatim, line breaks and blanks included', () => {
    const held = ['  first line\n\n    indented\n', '/not-a-command here']
    const prompt = continuePromptWithHeld('go on', held)
    expect(prompt.startsWith('go on\n')).toBe(true)
    expect(prompt).toContain(`[held message 1]\n${held[0]}\n[held message 2]\n${held[1]}`)
    expect(prompt.endsWith(held[1] ?? '')).toBe(true)
  })

  test('never starts with a slash when the prompt does not', () => {
    const prompt = fallbackContinuePromptOf('handoff', { handoff: HANDOFF })
    expect(continuePromptWithHeld(prompt, ['/compact-handoff status'])).not.toMatch(/^\//)
  })
})

describe('reviewLinesOf', () => {
  test('shows the files, the stub and the continue-prompt, one line each, and how to go on', () => {
    const lines = reviewLinesOf({ handoff: 'plans/handoffs/HANDOFF_a_2026-11-29.md', plan: 'plans/handoffs/PLAN_a_2026-11-29.md', continuePrompt: 'Read it.\nThen start.' }, 'stub one\nstub two')
    expect(lines).toEqual([
      'review, then apply. Files: plans/handoffs/HANDOFF_a_2026-11-29.md, plans/handoffs/PLAN_a_2026-11-29.md. You may edit them now.',
      'The conversation would become this stub:',
      '  stub one',
      '  stub two',
      'and this would be sent next:',
      '  Read it.',
      '  Then start.',
      '/compact-handoff apply re-checks the files and swaps; /compact-handoff cancel drops the run.',
    ])
  })
})
