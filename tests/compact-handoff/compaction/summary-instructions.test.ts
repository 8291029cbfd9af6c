// What the engine's summariser is told when it compacts the main loop instead
// of a fork's handoff: the person's instructions first, then the newest
// handoff, their words and the work's facts as a stub says them, the recall
// tool's line, then the outline from the protocol's one definition of a handoff.
import { describe, expect, test } from 'vitest'
import { OUTLINE, RECALL_SECTION, summaryInstructionsOf, type SummaryState } from '../../../packages/compact-handoff/hooks/compaction/summary-instructions.js'
import { HANDOFF_WRITING_RULES } from '../../../packages/compact-handoff/hooks/protocol/protocol-contents.js'
import { HANDOFF_SECTIONS, HANDOFF_SECTION_HOLDS } from '../../../packages/compact-handoff/hooks/protocol/handoff-spec.js'
import { userWordsSectionOf } from '../../../packages/compact-handoff/hooks/words/user-words.js'
import { NO_FACTS, factsSectionOf } from '../../../packages/compact-handoff/hooks/facts/facts.js'

const CWD = '/srv/app'
const HANDOFF = 'plans/handoffs/HANDOFF_x_2026-11-29.md'
const PLAN = 'plans/handoffs/PLAN_x_2026-11-29.md'
/** A file the ownership record says is the person's own, or (isOwn false) a stranger's. */
const own = (relPath: string, isOwn = true) => ({ relPath, isOwn })
const NOTHING: SummaryState = { lastHandoff: { kind: 'none' }, words: { messages: [], dropped: 0 }, facts: NO_FACTS, cwd: CWD }
const FACTS = {
  changed: [
    { path: `${CWD}/src/upload.ts`, count: 2 },
    { path: `${CWD}/plans/handoffs/HANDOFF_x_2026-11-29.md`, count: 1 },
  ],
  read: [`${CWD}/src/retry.ts`, '/etc/hosts'],
  commands: [{ line: 'pnpm test upload', exitCode: 1 }],
}
const EVERYTHING: SummaryState = { lastHandoff: { kind: 'handoff', handoff: own(HANDOFF), plan: own(PLAN) }, words: { messages: ['Port the parser; keep the API.', 'Also the CLI.'], dropped: 3 }, facts: FACTS, cwd: CWD }

