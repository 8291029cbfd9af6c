// The frontmatter values code writes for a new handoff: its time, and where it
// sits in its chain, taken only from a parent that is the person's own.
import { parseSkillArgs } from '../../../packages/compact-handoff/tests/support/skill-protocol.js'
import { describe, expect, test } from 'vitest'
import { formatSkillArgs } from '../../../packages/compact-handoff/hooks/protocol/protocol.js'
import { chainValuesOf, createdValueOf } from '../../../packages/compact-handoff/hooks/run/frontmatter-values.js'

const skillValuesOf = (run: string, nowMs: number, lastHandoff: CheckedLastHandoff) => ({ run, created: createdValueOf(nowMs), ...chainValuesOf(lastHandoff) })
import type { CheckedLastHandoff } from '../../../packages/compact-handoff/hooks/stub/swap-text.js'

describe('the values a run tells its skill', () => {
  const NOW_MS = Date.UTC(2026, 10, 30, 9, 5, 7, 450)
  const PARENT = 'plans/handoffs/HANDOFF_parser_2026-11-29.md'
  const parentText = (fields: string) => `---\nkind: handoff\n${fields}\n---\n# H\n`
  const last = (text: string | undefined, isOwn = true): CheckedLastHandoff => ({ kind: 'handoff', handoff: { relPath: PARENT, isOwn, ...(text !== undefined ? { text } : {}) } })

  test('starts a chain when there was no swap, with the time to the second in UTC', () => {
    expect(skillValuesOf('t1', NOW_MS, { kind: 'none' })).toEqual({ run: 't1', created: '2026-11-30T09:05:07Z', chain: 'new', seq: 1, parent: 'none' })
  })

  test("continues the last swap's chain, one seq on", () => {
    const text = parentText('chain: HANDOFF_parser_2026-11-29\nseq: 3')
    expect(skillValuesOf('t1', NOW_MS, last(text))).toMatchObject({ chain: 'HANDOFF_parser_2026-11-29', seq: 4, parent: PARENT })
  })

  test('starts a chain when the parent is gone or does not say where it stands', () => {
    for (const text of [undefined, 'no frontmatter', parentText('chain: x\nseq: two'), parentText('seq: 2')]) {
      expect(skillValuesOf('t1', NOW_MS, last(text)), String(text)).toMatchObject({ chain: 'new', seq: 1, parent: 'none' })
    }
  })

  test("starts a chain after a stranger's handoff the person chose to look at (or their own, changed since): neither its chain nor the file is handed on", () => {
    const text = parentText('chain: HANDOFF_cloned_2026-11-29\nseq: 3')
    expect(skillValuesOf('t1', NOW_MS, last(text, false))).toMatchObject({ chain: 'new', seq: 1, parent: 'none' })
  })

  test('round-trips through the arguments the skill reads', () => {
    const values = skillValuesOf('t1', NOW_MS, last(parentText('chain: HANDOFF_parser_2026-11-29\nseq: 1')))
    for (const focus of ['', 'the parser', '  spaced   focus ']) {
      expect(parseSkillArgs(formatSkillArgs(values, focus))).toEqual({ values, focus: focus.trim().replace(/\s+/g, ' ') })
    }
  })
})
