// compact-handoff-answer's additions to a compaction the engine summarises, run
// under Node. The kit tests in the mod cover the wiring and the state reads.
import { describe, expect, test } from 'vitest'
import { foreignInstructionsOf, type PartnerView } from '../../packages/compact-handoff-answer/hooks/foreign-instructions.js'

const NOTHING: PartnerView = { lastSwap: { kind: 'none' }, words: { messages: [], dropped: 0 } }
const HANDOFF = 'plans/handoffs/HANDOFF_x_2026-11-29.md'
const PLAN = 'plans/handoffs/PLAN_x_2026-11-29.md'

describe('foreignInstructionsOf', () => {
  test('adds nothing when compact-handoff has neither swapped nor recorded a word', () => {
    expect(foreignInstructionsOf('keep the plan', NOTHING)).toBeUndefined()
    expect(foreignInstructionsOf(undefined, NOTHING)).toBeUndefined()
  })

  test("keeps the person's instructions first and byte for byte", () => {
    const own = '  keep the plan\r\n  and the TODO list  '
    const text = foreignInstructionsOf(own, { ...NOTHING, lastSwap: { kind: 'swapped', handoff: HANDOFF } })
    expect(text?.startsWith(`${own}\n\n`)).toBe(true)
  })

  test('starts with the additions when the person gave none, or only blanks', () => {
    const view: PartnerView = { ...NOTHING, lastSwap: { kind: 'swapped', handoff: HANDOFF } }
    expect(foreignInstructionsOf(undefined, view)).toBe(foreignInstructionsOf(' \n', view))
    expect(foreignInstructionsOf(undefined, view)?.startsWith('compact-handoff-answer adds')).toBe(true)
  })

  test('points at the handoff, and at the plan only when there is one', () => {
    const withPlan = foreignInstructionsOf(undefined, { ...NOTHING, lastSwap: { kind: 'swapped', handoff: HANDOFF, plan: PLAN } })
    expect(withPlan).toContain(`Handoff file: ${HANDOFF}\nPlan file: ${PLAN}`)
    const withoutPlan = foreignInstructionsOf(undefined, { ...NOTHING, lastSwap: { kind: 'swapped', handoff: HANDOFF } })
    expect(withoutPlan).toContain(`Handoff file: ${HANDOFF}`)
    expect(withoutPlan).not.toContain('Plan file:')
  })

  test('carries every message verbatim, oldest first, multi-line and Markdown included', () => {
    const messages = ['first request\n\n- keep `retry()`', '# not a heading of ours', '  indented\ttext  ']
    const text = foreignInstructionsOf(undefined, { ...NOTHING, words: { messages, dropped: 0 } }) ?? ''
    let from = 0
    messages.forEach((message, i) => {
      const at = text.indexOf(`[user message ${i + 1}]\n${message}`, from)
      expect(at, `message ${i + 1} verbatim and in order`).toBeGreaterThanOrEqual(from)
      from = at + 1
    })
    expect(text).not.toContain('dropped')
  })

  test('says how many were dropped, right after the first message, where compact-handoff cut them', () => {
    const text = foreignInstructionsOf(undefined, { ...NOTHING, words: { messages: ['first', 'latest'], dropped: 4 } }) ?? ''
    expect(text).toMatch(/\[user message 1\]\nfirst\n\[4 earlier message\(s\) after this one were dropped[^\n]*\]\n\[user message 2\]\nlatest$/)
  })

  test('puts the pointer before the words', () => {
    const text = foreignInstructionsOf('x', { lastSwap: { kind: 'swapped', handoff: HANDOFF }, words: { messages: ['hello'], dropped: 0 } }) ?? ''
    expect(text.indexOf('Handoff file:')).toBeLessThan(text.indexOf('[user message 1]'))
  })
})
