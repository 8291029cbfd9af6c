// What the fork is asked, built from the protocol's one definition of a
// handoff, and the stub its handoff becomes.
import { describe, expect, test } from 'vitest'
import { forkPromptOf, forkRepairPromptOf } from '../../../packages/compact-handoff/hooks/compaction/fork-prompt.js'
import { FORK_HANDOFF_OPENING, FORK_REPAIR_OPENING } from '../../../packages/compact-handoff/hooks/protocol/protocol.js'
import { HANDOFF_SECTION_COUNT_WORD, HANDOFF_SECTIONS, HANDOFF_SECTION_HOLDS } from '../../../packages/compact-handoff/hooks/protocol/handoff-spec.js'
import { STUB_OPENING, buildForkStub } from '../../../packages/compact-handoff/hooks/stub/swap-text.js'
import { userWordsSectionOf } from '../../../packages/compact-handoff/hooks/words/user-words.js'

describe('the agreed first lines', () => {
  test('are the texts the scripted model of the real-session suite looks for', () => {
    expect(FORK_HANDOFF_OPENING).toBe('compact-handoff: write the handoff file for this session now.')
    expect(FORK_REPAIR_OPENING).toBe('compact-handoff: the handoff you wrote fails the format check.')
  })
})

describe('forkPromptOf', () => {
  const prompt = forkPromptOf({ focus: '', isMidTurn: false })

  test('opens with FORK_HANDOFF_OPENING', () => {
    expect(prompt.split('\n')[0]).toBe(FORK_HANDOFF_OPENING)
  })

  test(`names the ${HANDOFF_SECTION_COUNT_WORD} sections in order, each with what it holds`, () => {
    const named = [...prompt.matchAll(/^- "## ([^"]+)": (.*)\.$/gm)].map((m) => [m[1], m[2]])
    expect(named).toEqual(HANDOFF_SECTIONS.map((name) => [name, HANDOFF_SECTION_HOLDS[name]]))
  })

  test('asks for verified and unverified state, standing instructions verbatim, one next step and read-only Verify commands', () => {
    expect(prompt).toMatch(/\[verified\] only when this session ran a command that proved it/)
    expect(prompt).toMatch(/\[unverified\]/)
    expect(prompt).toMatch(/standing instruction of the user's that still holds, copied verbatim/)
    expect(prompt).toMatch(/Next step: exactly one concrete action/)
    expect(prompt).toMatch(/Verify: only commands that change nothing/)
  })

  test('asks for the title and sections only: code writes the frontmatter', () => {
    expect(prompt).toContain('"# Handoff: <what the work is>"')
    expect(prompt).toMatch(/No frontmatter \(compact-handoff adds it\), no code fence/)
  })

  test("carries the person's /compact words verbatim as the focus, and nothing of a focus without them", () => {
    expect(forkPromptOf({ focus: 'keep the "bench"\nmarks', isMidTurn: false })).toContain('(their words, verbatim): keep the "bench"\nmarks')
    expect(prompt).not.toMatch(/focus on/)
  })

  test('says a turn is under way only when one is', () => {
    expect(forkPromptOf({ focus: '', isMidTurn: true })).toMatch(/A turn is under way: its latest tool call and result may be missing/)
    expect(prompt).not.toMatch(/turn is under way/)
  })
})

describe('forkRepairPromptOf', () => {
  test('opens with FORK_REPAIR_OPENING, names each problem, and quotes the handoff it failed', () => {
    const repair = forkRepairPromptOf({ focus: 'keep it', isMidTurn: false }, ['missing section "## Decisions"', 'section "## Goal" (line 12) is empty'], '# Handoff: x\n## Goal\n')
    expect(repair.split('\n')[0]).toBe(FORK_REPAIR_OPENING)
    expect(repair).toContain('\n- missing section "## Decisions"\n- section "## Goal" (line 12) is empty\n')
    expect(repair.endsWith('The handoff as you wrote it:\n# Handoff: x\n## Goal\n')).toBe(true)
    expect(repair).toContain('(their words, verbatim): keep it')
    expect(repair).toContain('"## Verify"')
  })
})

describe('buildForkStub', () => {
  const WORDS = { messages: ['Port the parser.\nKeep the API.', 'Also the CLI.'], dropped: 0 }
  const TEXT = '---\nkind: handoff\n---\n\n# Handoff: parser\n## Next step\nRun the tests.\n'
  const base = { handoff: '.claude/handoffs/HANDOFF_parser_2026-12-01.md', handoffText: TEXT, words: WORDS, trigger: 'auto' as const, isMidTurn: false }

  test("holds the person's words verbatim, the facts, where the file is and its whole text, in that order", () => {
    const stub = buildForkStub({ ...base, factsSection: 'What this session did, recorded by code from its tool calls (facts, not notes):\nFiles read: a.ts' })
    expect(stub.startsWith(`${STUB_OPENING}, at Claude Code's automatic compaction`)).toBe(true)
    const at = [
      'Handoff file: .claude/handoffs/HANDOFF_parser_2026-12-01.md',
      userWordsSectionOf(WORDS)!,
      'Files read: a.ts',
      `The handoff, as saved in .claude/handoffs/HANDOFF_parser_2026-12-01.md:\n${TEXT}`,
    ].map((part) => stub.indexOf(part))
    expect(at.every((i) => i > 0), JSON.stringify(at)).toBe(true)
    expect(at).toEqual([...at].sort((a, b) => a - b))
    expect(stub.endsWith('The next message says what to do.')).toBe(true)
  })

  test('says a turn was under way and to carry on from the Next step, only in the middle of a turn', () => {
    expect(buildForkStub({ ...base, isMidTurn: true })).toMatch(/A turn was under way when the conversation was compacted[^\n]*carry on from the handoff's Next step/)
    expect(buildForkStub(base)).not.toMatch(/turn was under way/)
  })

  test("names the person's /compact as the compaction it answered", () => {
    expect(buildForkStub({ ...base, trigger: 'manual' })).toMatch(/, at the \/compact the user typed:/)
  })

  test('adds what is running and where the transcript is when given, before the handoff', () => {
    const running = { shells: [{ id: 'b1', command: 'sleep 45; echo done', startedAtMs: Date.UTC(2026, 10, 29, 14, 0) }], agents: [] }
    const stub = buildForkStub({ ...base, context: { running, transcriptPath: '/home/me/.claude/projects/p/s.jsonl' } })
    expect(stub).toMatch(/background shell b1, running, started 2026-11-29T14:00:00Z: sleep 45; echo done/)
    expect(stub).not.toMatch(/exit 0/)
    expect(stub.indexOf('background shell b1')).toBeLessThan(stub.indexOf('/home/me/.claude/projects/p/s.jsonl'))
    expect(stub.indexOf('/home/me/.claude/projects/p/s.jsonl')).toBeLessThan(stub.indexOf('The handoff, as saved'))
  })
})