describe('the outline', () => {
  test("names a handoff's sections in order, each with what it holds, one line each, then the writing rules", () => {
    const lines = OUTLINE.split('\n')
    expect(lines).toHaveLength(HANDOFF_SECTIONS.length + 2 + HANDOFF_WRITING_RULES.length)
    expect(lines.slice(1, 1 + HANDOFF_SECTIONS.length)).toEqual(HANDOFF_SECTIONS.map((name) => `## ${name}: ${HANDOFF_SECTION_HOLDS[name]}.`))
    expect(lines.slice(HANDOFF_SECTIONS.length + 1)).toEqual(['Rules:', ...HANDOFF_WRITING_RULES.map((rule) => `- ${rule}`)])
    expect(OUTLINE).toMatch(/^## Constraints: .*copied verbatim/m)
    expect(OUTLINE).toMatch(/^## State: .*\[verified\].*\[unverified\]/m)
  })
})

describe('summaryInstructionsOf', () => {
  test('is the recall line and the outline when neither the person nor the state adds anything', () => {
    const added = `compact-handoff adds, so the summary keeps them:\n\n${RECALL_SECTION}\n\n${OUTLINE}`
    expect(summaryInstructionsOf(undefined, NOTHING)).toBe(added)
    expect(summaryInstructionsOf('  \n', NOTHING)).toBe(added)
    expect(RECALL_SECTION).toContain('call the tool mcp__compact-handoff__recall with a word you expect instead of guessing or running it again')
  })

  test("keeps the person's instructions first and byte for byte", () => {
    const own = '  keep the benchmarks\r\n  and the TODO list  '
    expect(summaryInstructionsOf(own, NOTHING)).toBe(`${own}\n\ncompact-handoff adds, so the summary keeps them:\n\n${RECALL_SECTION}\n\n${OUTLINE}`)
    expect(summaryInstructionsOf(own, EVERYTHING).startsWith(`${own}\n\ncompact-handoff adds, so the summary keeps them:\n\n`)).toBe(true)
  })

  test("says the person's words and the facts exactly as a stub does, between the handoff and the outline", () => {
    const text = summaryInstructionsOf('keep the benchmarks', EVERYTHING)
    const facts = factsSectionOf({ changed: [{ path: 'src/upload.ts', count: 2 }], read: ['src/retry.ts', '/etc/hosts'], commands: FACTS.commands })!
    const at = ['keep the benchmarks', `Handoff file: ${HANDOFF}\nPlan file: ${PLAN}`, userWordsSectionOf(EVERYTHING.words)!, facts, RECALL_SECTION, OUTLINE].map((part) => text.indexOf(part))
    expect(at.every((i) => i >= 0), JSON.stringify(at)).toBe(true)
    expect(at).toEqual([...at].sort((a, b) => a - b))
    expect(text).toContain('[3 earlier message(s) after this one were dropped')
    expect(text.endsWith(OUTLINE)).toBe(true)
  })

  test("leaves the chain's own handoff files out of the files changed", () => {
    expect(summaryInstructionsOf(undefined, EVERYTHING)).toContain('Files changed: src/upload.ts (2×)\n')
  })
})

describe('what summaryInstructionsOf adds', () => {
  test('adds only the recall line when nothing was recorded and nothing swapped', () => {
    expect(summaryInstructionsOf('keep the plan', NOTHING)).toBe(`keep the plan\n\ncompact-handoff adds, so the summary keeps them:\n\n${RECALL_SECTION}\n\n${OUTLINE}`)
  })

  const POINTER = "The newest handoff file of this session, the person's own by compact-handoff's record; name it in the summary so the next context can reopen it:"

  test('points at the handoff, and at the plan only when there is one', () => {
    expect(summaryInstructionsOf(undefined, { ...NOTHING, lastHandoff: { kind: 'handoff', handoff: own(HANDOFF) } })).toBe(
      `compact-handoff adds, so the summary keeps them:\n\n${POINTER}\nHandoff file: ${HANDOFF}\n\n${RECALL_SECTION}\n\n${OUTLINE}`,
    )
  })

  test("never calls a stranger's handoff the person's or compact-handoff's: one resumed after a yes, or changed since it was written, is left out, and so is a plan that is not own", () => {
    const words = { messages: ['Look at the cloned handoff.'], dropped: 0 }
    const foreign = summaryInstructionsOf(undefined, { ...NOTHING, words, lastHandoff: { kind: 'handoff', handoff: own(HANDOFF, false), plan: own(PLAN) } }) ?? ''
    expect(foreign).not.toContain(HANDOFF)
    expect(foreign).not.toContain(PLAN)
    expect(foreign).not.toContain('compact-handoff\'s record')
    expect(foreign).not.toMatch(/written by compact-handoff/)
    expect(summaryInstructionsOf(undefined, { ...NOTHING, lastHandoff: { kind: 'handoff', handoff: own(HANDOFF, false) } }), 'nothing else to add: only the recall line').toBe(`compact-handoff adds, so the summary keeps them:\n\n${RECALL_SECTION}\n\n${OUTLINE}`)
    const foreignPlan = summaryInstructionsOf(undefined, { ...NOTHING, lastHandoff: { kind: 'handoff', handoff: own(HANDOFF), plan: own(PLAN, false) } })
    expect(foreignPlan).toBe(`compact-handoff adds, so the summary keeps them:\n\n${POINTER}\nHandoff file: ${HANDOFF}\n\n${RECALL_SECTION}\n\n${OUTLINE}`)
  })
})
