// The main loop's other compactions, around compact-handoff's runs: this mod
// reads compact-handoff's state to veto a precompute while a run is pending and
// to tell the engine's summariser where the handoff is, what the person wrote
// and what the work did, and to write the summary in a handoff's sections.
import { describe, expect, test, type Engine } from 'claude-code/testing'
import type { On, SessionCompactInput, SessionMessage } from 'claude-code'
import { MARKER } from '../hooks/marker.js'
import { OUTLINE } from '../hooks/outline.js'
import { CWD, ENGINE_SUMMARY, engine } from './engine.js'
import { COMPACTING, HANDOFF_STAND_IN as PARTNER, partnerWrites, timerCompactions, type PartnerState } from './handoff-stand-in.js'

const TRANSCRIPT: SessionMessage[] = [
  { role: 'user', text: 'Fix the flaky upload test.', toolUses: [] },
  { role: 'assistant', text: 'Found the race.', toolUses: [] },
]

const HANDOFF = 'plans/handoffs/HANDOFF_upload-race_2026-11-29.md'
const PLAN = 'plans/handoffs/PLAN_upload-race_2026-11-29.md'
const FIRST_REQUEST = 'Fix the flaky upload test.\nDo not touch the retry logic.'
const LATEST_REQUEST = 'Also keep the log format as it is.'

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

const SWAPPED_WITH_PLAN: PartnerState = {
  lastSwap: { kind: 'swapped', handoff: HANDOFF, plan: PLAN },
  words: { messages: [FIRST_REQUEST, LATEST_REQUEST], dropped: 3 },
}

/** Runs one compaction after the stand-in wrote `state` and returns the one
 * that reached the engine. */
async function reachingEngine($: Engine, on: On, state: PartnerState, input: SessionCompactInput) {
  const core = engine(on)
  await partnerWrites($, state)
  const result = await $.session.compact(input)
  expect(result, "the engine's own summary must come back").toEqual({ messages: [ENGINE_SUMMARY] })
  expect(core.reached.length, 'the engine must run the compaction').toBe(1)
  return core.reached[0]!
}

describe('a manual or automatic compaction of the main loop', () => {
  test("reaches the engine with the person's instructions first, then the handoff and their words", { plugins: [PARTNER] }, async ($, on) => {
    const input: SessionCompactInput = { trigger: 'manual', instructions: 'keep the plan', messages: TRANSCRIPT }
    const reached = await reachingEngine($, on, SWAPPED_WITH_PLAN, input)
    expect(reached, 'only the instructions may change').toEqual({ ...input, instructions: expect.any(String) })
    const text = reached.instructions!
    expect(text.startsWith('keep the plan\n\n'), 'the person leads').toBe(true)
    expect(text).toContain(`Handoff file: ${HANDOFF}`)
    expect(text).toContain(`Plan file: ${PLAN}`)
    const first = text.indexOf(`[user message 1]\n${FIRST_REQUEST}\n`)
    const latest = text.indexOf(`[user message 2]\n${LATEST_REQUEST}`)
    expect(first, 'the first request, verbatim').toBeGreaterThan(0)
    expect(latest, 'the latest request, verbatim and after the first').toBeGreaterThan(first)
    expect(text).toContain('[3 earlier message(s) after this one were dropped')
  })

  test('reaches the engine with the additions alone when the person gave no instructions', { plugins: [PARTNER] }, async ($, on) => {
    const input: SessionCompactInput = { trigger: 'auto', messages: TRANSCRIPT }
    const reached = await reachingEngine($, on, SWAPPED_WITH_PLAN, input)
    expect(reached).toEqual({ ...input, instructions: expect.any(String) })
    expect(reached.instructions).toContain(`Handoff file: ${HANDOFF}`)
    expect(reached.instructions).toContain(LATEST_REQUEST)
  })

  test('gets the words alone before any swap, and no dropped note when none were dropped', { plugins: [PARTNER] }, async ($, on) => {
    const state: PartnerState = { lastSwap: { kind: 'none' }, words: { messages: [FIRST_REQUEST], dropped: 0 } }
    const reached = await reachingEngine($, on, state, { trigger: 'auto', messages: TRANSCRIPT })
    expect(reached.instructions).toContain(FIRST_REQUEST)
    expect(reached.instructions).not.toContain('Handoff file:')
    expect(reached.instructions).not.toContain('dropped')
  })

  test('gets the handoff alone, without a plan line, when no words were recorded', { plugins: [PARTNER] }, async ($, on) => {
    const state: PartnerState = { lastSwap: { kind: 'swapped', handoff: HANDOFF }, words: { messages: [], dropped: 0 } }
    const reached = await reachingEngine($, on, state, { trigger: 'manual', instructions: 'be brief', messages: TRANSCRIPT })
    expect(reached.instructions).toContain(`Handoff file: ${HANDOFF}`)
    expect(reached.instructions).not.toContain('Plan file:')
    expect(reached.instructions).not.toContain('[user message')
  })

  test("gets the outline alone after the person's instructions when compact-handoff has nothing to add", { plugins: [PARTNER] }, async ($, on) => {
    const input: SessionCompactInput = { trigger: 'manual', instructions: 'keep the plan', messages: TRANSCRIPT }
    const reached = await reachingEngine($, on, { lastSwap: { kind: 'none' }, words: { messages: [], dropped: 0 } }, input)
    expect(reached).toEqual({ ...input, instructions: `keep the plan\n\n${OUTLINE}` })
  })
})

