// Which of the engine's compactions a fork answers under each value of option
// compactionHandoff, which go to the engine's summary with our instructions,
// and which pass untouched.
import { describe, expect } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import type { SessionCompactInput } from 'claude-code'
import { world } from '../support/world.js'
import { ANSWER_STAND_IN } from '../support/answer-stand-in.js'
import { typeAndLaunch } from '../support/flow.js'
import { AT_PROMPT, ENGINE_SUMMARY, FIRST_WORDS, FORK_FILE, MID_TURN, REPLY, compactAuto, compactSlash, checkedHandoffOf, fileText, handoffFiles, sessionWithWork } from '../support/fork-support.js'
import { OUTLINE, summaryInstructionsOf } from '../../hooks/compaction/summary-instructions.js'
import { PRECOMPUTE_SKIP } from '../../hooks/compaction/engine-compaction.js'

const SLOW = { timeoutMs: 30_000 }
const option = (value: string) => ({ ...SLOW, options: { compactionHandoff: value } })

describe('/compact', () => {
  test("under all becomes a fork's handoff, the person's words its focus", option('all'), async ($, on) => {
    const w = world(on, { forks: [REPLY] })
    await sessionWithWork($)
    const result = await compactSlash($, 'keep the benchmarks')
    expect(w.seen.compactions).toEqual([])
    expect(w.seen.forkPrompts[0]).toContain('(their words, verbatim): keep the benchmarks')
    expect(checkedHandoffOf(fileText(w, FORK_FILE)).fields.focus).toBe('keep the benchmarks')
    expect(result.messages).toHaveLength(1)
    expect(result.messages?.[0]?.text).toMatch(/, at the \/compact the user typed:/)
    expect(result.messages?.[0]?.text, 'a /compact runs between turns').not.toMatch(/turn was under way/)
  })

  for (const value of ['auto', 'off']) {
    test(`under ${value} goes to the engine's summary, the person's words first, then ours, then the outline`, option(value), async ($, on) => {
      const w = world(on, { forks: [REPLY] })
      await sessionWithWork($)
      const result = await compactSlash($, 'keep the benchmarks')
      expect(result.messages).toEqual([ENGINE_SUMMARY])
      expect(w.seen.forkPrompts, 'no fork').toEqual([])
      expect(handoffFiles(w)).toEqual([])
      const instructions = w.seen.compactions[0]?.instructions ?? ''
      expect(instructions.startsWith('keep the benchmarks\n\ncompact-handoff adds, so the summary keeps them:\n\n')).toBe(true)
      const at = ['keep the benchmarks', `[user message 1]\n${FIRST_WORDS}`, 'Files read: src/parser.ts', OUTLINE].map((part) => instructions.indexOf(part))
      expect(at).toEqual([...at].sort((a, b) => a - b))
      expect(instructions.endsWith(OUTLINE)).toBe(true)
    })
  }

  test('under the default (unset) option is summarised, not forked', SLOW, async ($, on) => {
    const w = world(on, { forks: [REPLY] })
    await sessionWithWork($)
    await compactSlash($)
    expect(w.seen.forkPrompts).toEqual([])
    expect(w.seen.compactions).toHaveLength(1)
  })
})

describe('an automatic compaction', () => {
  test('under all is forked as under auto', option('all'), async ($, on) => {
    const w = world(on, { forks: [REPLY] })
    await sessionWithWork($)
    await compactAuto($, AT_PROMPT)
    expect(handoffFiles(w)).toEqual([FORK_FILE])
  })

  test("under off goes to the engine's summary with our instructions alone", option('off'), async ($, on) => {
    const w = world(on, { forks: [REPLY] })
    await sessionWithWork($)
    await compactAuto($)
    expect(w.seen.forkPrompts).toEqual([])
    expect(w.seen.compactions[0]?.instructions?.startsWith('compact-handoff adds, so the summary keeps them:')).toBe(true)
  })

  test('an unknown option value reads as auto', option('sometimes'), async ($, on) => {
    const w = world(on, { forks: [REPLY] })
    await sessionWithWork($)
    await compactAuto($)
    expect(handoffFiles(w)).toEqual([FORK_FILE])
  })

  test('while a /compact-handoff run is under way is summarised, not forked', { ...SLOW, plugins: [ANSWER_STAND_IN] }, async ($, on) => {
    const w = world(on, { forks: [REPLY] })
    await sessionWithWork($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await compactAuto($)
    expect(w.seen.forkPrompts).toEqual([])
    expect(w.seen.compactions).toHaveLength(1)
  })
})

describe('a compaction that is not ours to answer', () => {
  for (const value of ['auto', 'all', 'off']) {
    test(`a subagent's, under ${value}, passes untouched`, option(value), async ($, on) => {
      const w = world(on, { forks: [REPLY] })
      await sessionWithWork($)
      for (const trigger of ['auto', 'manual', 'precompute'] as const) {
        const input: SessionCompactInput = { trigger, agentId: 'agent-1', instructions: 'keep it', messages: MID_TURN }
        expect(await $.session.compact(input)).toMatchObject({ messages: [ENGINE_SUMMARY] })
        expect(w.seen.compactions.at(-1), trigger).toEqual(input)
      }
      expect(w.seen.forkPrompts).toEqual([])
    })
  }

  test("another plugin's passes untouched", option('all'), async ($, on) => {
    const w = world(on, { forks: [REPLY] })
    await sessionWithWork($)
    const input: SessionCompactInput = { trigger: 'plugin', instructions: 'keep it', messages: MID_TURN }
    await $.session.compact(input)
    expect(w.seen.compactions).toEqual([input])
    expect(w.seen.forkPrompts).toEqual([])
  })
})

describe('a precompute of the main loop', () => {
  for (const value of ['auto', 'all']) {
    test(`under ${value} is vetoed: no summariser request is spent ahead of a fork`, option(value), async ($, on) => {
      const w = world(on)
      await sessionWithWork($)
      expect(await $.session.compact({ trigger: 'precompute', messages: MID_TURN })).toEqual({ skip: PRECOMPUTE_SKIP })
      expect(w.seen.compactions).toEqual([])
    })
  }

  test('under off goes on to the engine untouched, with no run under way', option('off'), async ($, on) => {
    const w = world(on)
    await sessionWithWork($)
    const input: SessionCompactInput = { trigger: 'precompute', messages: MID_TURN }
    await $.session.compact(input)
    expect(w.seen.compactions).toEqual([input])
  })
})

describe('the summary instructions', () => {
  test('are the pure function applied to the state: the same text in the kit as under Node', option('off'), async ($, on) => {
    const w = world(on)
    await sessionWithWork($)
    await compactAuto($)
    const instructions = w.seen.compactions[0]?.instructions ?? ''
    const words = { messages: [FIRST_WORDS], dropped: 0 }
    const facts = { changed: [], read: [`${w.cwd}/src/parser.ts`], commands: [{ line: 'fail pnpm vitest run parser', exitCode: 1 }] }
    expect(instructions).toBe(summaryInstructionsOf(undefined, { words, lastHandoff: { kind: 'none' }, facts, cwd: w.cwd }))
  })
})
