import { describe, expect, test } from 'claude-code/testing'
import type { SessionCompactInput, SessionMessage } from 'claude-code'
import { MARKER } from '../../hooks/partner/marker.js'
import { ENGINE_SUMMARY, engine } from '../support/engine.js'
import { COMPACTING, HANDOFF_STAND_IN, OTHER_SENDER, partnerWrites, timerCompactions } from '../support/handoff-stand-in.js'

const TRANSCRIPT: SessionMessage[] = [
  { role: 'user', text: 'Fix the flaky upload test.', toolUses: [] },
  { role: 'assistant', text: 'Found the race; writing the handoff now.', toolUses: [] },
]

const STUB = 'Continue from plans/handoffs/HANDOFF_upload-race_2026-11-29.md.\nRead it first.'

const ANSWERED = { messages: [{ role: 'user', text: STUB, toolUses: [] }] }

describe("compact-handoff's marked compaction, raised while its swap compacts", () => {
  test('is answered with one user message holding the stub, without reaching the engine', { plugins: [HANDOFF_STAND_IN] }, async ($, on) => {
    const core = engine(on)
    const { raisedBy } = timerCompactions(on)
    await partnerWrites($, { run: COMPACTING })
    expect(await raisedBy($, 'compact-handoff', `${MARKER}\n${STUB}`)).toEqual(ANSWERED)
    expect(core.reached.length, 'the summariser must not run for our own compaction').toBe(0)
  })

  test('keeps exactly what follows the marker line, indentation and trailing newline included', { plugins: [HANDOFF_STAND_IN] }, async ($, on) => {
    engine(on)
    const { raisedBy } = timerCompactions(on)
    await partnerWrites($, { run: COMPACTING })
    const stub = '    indented first line\n\nlast line\n'
    expect(await raisedBy($, 'compact-handoff', `${MARKER}\n${stub}`)).toEqual({ messages: [{ role: 'user', text: stub, toolUses: [] }] })
  })

  test('accepts a CRLF after the marker and keeps the stub verbatim', { plugins: [HANDOFF_STAND_IN] }, async ($, on) => {
    engine(on)
    const { raisedBy } = timerCompactions(on)
    await partnerWrites($, { run: COMPACTING })
    const stub = 'line one\r\nline two'
    expect(await raisedBy($, 'compact-handoff', `${MARKER}\r\n${stub}`)).toEqual({ messages: [{ role: 'user', text: stub, toolUses: [] }] })
  })
})

describe('a marked compaction that is not compact-handoff\'s swap goes on to the engine unchanged', () => {
  test("another plugin's, even while compact-handoff's swap compacts", { plugins: [HANDOFF_STAND_IN, OTHER_SENDER] }, async ($, on) => {
    const core = engine(on)
    const { raisedBy } = timerCompactions(on)
    await partnerWrites($, { run: COMPACTING })
    expect(await raisedBy($, 'sender', `${MARKER}\n${STUB}`), "the engine's own result comes back").toEqual({ messages: [ENGINE_SUMMARY] })
    expect(core.reached.map((e) => e.instructions), 'the instructions arrive as the plugin wrote them').toEqual([`${MARKER}\n${STUB}`])
  })

  for (const [why, run] of [
    ['no run', { kind: 'idle' }],
    ['a run still writing', { kind: 'writing' }],
    ['a run waiting for review', { kind: 'reviewed' }],
    ['a run swapping whose compaction is not in flight', { kind: 'swapping', isCompacting: false }],
  ] as const) {
    test(`compact-handoff's own, raised with ${why}`, { plugins: [HANDOFF_STAND_IN] }, async ($, on) => {
      const core = engine(on)
      const { raisedBy } = timerCompactions(on)
      await partnerWrites($, { run })
      expect(await raisedBy($, 'compact-handoff', `${MARKER}\n${STUB}`)).toEqual({ messages: [ENGINE_SUMMARY] })
      expect(core.reached.map((e) => e.instructions)).toEqual([`${MARKER}\n${STUB}`])
    })
  }

  test("one the engine raises with compact-handoff's swap compacting", { plugins: [HANDOFF_STAND_IN] }, async ($, on) => {
    const core = engine(on)
    await partnerWrites($, { run: COMPACTING })
    const input: SessionCompactInput = { trigger: 'plugin', instructions: `${MARKER}\n${STUB}`, messages: TRANSCRIPT }
    expect(await $.session.compact(input)).toEqual({ messages: [ENGINE_SUMMARY] })
    expect(core.reached).toEqual([input])
  })
})

