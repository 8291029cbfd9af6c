import { describe, expect, mock, test, type Engine } from 'claude-code/testing'
import type { On, SessionCompactInput, SessionMessage } from 'claude-code'
import { MARKER } from '../hooks/marker.js'
import { OUTLINE } from '../hooks/outline.js'
import { ENGINE_SUMMARY, engine } from './engine.js'

const TRANSCRIPT: SessionMessage[] = [
  { role: 'user', text: 'Fix the flaky upload test.', toolUses: [] },
  { role: 'assistant', text: 'Found the race; writing the handoff now.', toolUses: [] },
]

const STUB = 'Continue from plans/handoffs/HANDOFF_upload-race_2026-11-29.md.\nRead it first.'

describe('a marked plugin compaction of the main loop', () => {
  test('is answered with one user message holding the stub, without reaching the engine', async ($, on) => {
    const core = engine(on)
    const result = await $.session.compact({
      trigger: 'plugin',
      instructions: `${MARKER}\n${STUB}`,
      messages: TRANSCRIPT,
    })
    expect(result).toEqual({ messages: [{ role: 'user', text: STUB, toolUses: [] }] })
    expect(core.reached.length, 'the summariser must not run for our own compaction').toBe(0)
  })

  test('keeps exactly what follows the marker line, indentation and trailing newline included', async ($, on) => {
    engine(on)
    const stub = '    indented first line\n\nlast line\n'
    const result = await $.session.compact({ trigger: 'plugin', instructions: `${MARKER}\n${stub}`, messages: TRANSCRIPT })
    expect(result.messages?.[0]?.text).toBe(stub)
  })

  test('accepts a CRLF after the marker and keeps the stub verbatim', async ($, on) => {
    engine(on)
    const stub = 'line one\r\nline two'
    const result = await $.session.compact({ trigger: 'plugin', instructions: `${MARKER}\r\n${stub}`, messages: TRANSCRIPT })
    expect(result.messages?.[0]?.text).toBe(stub)
  })
})

type PassThrough = { why: string; input: SessionCompactInput }

const MARKED = `${MARKER}\n${STUB}`

const PASS_THROUGH: PassThrough[] = [
  { why: 'a precompute, even when marked', input: { trigger: 'precompute', instructions: MARKED, messages: TRANSCRIPT } },
  { why: 'a plugin compaction with unmarked instructions', input: { trigger: 'plugin', instructions: 'keep the plan', messages: TRANSCRIPT } },
  { why: 'a plugin compaction with no instructions', input: { trigger: 'plugin', messages: TRANSCRIPT } },
  { why: "a subagent's marked compaction", input: { trigger: 'plugin', agentId: 'agent-1', instructions: MARKED, messages: TRANSCRIPT } },
  { why: 'a marker followed by more text on its line', input: { trigger: 'plugin', instructions: `${MARKER} extra\n${STUB}`, messages: TRANSCRIPT } },
  { why: 'a marker with a prefix on its line', input: { trigger: 'plugin', instructions: `x${MARKER}\n${STUB}`, messages: TRANSCRIPT } },
  { why: 'a marker that is not on the first line', input: { trigger: 'plugin', instructions: `\n${MARKER}\n${STUB}`, messages: TRANSCRIPT } },
  { why: 'a marker line with nothing after it', input: { trigger: 'plugin', instructions: MARKER, messages: TRANSCRIPT } },
  { why: 'a marker line followed by an empty stub', input: { trigger: 'plugin', instructions: `${MARKER}\n`, messages: TRANSCRIPT } },
  { why: 'a marker line followed by whitespace only', input: { trigger: 'plugin', instructions: `${MARKER}\n  \n\t\r\n`, messages: TRANSCRIPT } },
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
})

describe('a manual or automatic compaction, even when marked', () => {
  for (const trigger of ['manual', 'auto'] as const) {
    test(`is not ours (${trigger}): the engine summarises, told its instructions first and then the outline`, async ($, on) => {
      const core = engine(on)
      const input: SessionCompactInput = { trigger, instructions: MARKED, messages: TRANSCRIPT }
      const result = await $.session.compact(input)
      expect(result, "the engine's own result must come back").toEqual({ messages: [ENGINE_SUMMARY] })
      expect(core.reached, 'only the instructions may change').toEqual([{ ...input, instructions: `${MARKED}\n\n${OUTLINE}` }])
    })
  }
})

/** A stand-in for compact-handoff: `/handoff-now <instructions>` schedules
 * `$.session.compact` on a timer (the call is refused inside command.run) and
 * toasts the outcome as JSON so the test can read it. */
const SENDER = {
  name: 'sender',
  register(on: On) {
    on('command.run', { command: 'handoff-now' }, ($, e) => {
      $.clock.after(0, async () => {
        try {
          const outcome = await $.session.compact({ instructions: e.args })
          $.ui.toast(JSON.stringify(outcome))
        } catch (error) {
          $.ui.toast(`refused: ${String(error)}`)
        }
      })
      return { text: 'scheduled' }
    })
  },
}

/** Registers the world beneath the plugins, runs `/handoff-now` through the
 * sender and lets its timer fire; returns what reached the engine and what the
 * sender toasted. */
async function compactFromTimer($: Engine, on: On, instructions: string) {
  const core = engine(on)
  const toasts: string[] = []
  on('ui.toast', (_$, e) => {
    toasts.push(e.text)
    return { value: undefined }
  })
  const clock = mock.clock(on)
  await $.command.run({
    command: 'handoff-now',
    args: instructions,
    origin: { kind: 'composer' },
    presentation: { isFullscreen: false, columns: 80 },
  })
  await clock.settle()
  return { reached: core.reached, toasts }
}

describe('a compaction a plugin starts from a timer', () => {
  test('is answered although the kit gives it no trigger and no messages', { plugins: [SENDER] }, async ($, on) => {
    const { reached, toasts } = await compactFromTimer($, on, `${MARKER}\n${STUB}`)
    expect(toasts, 'the sender should receive our stub as the whole conversation').toEqual([
      JSON.stringify({ messages: [{ role: 'user', text: STUB, toolUses: [] }] }),
    ])
    expect(reached.length, 'the summariser must not run').toBe(0)
  })

  test('reaches the engine with no trigger and no messages when unmarked, the kit gap the mod relies on', { plugins: [SENDER] }, async ($, on) => {
    const { reached, toasts } = await compactFromTimer($, on, 'keep the plan')
    expect(reached.length, 'an unmarked compaction is not ours').toBe(1)
    expect(reached[0]?.trigger, 'if the kit starts setting the trigger, revisit markedStubOf').toBeUndefined()
    expect(reached[0]?.messages, 'the mod must never read e.messages').toBeUndefined()
    expect(toasts).toEqual([JSON.stringify({ messages: [ENGINE_SUMMARY] })])
  })
})
