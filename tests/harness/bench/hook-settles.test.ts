// The bench's per-hook settle times, read from debug-log lines as Claude Code 2.1.332
// writes them (copied from a bench run).
import { describe, expect, it } from 'vitest'
import { addSettles, hookSettlesOf } from './hook-settles.js'

const LOG = [
  '2026-12-02T18:25:39.219Z [DEBUG] hooks module cc-plugin-agents-md@builtin turn.start settled in 0.4ms (native link, next() included)',
  '2026-12-02T18:25:39.220Z [DEBUG] hooks module compact-handoff@inline prompt.submit settled in 66.6ms (worker hop, next() included)',
  '2026-12-02T18:25:39.240Z [DEBUG] hooks module compact-handoff@inline turn.start settled in 37.9ms (worker hop, next() included)',
  '2026-12-02T18:25:39.646Z [DEBUG] hooks module compact-handoff@inline tool.check settled in 16.1ms (worker hop, next() included)',
  '2026-12-02T18:25:39.686Z [DEBUG] hooks module compact-handoff@inline tool.call settled in 91.4ms (worker hop, next() included)',
  '2026-12-02T18:25:39.787Z [DEBUG] hooks module compact-handoff@inline tool.check settled in 15.6ms (worker hop, next() included)',
  '2026-12-02T18:25:39.790Z [DEBUG] hooks module compact-handoff-answer@inline session.compact settled in 31.0ms (worker hop, next() included)',
  '',
].join('\n')

describe('hookSettlesOf', () => {
  it("gathers one mod's settle times by event, in order, and no other mod's", () => {
    expect(hookSettlesOf(LOG, 'compact-handoff')).toEqual({ 'prompt.submit': [66.6], 'turn.start': [37.9], 'tool.check': [16.1, 15.6], 'tool.call': [91.4] })
    expect(hookSettlesOf(LOG, 'compact-handoff-answer')).toEqual({ 'session.compact': [31] })
    expect(hookSettlesOf(LOG, 'bench-pass-through')).toEqual({})
  })

  it('adds one session’s times to those gathered so far', () => {
    const all = hookSettlesOf(LOG, 'compact-handoff')
    addSettles(all, { 'tool.check': [9], 'classic.Stop': [20] })
    expect(all['tool.check']).toEqual([16.1, 15.6, 9])
    expect(all['classic.Stop']).toEqual([20])
  })
})
