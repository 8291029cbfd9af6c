// Option askAfterCompaction, run under Node: which compactions arm the
// question, what it says, and what each answer does. The kit tests in the mod
// (packages/compact-handoff/tests/ask/ask.test.ts) cover the wiring.
import { describe, expect, test } from 'vitest'
import { ASK_HEADER, CONTINUE, STOP, armingTriggerOf, askVerdictOf, questionOf } from '../../../packages/compact-handoff/hooks/ask/ask.js'

describe('armingTriggerOf', () => {
  test("arms after the person's /compact and the engine's automatic compaction of the main loop", () => {
    expect(armingTriggerOf({ trigger: 'manual' })).toBe('manual')
    expect(armingTriggerOf({ trigger: 'auto' })).toBe('auto')
  })

  test("leaves a precompute, a plugin's compaction, a subagent's and a skipped one alone", () => {
    expect(armingTriggerOf({ trigger: 'precompute' })).toBeUndefined()
    expect(armingTriggerOf({ trigger: 'plugin' })).toBeUndefined()
    // The kit raises a plugin's compaction with no trigger at all.
    expect(armingTriggerOf({})).toBeUndefined()
    expect(armingTriggerOf({ trigger: 'auto', agentId: 'agent-1' })).toBeUndefined()
    expect(armingTriggerOf({ trigger: 'manual', skip: 'a PreCompact hook blocked it' })).toBeUndefined()
  })
})

describe('the question after a compaction', () => {
  test('says which compaction it was, ends in a question mark, and has a short header', () => {
    expect(questionOf('manual')).toMatch(/\/compact.*\?$/)
    expect(questionOf('auto')).toMatch(/automatically.*\?$/)
    expect(ASK_HEADER.length).toBeLessThanOrEqual(12)
  })

  test('lets the call run only on "continue"', () => {
    expect(askVerdictOf(CONTINUE)).toEqual({ kind: 'run' })
    for (const answer of [STOP, undefined, 'Continue', 'continue, but skip the tests', '']) {
      const verdict = askVerdictOf(answer)
      expect(verdict.kind, String(answer)).toBe('deny')
      if (verdict.kind === 'deny') expect(verdict.text).toMatch(/^compact-handoff: .*Stop here.*wait for their next message\.$/)
    }
  })

  test('quotes a typed answer, cut at 2,000 characters without splitting a pair', () => {
    const typed = `${'a'.repeat(1_999)}😀tail`
    const verdict = askVerdictOf(typed)
    expect(verdict.kind).toBe('deny')
    const text = verdict.kind === 'deny' ? verdict.text : ''
    expect(text).toContain(`"${'a'.repeat(1_999)} […]"`)
    expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/)
  })
})
