// Option askAfterCompaction: after a compaction that was not our swap, the
// first main-loop tool call asks the person whether Claude may carry on from
// the summary. The question is the engine's AskUserQuestion dialog, which
// `$.ui.ask` raises as a tool.call of AskUserQuestion; the world beneath
// answers it as the person would (`askAnswer`), or refuses it as a dismissal does.
import { describe, expect, type Engine } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import type { On, SessionCompactInput, SessionMessage } from 'claude-code'
import { HANDOFF, world, type WorldOptions } from '../support/world.js'
import { ANSWER_STAND_IN } from '../support/answer-stand-in.js'
import { endTurn, runCommand, skillWrite } from '../support/engine-calls.js'
import { finishSkill, skillWritesHandoff, startSession, typeAndLaunch } from '../support/flow.js'
import { handoffText, readyAnswer } from '../support/texts.js'

const ON = { options: { askAfterCompaction: true } }
/** The option on, with the answer mod there to answer our swap. */
const ON_WITH_ANSWER = { ...ON, plugins: [ANSWER_STAND_IN] }

const TRANSCRIPT: SessionMessage[] = [
  { role: 'user', text: 'Fix the flaky upload test.', toolUses: [] },
  { role: 'assistant', text: 'Found the race.', toolUses: [] },
]

/** The world, and the option labels each question offered, seen on the way down. */
function askWorld(on: On, options: WorldOptions = {}) {
  const labels: string[][] = []
  // Registered first, so it sits above the world's answer and sees every question.
  on('tool.call', { tool: 'AskUserQuestion' }, (_$, e, next) => {
    if (e.tool === 'AskUserQuestion') labels.push(e.questions[0]!.options.map((o) => o.label))
    return next(e)
  })
  return { w: world(on, options), labels }
}

function compaction(trigger: 'manual' | 'auto' | 'precompute', extra: Partial<SessionCompactInput> = {}): SessionCompactInput {
  return { trigger, messages: [...TRANSCRIPT], ...extra }
}

function bash($: Engine, command: string, agentId?: string) {
  return agentId === undefined ? runCommand($, command) : $.tool.call({ tool: 'Bash', command, agentId })
}

/** Whether the call reached the engine: a refused one carries `deny`. */
function ran(result: { deny?: string }): boolean {
  return result.deny === undefined
}

function turnEnds($: Engine, agentId?: string) {
  return endTurn($, 'done', 'answer', agentId, 't1')
}

