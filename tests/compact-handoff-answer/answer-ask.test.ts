// What the question of option askAfterCompaction does with each answer, run
// under Node. The kit tests in the mod cover the wiring.
import { describe, expect, test } from 'vitest'
import { ASK_HEADER, CONTINUE, STOP, questionOf, verdictOf } from '../../packages/compact-handoff-answer/hooks/ask.js'

describe('the question after a compaction', () => {
  test('says which compaction it was, ends in a question mark, and has a short header', () => {
    expect(questionOf('manual')).toMatch(/\/compact.*\?$/)
    expect(questionOf('auto')).toMatch(/automatically.*\?$/)
    expect(ASK_HEADER.length).toBeLessThanOrEqual(12)
  })

  test('lets the call run only on "continue"', () => {
    expect(verdictOf(CONTINUE)).toEqual({ kind: 'run' })
    for (const answer of [STOP, undefined, 'Continue', 'continue, but skip the tests', '']) {
      const verdict = verdictOf(answer)
      expect(verdict.kind, String(answer)).toBe('deny')
      if (verdict.kind === 'deny') expect(verdict.text).toMatch(/Stop here.*wait for their next message\.$/)
    }
  })

  test('quotes a typed answer, cut at 2,000 characters without splitting a pair', () => {
    const typed = `${'a'.repeat(1_999)}😀tail`
    const verdict = verdictOf(typed)
    expect(verdict.kind).toBe('deny')
    const text = verdict.kind === 'deny' ? verdict.text : ''
    expect(text).toContain(`"${'a'.repeat(1_999)} […]"`)
    expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/)
  })
})
