// The main loop's other compactions, around compact-handoff's runs: this mod
// reads compact-handoff's run to veto a precompute while one is pending, and
// leaves every /compact and automatic compaction as it came (compact-handoff,
// outer to this mod, answers it or adds the summariser's instructions).
import { describe, expect, test } from 'claude-code/testing'
import type { SessionCompactInput, SessionMessage } from 'claude-code'
import { MARKER } from '../../hooks/partner/marker.js'
import { ENGINE_SUMMARY, engine } from '../support/engine.js'
import { COMPACTING, HANDOFF_STAND_IN as PARTNER, partnerWrites, timerCompactions } from '../support/handoff-stand-in.js'

const TRANSCRIPT: SessionMessage[] = [
  { role: 'user', text: 'Fix the flaky upload test.', toolUses: [] },
  { role: 'assistant', text: 'Found the race.', toolUses: [] },
]

const HANDOFF = 'plans/handoffs/HANDOFF_upload-race_2026-11-29.md'

const PENDING_KINDS = ['launching', 'writing', 'checking', 'reviewed', 'swapping']

describe('a precompute of the main loop', () => {
  for (const kind of PENDING_KINDS) {
    test(`is skipped while a compact-handoff run is ${kind}`, { plugins: [PARTNER] }, async ($, on) => {
      const core = engine(on)
      await partnerWrites($, { run: { kind } })
      const result = await $.session.compact({ trigger: 'precompute', messages: TRANSCRIPT })
      expect(result.skip, 'a stale precomputed summary must not be computed').toContain(kind)
      expect(core.reached.length, 'nothing may be summarised ahead of the swap').toBe(0)
    })
  }

  test('goes on to the engine unchanged once the run is idle', { plugins: [PARTNER] }, async ($, on) => {
    const core = engine(on)
    await partnerWrites($, { run: { kind: 'idle' } })
    const input: SessionCompactInput = { trigger: 'precompute', messages: TRANSCRIPT }
    const result = await $.session.compact(input)
    expect(result).toEqual({ messages: [ENGINE_SUMMARY] })
    expect(core.reached).toEqual([input])
  })

  test('goes on to the engine unchanged when compact-handoff never wrote its state', async ($, on) => {
    const core = engine(on)
    const input: SessionCompactInput = { trigger: 'precompute', messages: TRANSCRIPT }
    const result = await $.session.compact(input)
    expect(result).toEqual({ messages: [ENGINE_SUMMARY] })
    expect(core.reached).toEqual([input])
  })

  test("of a subagent is untouched even while a run is pending", { plugins: [PARTNER] }, async ($, on) => {
    const core = engine(on)
    await partnerWrites($, { run: { kind: 'writing' } })
    const input: SessionCompactInput = { trigger: 'precompute', agentId: 'agent-1', messages: TRANSCRIPT }
    await $.session.compact(input)
    expect(core.reached).toEqual([input])
  })
})

describe('a manual or automatic compaction of the main loop', () => {
  for (const [why, input] of [
    ['a /compact with instructions', { trigger: 'manual', instructions: 'keep the plan', messages: TRANSCRIPT }],
    ['an automatic compaction', { trigger: 'auto', messages: TRANSCRIPT }],
    ["a subagent's manual compaction", { trigger: 'manual', agentId: 'agent-1', instructions: 'keep the plan', messages: TRANSCRIPT }],
    ["a subagent's automatic compaction", { trigger: 'auto', agentId: 'agent-1', messages: TRANSCRIPT }],
    ["another plugin's unmarked compaction", { trigger: 'plugin', instructions: 'keep the plan', messages: TRANSCRIPT }],
  ] as const) {
    test(`reaches the engine as it came: ${why}, with no run under way`, { plugins: [PARTNER] }, async ($, on) => {
      const core = engine(on)
      await partnerWrites($, { run: { kind: 'idle' } })
      const event: SessionCompactInput = { ...input, messages: [...input.messages] }
      expect(await $.session.compact(event)).toEqual({ messages: [ENGINE_SUMMARY] })
      expect(core.reached, 'nothing is added: compact-handoff adds the instructions, outer to this mod').toEqual([event])
    })
  }

  test('reaches the engine as it came while a run is writing: only a precompute is vetoed', { plugins: [PARTNER] }, async ($, on) => {
    const core = engine(on)
    await partnerWrites($, { run: { kind: 'writing' } })
    const input: SessionCompactInput = { trigger: 'auto', messages: TRANSCRIPT }
    expect(await $.session.compact(input)).toEqual({ messages: [ENGINE_SUMMARY] })
    expect(core.reached).toEqual([input])
  })
})

describe('with compact-handoff state present', () => {
  test('our marked compaction is still answered with the stub alone while the run swaps', { plugins: [PARTNER] }, async ($, on) => {
    const core = engine(on)
    const { raisedBy } = timerCompactions(on)
    await partnerWrites($, { run: COMPACTING })
    const stub = `Continue from ${HANDOFF}.`
    expect(await raisedBy($, 'compact-handoff', `${MARKER}\n${stub}`)).toEqual({ messages: [{ role: 'user', text: stub, toolUses: [] }] })
    expect(core.reached.length, 'the summariser must not run for our own compaction').toBe(0)
  })
})
