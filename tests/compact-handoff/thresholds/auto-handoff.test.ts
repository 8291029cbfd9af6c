// The auto handoff's decisions: when a turn's end starts a run, and when the
// nudge gives way to it (its option: tests/compact-handoff/options/).
import { describe, expect, test } from 'vitest'
import { AUTO_HANDOFF_OFF, autoHandoffReportTextOf, isAutoHandoffDue, isNudgeSuperseded } from '../../../packages/compact-handoff/hooks/thresholds/auto-handoff.js'

describe('isAutoHandoffDue', () => {
  const turn = { reason: 'answer' as const, percent: 80, isSubagentRunning: false, isInteractive: true }
  test('at the threshold, after an answer, armed, no subagent running', () => {
    expect(isAutoHandoffDue(80, { kind: 'armed' }, turn)).toBe(true)
  })
  test.each([
    ['off', AUTO_HANDOFF_OFF, { kind: 'armed' as const }, turn],
    ['spent this window', 80, { kind: 'spent' as const }, turn],
    ['below the threshold', 80, { kind: 'armed' as const }, { ...turn, percent: 79.9 }],
    ['an unknown percent', 80, { kind: 'armed' as const }, { ...turn, percent: undefined }],
    ['an interrupted turn', 80, { kind: 'armed' as const }, { ...turn, reason: 'aborted' as const }],
    ['an error', 80, { kind: 'armed' as const }, { ...turn, reason: 'error' as const }],
    ['a subagent running', 80, { kind: 'armed' as const }, { ...turn, isSubagentRunning: true }],
    ['a -p or SDK session', 80, { kind: 'armed' as const }, { ...turn, isInteractive: false }],
  ])('not when %s', (_name, percent, window, input) => {
    expect(isAutoHandoffDue(percent, window, input)).toBe(false)
  })
})

describe('the nudge beside the auto handoff', () => {
  test("gives way only when the auto handoff's threshold is on and at or below its own", () => {
    expect(isNudgeSuperseded(70, 70)).toBe(true)
    expect(isNudgeSuperseded(60, 70)).toBe(true)
    expect(isNudgeSuperseded(80, 70)).toBe(false)
    expect(isNudgeSuperseded(AUTO_HANDOFF_OFF, 70)).toBe(false)
  })

  test('the status report\'s words', () => {
    expect(autoHandoffReportTextOf(AUTO_HANDOFF_OFF)).toBe('auto handoff off')
    expect(autoHandoffReportTextOf(85)).toBe('auto handoff at 85%')
  })
})
