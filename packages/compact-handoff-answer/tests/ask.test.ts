// Option askAfterCompaction: after a compaction that was not ours, the first
// main-loop tool call asks the person whether Claude may carry on from the
// summary. The question is the engine's AskUserQuestion dialog, which `$.ui.ask`
// raises as a tool.call of AskUserQuestion; the test answers it beneath the
// plugins as the person would, or refuses it as a dismissal does.
import { describe, expect, test, type Engine } from 'claude-code/testing'
import type { On, SessionCompactInput, SessionMessage } from 'claude-code'
import { MARKER } from '../hooks/marker.js'
import { ENGINE_SUMMARY, engine } from './engine.js'
import { COMPACTING, HANDOFF_STAND_IN, partnerWrites, timerCompactions } from './handoff-stand-in.js'

const ON = { options: { askAfterCompaction: true } }
/** The option on, with compact-handoff there to raise its swap. */
const WITH_SWAP = { ...ON, plugins: [HANDOFF_STAND_IN] }

function answered(stub: string) {
  return { messages: [{ role: 'user', text: stub, toolUses: [] }] }
}

const TRANSCRIPT: SessionMessage[] = [
  { role: 'user', text: 'Fix the flaky upload test.', toolUses: [] },
  { role: 'assistant', text: 'Found the race.', toolUses: [] },
]

/** What the person does with a question: pick a label, type text, or dismiss it. */
type Reply = string | { dismiss: true }

type World = {
  /** The questions asked, in order. */
  questions: string[]
  /** The tools that ran (reached the engine), in order. */
  ran: string[]
  /** Set how the person answers the next questions, one reply each. */
  replies: Reply[]
}

/** The engine beneath the plugins: compactions, the question dialog, the tools and turn ends. */
function world(on: On, options: { skip?: string } = {}): World {
  engine(on, options)
  const w: World = { questions: [], ran: [], replies: [] }
  on('tool.call', (_$, e) => {
    if (e.tool === 'AskUserQuestion') {
      const question = e.questions[0]!
      w.questions.push(question.question)
      expect(question.options.map((o) => o.label)).toEqual(['continue', 'stop and wait'])
      const reply = w.replies.shift() ?? 'continue'
      if (typeof reply !== 'string') return { deny: 'dismissed' }
      return { result: { questions: e.questions, answers: { [question.question]: reply } } }
    }
    w.ran.push(e.tool)
    return { result: `ran ${e.tool}` }
  })
  on('turn.complete', (_$, e) => ({ text: e.answer }))
  return w
}

function compaction(trigger: 'manual' | 'auto' | 'precompute', extra: Partial<SessionCompactInput> = {}): SessionCompactInput {
  return { trigger, messages: TRANSCRIPT, ...extra }
}

function bash($: Engine, command: string, agentId?: string) {
  return $.tool.call(agentId === undefined ? { tool: 'Bash', command } : { tool: 'Bash', command, agentId })
}

function turnEnds($: Engine, agentId?: string) {
  return $.turn.complete({ answer: 'done', durationMs: 1, isAborted: false, turnId: 't1', reason: 'answer', ...(agentId === undefined ? {} : { agentId }) })
}

