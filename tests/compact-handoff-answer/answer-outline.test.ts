// compact-handoff-answer's additions to a compaction that is not ours, run
// under Node: the handoff's outline (held to compact-handoff's own list of
// sections) and where it goes among the other additions. The kit tests in the
// mod cover the wiring.
import { describe, expect, test } from 'vitest'
import { HANDOFF_SECTIONS } from '../../packages/compact-handoff/hooks/protocol-contents.js'
import { OUTLINE, OUTLINE_SECTIONS } from '../../packages/compact-handoff-answer/hooks/outline.js'
import { summaryInstructionsOf, type PartnerView } from '../../packages/compact-handoff-answer/hooks/foreign-instructions.js'

const NOTHING: PartnerView = { lastSwap: { kind: 'none' }, words: { messages: [], dropped: 0 } }
const EVERYTHING: PartnerView = {
  lastSwap: { kind: 'swapped', handoff: 'plans/handoffs/HANDOFF_x_2026-11-30.md' },
  words: { messages: ['Port the parser; keep the API.'], dropped: 0 },
  facts: { changed: [{ path: 'src/parser.ts', count: 1 }], read: [], commands: [{ line: 'pnpm test', exitCode: 0 }] },
}

describe('the outline', () => {
  test("names a handoff's sections, in the order compact-handoff checks them", () => {
    expect(OUTLINE_SECTIONS.map(([name]) => name)).toEqual([...HANDOFF_SECTIONS])
    expect([...OUTLINE.matchAll(/^## ([^:\n]+):/gm)].map((m) => m[1])).toEqual([...HANDOFF_SECTIONS])
  })

  test('asks for the constraints verbatim and the state split into verified and unverified', () => {
    expect(OUTLINE).toMatch(/^## Constraints: .*copied verbatim/m)
    expect(OUTLINE).toMatch(/^## State: .*\[verified\].*\[unverified\]/m)
    expect(OUTLINE).toMatch(/^## Files: the files to reopen first/m)
  })

  test('is short: one line per section and a line to lead', () => {
    expect(OUTLINE.split('\n')).toHaveLength(HANDOFF_SECTIONS.length + 1)
    expect(OUTLINE.length).toBeLessThan(1_200)
  })
})

describe('summaryInstructionsOf', () => {
  test('is the outline alone when neither the person nor compact-handoff adds anything', () => {
    expect(summaryInstructionsOf(undefined, NOTHING)).toBe(OUTLINE)
    expect(summaryInstructionsOf('  \n', NOTHING)).toBe(OUTLINE)
  })

  test("keeps the person's instructions first and byte for byte, the outline after them", () => {
    const own = '  keep the benchmarks\r\n  and the TODO list  '
    expect(summaryInstructionsOf(own, NOTHING)).toBe(`${own}\n\n${OUTLINE}`)
  })

  test('puts the outline after the handoff, the words and the facts', () => {
    const text = summaryInstructionsOf('keep the benchmarks', EVERYTHING)
    const at = ['keep the benchmarks', 'Handoff file:', '[user message 1]', 'What this session did', OUTLINE].map((part) => text.indexOf(part))
    expect(at.every((i) => i >= 0)).toBe(true)
    expect(at).toEqual([...at].sort((a, b) => a - b))
    expect(at[0]).toBe(0)
    expect(text.endsWith(OUTLINE)).toBe(true)
  })
})
