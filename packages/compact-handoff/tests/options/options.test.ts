// The options as the host hands them to `register` and the mod resolves them
// once (hooks/options/): each option set, unset, and set to a value of the
// wrong kind or out of bounds, seen where it acts. The percents show in
// /compact-handoff status; compactionHandoff in what a precompute meets;
// askAfterCompaction in whether the first tool call after a /compact asks.
import { describe, expect, type Engine } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import type { PluginOptions } from 'claude-code'
import { world } from '../support/world.js'
import { runCommand, typeCommand } from '../support/engine-calls.js'
import { startSession } from '../support/flow.js'
import { PRECOMPUTE_SKIP } from '../../hooks/compaction/engine-compaction.js'

const TRANSCRIPT = [{ role: 'user' as const, text: 'Fix the flaky upload test.', toolUses: [] }]

async function thresholdsLineOf($: Engine): Promise<string | undefined> {
  const report = (await typeCommand($, 'compact-handoff', 'status')).text ?? ''
  return /nudge at [^\n]*/.exec(report)?.[0]
}

describe('nudgePercent and autoHandoffPercent', () => {
  const CASES: [string, PluginOptions, string][] = [
    ['unset: their defaults', {}, 'nudge at 70% · auto handoff off.'],
    ['set within their bounds', { nudgePercent: 50, autoHandoffPercent: 80 }, 'nudge at 50% · auto handoff at 80%.'],
    ['at their bounds', { nudgePercent: 1, autoHandoffPercent: 99 }, 'nudge at 1% · auto handoff at 99%.'],
    ['a fraction', { nudgePercent: 72.5, autoHandoffPercent: 0.5 }, 'nudge at 72.5% · auto handoff at 0.5%.'],
    ['autoHandoffPercent at 0: off', { autoHandoffPercent: 0 }, 'nudge at 70% · auto handoff off.'],
  ]
  for (const [name, options, line] of CASES) {
    test(name, { options }, async ($, on) => {
      world(on)
      await startSession($)
      expect(await thresholdsLineOf($)).toBe(line)
    })
  }

  // What a hand-edited setting out of the manifest's bounds or of another kind
  // meets: the host refuses to load the mod, naming the option, so it never
  // reaches `register` (whose readers fall back to the default all the same,
  // tests/compact-handoff/options/).
  const REFUSED: [string, PluginOptions, RegExp][] = [
    ['below its bounds', { nudgePercent: 0 }, /Nudge threshold \(%\) must be at least 1/],
    ['above its bounds', { autoHandoffPercent: 100 }, /Auto handoff threshold \(%\) must be at most 99/],
    ['a decimal string', { nudgePercent: '60' }, /Nudge threshold \(%\) must be a number/],
    ['of another kind', { autoHandoffPercent: true }, /Auto handoff threshold \(%\) must be a number/],
  ]
  for (const [name, options, refusal] of REFUSED) {
    test(`${name}: the host refuses to load the mod`, { options }, async ($, on) => {
      world(on)
      await expect(startSession($)).rejects.toThrow(refusal)
    })
  }
})

describe('compactionHandoff', () => {
  const CASES: [string, PluginOptions, 'vetoed' | 'passed'][] = [
    ['unset: auto, a precompute is vetoed', {}, 'vetoed'],
    ['all: a precompute is vetoed', { compactionHandoff: 'all' }, 'vetoed'],
    ['off: a precompute passes to the engine', { compactionHandoff: 'off' }, 'passed'],
    ['OFF, not one of its values: auto, a precompute is vetoed', { compactionHandoff: 'OFF' }, 'vetoed'],
    ['of the wrong kind: auto, a precompute is vetoed', { compactionHandoff: false }, 'vetoed'],
  ]
  for (const [name, options, met] of CASES) {
    test(name, { options }, async ($, on) => {
      const w = world(on)
      await startSession($)
      const result = await $.session.compact({ trigger: 'precompute', messages: TRANSCRIPT })
      if (met === 'vetoed') expect(result).toEqual({ skip: PRECOMPUTE_SKIP })
      expect(w.seen.compactions).toHaveLength(met === 'vetoed' ? 0 : 1)
    })
  }
})

describe('askAfterCompaction', () => {
  const CASES: [string, PluginOptions, boolean][] = [
    ['unset: off', {}, false],
    ['true: on', { askAfterCompaction: true }, true],
    ['false: off', { askAfterCompaction: false }, false],
  ]
  for (const [name, options, isAsked] of CASES) {
    test(`${name}, the first tool call after a /compact ${isAsked ? 'asks' : 'runs without asking'}`, { options }, async ($, on) => {
      const w = world(on, { askAnswer: 'continue' })
      await startSession($)
      await $.session.compact({ trigger: 'manual', messages: TRANSCRIPT })
      expect((await runCommand($, 'pnpm test')).deny).toBeUndefined()
      expect(w.seen.asks).toHaveLength(isAsked ? 1 : 0)
    })
  }

  test('the string "true": the host refuses to load the mod', { options: { askAfterCompaction: 'true' } }, async ($, on) => {
    world(on)
    await expect(startSession($)).rejects.toThrow(/Ask before carrying on after a compaction must be a boolean/)
  })
})