describe('with askAfterCompaction on', () => {
  test('a /compact makes the first tool call ask; "continue" lets it run; later calls do not ask', ON, async ($, on) => {
    const w = world(on)
    expect(await $.session.compact(compaction('manual', { instructions: 'be brief' }))).toEqual({ messages: [ENGINE_SUMMARY] })
    w.replies.push('continue')
    expect(await bash($, 'pnpm test')).toEqual(expect.objectContaining({ result: 'ran Bash' }))
    expect(w.questions).toHaveLength(1)
    expect(w.questions[0]).toMatch(/Your \/compact replaced the conversation with a summary.*May it carry on from the summary\?$/)
    await bash($, 'git status')
    await turnEnds($)
    await bash($, 'ls')
    expect(w.questions, 'once per compaction').toHaveLength(1)
    expect(w.ran).toEqual(['Bash', 'Bash', 'Bash'])
  })

  test('an automatic compaction asks too, saying it was automatic', ON, async ($, on) => {
    const w = world(on)
    await $.session.compact(compaction('auto'))
    await bash($, 'ls')
    expect(w.questions).toHaveLength(1)
    expect(w.questions[0]).toMatch(/compacted the conversation into a summary automatically/)
  })

  for (const [why, reply, said] of [
    ['"stop and wait"', 'stop and wait', /The person chose "stop and wait"/],
    ['a dismissed question', { dismiss: true }, /The person dismissed the question/],
    ['text typed under Other', 'first show me the diff', /The person answered in their own words: "first show me the diff"/],
  ] as const) {
    test(`${why} refuses the call, and every main-loop call until the turn ends, telling the model to stop and wait`, ON, async ($, on) => {
      const w = world(on)
      await $.session.compact(compaction('manual'))
      w.replies.push(reply)
      const refused = await bash($, 'rm -rf build')
      expect(refused.deny).toMatch(said)
      expect(refused.deny).toMatch(/Do not run this or any other tool now\. Stop here.*wait for their next message\./)
      const again = await bash($, 'pnpm build')
      expect(again.deny, 'the rest of the turn is refused too').toBe(refused.deny)
      expect(w.questions, 'without asking again').toHaveLength(1)
      expect(w.ran, 'no tool ran').toEqual([])
      await turnEnds($, 'agent-1')
      expect((await bash($, 'ls')).deny, "a subagent's turn end is not the main loop's").toBe(refused.deny)
      await turnEnds($)
      await bash($, 'ls')
      expect(w.ran, 'the next turn runs its tools').toEqual(['Bash'])
      expect(w.questions).toHaveLength(1)
    })
  }

  test('calls made while the question is open wait for its answer', ON, async ($, on) => {
    const w = world(on)
    await $.session.compact(compaction('manual'))
    w.replies.push('stop and wait')
    const results = await Promise.all([bash($, 'one'), bash($, 'two'), $.tool.call({ tool: 'Read', file_path: '/srv/app/a.ts' })])
    expect(w.questions).toHaveLength(1)
    expect(results.every((r) => typeof r.deny === 'string')).toBe(true)
    expect(w.ran).toEqual([])
  })

  test('each compaction that is not ours asks once', ON, async ($, on) => {
    const w = world(on)
    await $.session.compact(compaction('manual'))
    await bash($, 'one')
    await bash($, 'two')
    await $.session.compact(compaction('auto'))
    await bash($, 'three')
    await bash($, 'four')
    expect(w.questions).toHaveLength(2)
    expect(w.ran).toHaveLength(4)
  })

  test('a tool call with no compaction before it does not ask', ON, async ($, on) => {
    const w = world(on)
    await bash($, 'ls')
    expect(w.questions).toEqual([])
    expect(w.ran).toEqual(['Bash'])
  })

  test("a subagent's tool call neither asks nor takes the question from the main loop", ON, async ($, on) => {
    const w = world(on)
    await $.session.compact(compaction('manual'))
    await bash($, 'ls', 'agent-1')
    expect(w.questions).toEqual([])
    await bash($, 'ls')
    expect(w.questions).toHaveLength(1)
  })

  for (const [why, input] of [
    ['a precompute', compaction('precompute')],
    ["a subagent's manual compaction", compaction('manual', { agentId: 'agent-1' })],
    ["a subagent's automatic compaction", compaction('auto', { agentId: 'agent-1' })],
    ["another plugin's unmarked compaction", { trigger: 'plugin', instructions: 'keep the plan', messages: TRANSCRIPT }],
  ] as const) {
    test(`${why} does not arm the question`, ON, async ($, on) => {
      const w = world(on)
      await $.session.compact({ ...input, messages: [...input.messages] })
      await bash($, 'ls')
      expect(w.questions).toEqual([])
    })
  }

  test('our marked compaction does not arm the question', WITH_SWAP, async ($, on) => {
    const w = world(on)
    const { raisedBy } = timerCompactions(on)
    await partnerWrites($, { run: COMPACTING })
    expect(await raisedBy($, 'compact-handoff', `${MARKER}\nContinue from the handoff.`)).toEqual(answered('Continue from the handoff.'))
    await bash($, 'ls')
    expect(w.questions).toEqual([])
  })

  test('a compact-handoff swap after a /compact takes the question back: the context is the stub, not a summary', WITH_SWAP, async ($, on) => {
    const w = world(on)
    const { raisedBy } = timerCompactions(on)
    await $.session.compact(compaction('manual'))
    await partnerWrites($, { run: COMPACTING })
    expect(await raisedBy($, 'compact-handoff', `${MARKER}\nContinue from the handoff.`), 'the swap is answered as ever').toEqual(answered('Continue from the handoff.'))
    await partnerWrites($, { run: { kind: 'idle' } })
    await bash($, 'ls')
    expect(w.questions).toEqual([])
    await $.session.compact(compaction('auto'))
    await bash($, 'pwd')
    expect(w.questions, 'a later compaction arms it again').toHaveLength(1)
  })

  test('a compaction the engine skipped does not arm the question', ON, async ($, on) => {
    const w = world(on, { skip: 'a PreCompact hook blocked it' })
    expect(await $.session.compact(compaction('manual'))).toEqual({ skip: 'a PreCompact hook blocked it' })
    await bash($, 'ls')
    expect(w.questions).toEqual([])
  })
})

describe('with askAfterCompaction off', () => {
  test('is the default: nothing is asked after a /compact, and tool calls run', async ($, on) => {
    const w = world(on)
    await $.session.compact(compaction('manual'))
    await bash($, 'ls')
    await $.session.compact(compaction('auto'))
    await bash($, 'pwd')
    expect(w.questions).toEqual([])
    expect(w.ran).toEqual(['Bash', 'Bash'])
  })

  test('set to false: nothing is asked', { options: { askAfterCompaction: false } }, async ($, on) => {
    const w = world(on)
    await $.session.compact(compaction('manual'))
    await bash($, 'ls')
    expect(w.questions).toEqual([])
  })
})