type PassThrough = { why: string; input: SessionCompactInput }

const MARKED = `${MARKER}\n${STUB}`

const PASS_THROUGH: PassThrough[] = [
  { why: 'a precompute, even when marked', input: { trigger: 'precompute', instructions: MARKED, messages: TRANSCRIPT } },
  { why: 'a plugin compaction with no instructions', input: { trigger: 'plugin', messages: TRANSCRIPT } },
  { why: "a subagent's marked compaction", input: { trigger: 'plugin', agentId: 'agent-1', instructions: MARKED, messages: TRANSCRIPT } },
]

/** Instructions compact-handoff's swap might send that are not marked as its stub. */
const NOT_MARKED: [string, string][] = [
  ['unmarked instructions', 'keep the plan'],
  ['a marker followed by more text on its line', `${MARKER} extra\n${STUB}`],
  ['a marker with a prefix on its line', `x${MARKER}\n${STUB}`],
  ['a marker that is not on the first line', `\n${MARKER}\n${STUB}`],
  ['a marker line with nothing after it', MARKER],
  ['a marker line followed by an empty stub', `${MARKER}\n`],
  ['a marker line followed by whitespace only', `${MARKER}\n  \n\t\r\n`],
]

describe('every other compaction', () => {
  for (const { why, input } of PASS_THROUGH) {
    test(`reaches the engine unchanged for ${why}`, async ($, on) => {
      const core = engine(on)
      const result = await $.session.compact(input)
      expect(core.reached.length, 'the engine must run the compaction').toBe(1)
      expect(core.reached[0], 'the event must arrive as raised').toEqual(input)
      expect(result, "the engine's own result must come back").toEqual({ messages: [ENGINE_SUMMARY] })
    })
  }

  for (const [why, instructions] of NOT_MARKED) {
    test(`reaches the engine unchanged for ${why}, raised by compact-handoff's swap`, { plugins: [HANDOFF_STAND_IN] }, async ($, on) => {
      const core = engine(on)
      const { raisedBy } = timerCompactions(on)
      await partnerWrites($, { run: COMPACTING })
      expect(await raisedBy($, 'compact-handoff', instructions), "the engine's own result must come back").toEqual({ messages: [ENGINE_SUMMARY] })
      expect(core.reached.map((e) => e.instructions), 'the instructions arrive as sent').toEqual([instructions])
    })
  }
})

describe('a manual or automatic compaction, even when marked', () => {
  for (const trigger of ['manual', 'auto'] as const) {
    test(`is not ours (${trigger}): it reaches the engine as it came, instructions included`, async ($, on) => {
      const core = engine(on)
      const input: SessionCompactInput = { trigger, instructions: MARKED, messages: TRANSCRIPT }
      const result = await $.session.compact(input)
      expect(result, "the engine's own result must come back").toEqual({ messages: [ENGINE_SUMMARY] })
      expect(core.reached, 'compact-handoff, outer to this mod, adds the instructions; this mod changes nothing').toEqual([input])
    })
  }
})

describe('a compaction a plugin starts from a timer', () => {
  test('reaches the engine with no trigger and no messages when unmarked, the kit gap the mod relies on', { plugins: [HANDOFF_STAND_IN] }, async ($, on) => {
    const core = engine(on)
    const { raisedBy } = timerCompactions(on)
    await partnerWrites($, { run: COMPACTING })
    expect(await raisedBy($, 'compact-handoff', 'keep the plan')).toEqual({ messages: [ENGINE_SUMMARY] })
    expect(core.reached.length, 'an unmarked compaction is not ours').toBe(1)
    expect(core.reached[0]?.trigger, 'if the kit starts setting the trigger, revisit markedStubOf').toBeUndefined()
    expect(core.reached[0]?.messages, 'the mod must never read e.messages').toBeUndefined()
  })
})