describe('with compact-handoff state present', () => {
  test("a subagent's manual compaction is untouched", { plugins: [PARTNER] }, async ($, on) => {
    const input: SessionCompactInput = { trigger: 'manual', agentId: 'agent-1', instructions: 'keep the plan', messages: TRANSCRIPT }
    expect(await reachingEngine($, on, SWAPPED_WITH_PLAN, input)).toEqual(input)
  })

  test("another plugin's unmarked compaction is untouched", { plugins: [PARTNER] }, async ($, on) => {
    const input: SessionCompactInput = { trigger: 'plugin', instructions: 'keep the plan', messages: TRANSCRIPT }
    expect(await reachingEngine($, on, SWAPPED_WITH_PLAN, input)).toEqual(input)
  })

  test('our marked compaction is still answered with the stub alone while the run swaps', { plugins: [PARTNER] }, async ($, on) => {
    const core = engine(on)
    const { raisedBy } = timerCompactions(on)
    await partnerWrites($, { ...SWAPPED_WITH_PLAN, run: COMPACTING })
    const stub = `Continue from ${HANDOFF}.`
    expect(await raisedBy($, 'compact-handoff', `${MARKER}\n${stub}`)).toEqual({ messages: [{ role: 'user', text: stub, toolUses: [] }] })
    expect(core.reached.length, 'the summariser must not run for our own compaction').toBe(0)
  })
})

const FACTS: PartnerState['work'] = {
  facts: {
    changed: [
      { path: `${CWD}/src/upload.ts`, count: 2 },
      { path: `${CWD}/tests/upload.test.ts`, count: 1 },
    ],
    read: [`${CWD}/src/retry.ts`, '/etc/hosts'],
    commands: [
      { line: 'pnpm test upload', exitCode: 1 },
      { line: 'git status --short', exitCode: 0 },
    ],
  },
}

/** The facts section FACTS makes: paths relative to the session folder when
 * inside it, newest first. */
const FACTS_SECTION = [
  'What this session did, recorded by code from its tool calls (facts, not notes):',
  'Files changed: tests/upload.test.ts, src/upload.ts (2×)',
  'Files read: /etc/hosts, src/retry.ts',
  'Last commands, newest first:',
  '- git status --short  → exit 0',
  '- pnpm test upload  → exit 1',
].join('\n')