describe('with askAfterCompaction on', () => {
  test('a /compact makes the first tool call ask; "continue" lets it run; later calls do not ask', ON, async ($, on) => {
    const { w, labels } = askWorld(on, { askAnswer: 'continue' })
    await startSession($)
    expect(await $.session.compact(compaction('manual', { instructions: 'be brief' }))).toMatchObject({ messages: [{ text: 'engine summary' }] })
    expect(ran(await bash($, 'pnpm test'))).toBe(true)
    expect(w.seen.asks).toHaveLength(1)
    expect(w.seen.asks[0]).toMatch(/Your \/compact replaced the conversation.*May it carry on from what replaced it\?$/)
    expect(labels).toEqual([['continue', 'stop and wait']])
    expect(ran(await bash($, 'git status'))).toBe(true)
    await turnEnds($)
    expect(ran(await bash($, 'ls'))).toBe(true)
    expect(w.seen.asks, 'once per compaction').toHaveLength(1)
  })

  test('an automatic compaction asks too, saying it was automatic', ON, async ($, on) => {
    const { w } = askWorld(on, { askAnswer: 'continue' })
    await startSession($)
    await $.session.compact(compaction('auto'))
    await bash($, 'ls')
    expect(w.seen.asks).toHaveLength(1)
    expect(w.seen.asks[0]).toMatch(/compacted the conversation automatically/)
  })

  for (const [why, answer, said] of [
    ['"stop and wait"', 'stop and wait', /The person chose "stop and wait"/],
    ['a dismissed question', 'dismiss', /The person dismissed the question/],
    ['text typed under Other', 'first show me the diff', /The person answered in their own words: "first show me the diff"/],
  ] as const) {
    test(`${why} refuses the call, and every main-loop call until the turn ends, telling the model to stop and wait`, ON, async ($, on) => {
      const { w } = askWorld(on, { askAnswer: answer })
      await startSession($)
      await $.session.compact(compaction('manual'))
      const refused = await bash($, 'rm -rf build')
      expect(refused.deny).toMatch(said)
      expect(refused.deny).toMatch(/^compact-handoff: .*Do not run this or any other tool now\. Stop here.*wait for their next message\.$/)
      const again = await bash($, 'pnpm build')
      expect(again.deny, 'the rest of the turn is refused too').toBe(refused.deny)
      expect(w.seen.asks, 'without asking again').toHaveLength(1)
      await turnEnds($, 'agent-1')
      expect((await bash($, 'ls')).deny, "a subagent's turn end is not the main loop's").toBe(refused.deny)
      await turnEnds($)
      expect(ran(await bash($, 'ls')), 'the next turn runs its tools').toBe(true)
      expect(w.seen.asks).toHaveLength(1)
    })
  }

  test('calls made while the question is open wait for its answer', ON, async ($, on) => {
    const { w } = askWorld(on, { askAnswer: 'stop and wait' })
    await startSession($)
    await $.session.compact(compaction('manual'))
    const results = await Promise.all([bash($, 'one'), bash($, 'two'), $.tool.call({ tool: 'Read', file_path: '/srv/app/a.ts' })])
    expect(w.seen.asks).toHaveLength(1)
    expect(results.some(ran)).toBe(false)
  })

  test('each compaction that is not ours asks once', ON, async ($, on) => {
    const { w } = askWorld(on, { askAnswer: 'continue' })
    await startSession($)
    await $.session.compact(compaction('manual'))
    await bash($, 'one')
    await bash($, 'two')
    await $.session.compact(compaction('auto'))
    await bash($, 'three')
    await bash($, 'four')
    expect(w.seen.asks).toHaveLength(2)
  })

  test('a tool call with no compaction before it does not ask', ON, async ($, on) => {
    const { w } = askWorld(on)
    await startSession($)
    expect(ran(await bash($, 'ls'))).toBe(true)
    expect(w.seen.asks).toEqual([])
  })

  test("a subagent's tool call neither asks nor takes the question from the main loop", ON, async ($, on) => {
    const { w } = askWorld(on, { askAnswer: 'continue' })
    await startSession($)
    await $.session.compact(compaction('manual'))
    expect(ran(await bash($, 'ls', 'agent-1'))).toBe(true)
    expect(w.seen.asks).toEqual([])
    await bash($, 'ls')
    expect(w.seen.asks).toHaveLength(1)
  })

  for (const [why, input] of [
    ['a precompute', compaction('precompute')],
    ["a subagent's manual compaction", compaction('manual', { agentId: 'agent-1' })],
    ["a subagent's automatic compaction", compaction('auto', { agentId: 'agent-1' })],
    ["another plugin's compaction", { trigger: 'plugin', instructions: 'keep the plan', messages: [...TRANSCRIPT] }],
  ] as const) {
    test(`${why} does not arm the question`, ON, async ($, on) => {
      const { w } = askWorld(on)
      await startSession($)
      await $.session.compact(input)
      await bash($, 'ls')
      expect(w.seen.asks).toEqual([])
    })
  }

  test('a compaction the engine skipped does not arm the question', ON, async ($, on) => {
    const { w } = askWorld(on, { engineCompact: 'skip' })
    await startSession($)
    expect(await $.session.compact(compaction('manual'))).toEqual({ skip: 'a PreCompact hook blocked it' })
    await bash($, 'ls')
    expect(w.seen.asks).toEqual([])
  })

  test('our own swap does not arm the question', ON_WITH_ANSWER, async ($, on) => {
    const { w } = askWorld(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    expect(w.seen.submits.filter((s) => s.asUser), 'the swap went through').toHaveLength(1)
    expect(ran(await bash($, 'ls'))).toBe(true)
    expect(w.seen.asks).toEqual([])
  })

  test('our swap takes back a question an automatic compaction armed during the run: the context is the stub, not a summary', ON_WITH_ANSWER, async ($, on) => {
    const { w } = askWorld(on, { askAnswer: 'continue' })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    w.writeFile(HANDOFF, handoffText())
    await skillWrite($, HANDOFF, handoffText())
    await $.session.compact(compaction('auto'))
    await finishSkill($, w, readyAnswer([HANDOFF]))
    expect(w.seen.submits.filter((s) => s.asUser), 'the swap went through').toHaveLength(1)
    expect(ran(await bash($, 'ls'))).toBe(true)
    expect(w.seen.asks).toEqual([])
    await $.session.compact(compaction('auto'))
    await bash($, 'pwd')
    expect(w.seen.asks, 'a later compaction arms it again').toHaveLength(1)
  })
})

describe('with askAfterCompaction off', () => {
  test('is the default: nothing is asked after a /compact, and tool calls run', async ($, on) => {
    const { w } = askWorld(on)
    await startSession($)
    await $.session.compact(compaction('manual'))
    expect(ran(await bash($, 'ls'))).toBe(true)
    await $.session.compact(compaction('auto'))
    expect(ran(await bash($, 'pwd'))).toBe(true)
    expect(w.seen.asks).toEqual([])
  })

  test('set to false: nothing is asked', { options: { askAfterCompaction: false } }, async ($, on) => {
    const { w } = askWorld(on)
    await startSession($)
    await $.session.compact(compaction('manual'))
    expect(ran(await bash($, 'ls'))).toBe(true)
    expect(w.seen.asks).toEqual([])
  })
})