describe("the handoff's outline", () => {
  test("follows the person's instructions and everything compact-handoff adds", { plugins: [PARTNER] }, async ($, on) => {
    const input: SessionCompactInput = { trigger: 'manual', instructions: 'keep the plan', messages: TRANSCRIPT }
    const reached = await reachingEngine($, on, { ...SWAPPED_WITH_PLAN, work: FACTS }, input)
    const text = reached.instructions!
    expect(text.startsWith('keep the plan\n\ncompact-handoff-answer adds'), 'the person leads').toBe(true)
    expect(text.endsWith(`\n\n${OUTLINE}`), 'the outline comes last').toBe(true)
    const order = ['keep the plan', `Handoff file: ${HANDOFF}`, '[user message 1]', FACTS_SECTION, OUTLINE].map((part) => text.indexOf(part))
    expect(order, 'instructions, handoff, words, facts, outline').toEqual([...order].sort((a, b) => a - b))
    expect(order.every((at) => at >= 0)).toBe(true)
  })

  test('names every section of a handoff, in order', async ($, on) => {
    const core = engine(on)
    await $.session.compact({ trigger: 'auto', messages: TRANSCRIPT })
    const text = core.reached[0]?.instructions ?? ''
    const headings = [...text.matchAll(/^## ([^:\n]+):/gm)].map((m) => m[1])
    expect(headings).toEqual(['Goal', 'Constraints', 'State', 'In progress', 'Tried and ruled out', 'Decisions', 'Open questions', 'Files', 'Next step', 'Verify'])
    expect(text).toContain('copied verbatim')
    expect(text).toContain('[verified]')
    expect(text, 'nothing else when compact-handoff never wrote its state').toBe(OUTLINE)
  })

  test('is not added to our marked compaction, which installs the stub alone', { plugins: [PARTNER] }, async ($, on) => {
    const core = engine(on)
    const { raisedBy } = timerCompactions(on)
    await partnerWrites($, { ...SWAPPED_WITH_PLAN, work: FACTS, run: COMPACTING })
    const stub = `Continue from ${HANDOFF}.`
    expect(await raisedBy($, 'compact-handoff', `${MARKER}\n${stub}`)).toEqual({ messages: [{ role: 'user', text: stub, toolUses: [] }] })
    expect(core.reached.length).toBe(0)
  })

  for (const [why, input] of [
    ["a subagent's manual compaction", { trigger: 'manual', agentId: 'agent-1', instructions: 'keep the plan', messages: TRANSCRIPT }],
    ["a subagent's automatic compaction", { trigger: 'auto', agentId: 'agent-1', messages: TRANSCRIPT }],
    ["the main loop's precompute", { trigger: 'precompute', messages: TRANSCRIPT }],
    ["a subagent's precompute", { trigger: 'precompute', agentId: 'agent-1', messages: TRANSCRIPT }],
  ] as const) {
    test(`is not added to ${why}, nor anything else`, { plugins: [PARTNER] }, async ($, on) => {
      const event: SessionCompactInput = { ...input, messages: [...input.messages] }
      expect(await reachingEngine($, on, { ...SWAPPED_WITH_PLAN, work: FACTS, run: { kind: 'idle' } }, event)).toEqual(event)
    })
  }
})

describe("the work's facts", () => {
  test('go to a manual compaction as compact-handoff records them: relative paths, newest first', { plugins: [PARTNER] }, async ($, on) => {
    const input: SessionCompactInput = { trigger: 'manual', instructions: 'be brief', messages: TRANSCRIPT }
    const reached = await reachingEngine($, on, { ...SWAPPED_WITH_PLAN, work: FACTS }, input)
    expect(reached.instructions).toContain(`\n\n${FACTS_SECTION}\n\n`)
  })

  test('go to an automatic compaction on their own, before any swap or recorded word', { plugins: [PARTNER] }, async ($, on) => {
    const state: PartnerState = { lastSwap: { kind: 'none' }, words: { messages: [], dropped: 0 }, work: FACTS }
    const reached = await reachingEngine($, on, state, { trigger: 'auto', messages: TRANSCRIPT })
    expect(reached.instructions).toBe(`compact-handoff-answer adds, so the summary keeps them:\n\n${FACTS_SECTION}\n\n${OUTLINE}`)
  })

  test('add no section when compact-handoff recorded none', { plugins: [PARTNER] }, async ($, on) => {
    const state: PartnerState = { work: { facts: { changed: [], read: [], commands: [] } } }
    const reached = await reachingEngine($, on, state, { trigger: 'auto', messages: TRANSCRIPT })
    expect(reached.instructions).toBe(OUTLINE)
  })

  test('say so when more was recorded than the section holds', { plugins: [PARTNER] }, async ($, on) => {
    const read = Array.from({ length: 40 }, (_, i) => `${CWD}/src/${'deep/'.repeat(20)}file-${i}.ts`)
    const reached = await reachingEngine($, on, { work: { facts: { changed: [], read, commands: [{ line: 'ls', exitCode: 0 }] } } }, { trigger: 'auto', messages: TRANSCRIPT })
    expect(reached.instructions).toContain('[more was recorded than fits here]')
    expect(reached.instructions).not.toContain('- ls  → exit 0')
  })
})
