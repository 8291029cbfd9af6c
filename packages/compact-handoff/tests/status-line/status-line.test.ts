// The status line's one owner, through the engine's events: a run's stage
// first; with no run, the context's use from the nudge's turn-end usage read,
// a hint from ten points below nudgePercent and urgent from it on; cleared
// when a swap or a compaction starts a new window; drawn only when it changes.
import { describe, expect } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { HANDOFF, world } from '../support/world.js'
import { ANSWER_STAND_IN } from '../support/answer-stand-in.js'
import { endTurn, typeCommand } from '../support/engine-calls.js'
import { readyAnswer } from '../support/texts.js'
import { skillWritesHandoff, startSession, typeAndLaunch } from '../support/flow.js'

const TRANSCRIPT = [{ role: 'user' as const, text: 'hello', toolUses: [] }]
const HINT = (n: number) => `handoff: context ${n}%`
const URGENT = (n: number) => `handoff: context ${n}% · time for /compact-handoff`
const NUDGE = (n: number) => `context at ${n}%. /compact-handoff is recommended.`
const WRITING = /^handoff: (?!context)/

describe('the status line with no run under way', () => {
  test('is quiet below ten points under the nudge, a hint from there, urgent from the nudge on', async ($, on) => {
    const w = world(on, { contextPercent: 59.4 })
    await startSession($)
    await endTurn($, 'one')
    expect(w.seen.statusLines, 'no line below the hint').toEqual([])
    w.setContextPercent(60)
    await endTurn($, 'two')
    expect(w.seen.statusLines).toEqual([HINT(60)])
    w.setContextPercent(69.6)
    await endTurn($, 'three')
    expect(w.seen.statusLines.at(-1), 'still a hint: the level is measured unrounded, as the nudge measures it').toBe(HINT(70))
    expect(w.seen.toasts, 'no toast below the nudge').toEqual([])
    w.setContextPercent(70)
    await endTurn($, 'four')
    expect(w.seen.statusLines.at(-1)).toBe(URGENT(70))
    expect(w.seen.toasts, 'the nudge, as before').toEqual([NUDGE(70)])
  })

  test('draws nothing again when the text is unchanged', async ($, on) => {
    const w = world(on, { contextPercent: 62 })
    await startSession($)
    await endTurn($, 'one')
    await endTurn($, 'two')
    w.setContextPercent(62.3)
    await endTurn($, 'three')
    expect(w.seen.statusLines).toEqual([HINT(62)])
  })

  test('says the context is full after turns that told no figure, and lets it go at the next answered turn below the hint', async ($, on) => {
    const w = world(on, { contextPercent: 30 })
    await startSession($)
    await endTurn($, 'one')
    await endTurn($, 'two')
    await $.classic.StopFailure({ error: 'invalid_request', error_details: 'prompt is too long: 210000 tokens > 200000 maximum' })
    expect(w.seen.statusLines).toEqual(['handoff: context full · /compact to go on'])
    await endTurn($, 'failed', 'error')
    expect(w.seen.statusLines.at(-1), 'full until a turn is answered').toBe('handoff: context full · /compact to go on')
    await endTurn($, 'three')
    expect(w.seen.statusLines, 'answered at 30%: no figure').toEqual(['handoff: context full · /compact to go on', undefined])
  })

  test('follows the nudgePercent option', { options: { nudgePercent: 50 } }, async ($, on) => {
    const w = world(on, { contextPercent: 40 })
    await startSession($)
    await endTurn($, 'one')
    w.setContextPercent(55)
    await endTurn($, 'two')
    expect(w.seen.statusLines).toEqual([HINT(40), URGENT(55)])
    expect(w.seen.toasts).toEqual([NUDGE(55)])
  })

  test('is cleared by a compaction, and stays clear while the new window has no percent', async ($, on) => {
    const w = world(on, { contextPercent: 72 })
    await startSession($)
    await endTurn($, 'one')
    expect(w.seen.statusLines).toEqual([URGENT(72)])
    await $.session.compact({ trigger: 'manual', messages: TRANSCRIPT })
    expect(w.seen.statusLines.at(-1), 'a new window').toBeUndefined()
    w.setContextPercent(undefined)
    await endTurn($, 'two')
    expect(w.seen.statusLines).toEqual([URGENT(72), undefined])
    w.setContextPercent(64)
    await endTurn($, 'three')
    expect(w.seen.statusLines.at(-1)).toBe(HINT(64))
  })

  for (const reason of ['clear', 'resume'] as const) {
    test(`is cleared when the session ends for ${reason}: the process goes on with another conversation, and the engine keeps the line`, async ($, on) => {
      const w = world(on, { contextPercent: 72 })
      await startSession($)
      await endTurn($, 'one')
      await $.session.end({ reason, sessionId: 'session-1', resume: { id: 'session-1' } })
      expect(w.seen.statusLines).toEqual([URGENT(72), undefined])
    })
  }

  test('is not cleared by a subagent compaction or a precompute, nor moved by a subagent turn', async ($, on) => {
    const w = world(on, { contextPercent: 65 })
    await startSession($)
    await endTurn($, 'one')
    await $.session.compact({ trigger: 'auto', agentId: 'agent-1', messages: TRANSCRIPT })
    await $.session.compact({ trigger: 'precompute', messages: TRANSCRIPT })
    w.setContextPercent(90)
    await endTurn($, 'sub', 'answer', 'agent-1')
    expect(w.seen.statusLines).toEqual([HINT(65)])
  })

  test('shows the figure beside an auto handoff that supersedes the nudge, with no nudge toast', { options: { autoHandoffPercent: 60 } }, async ($, on) => {
    const w = world(on, { contextPercent: 75 })
    await startSession($)
    await endTurn($, 'one')
    expect(w.seen.statusLines.at(-1), 'the auto handoff is under way: its stage').toMatch(WRITING)
    expect(w.seen.statusLines.filter((t) => t?.includes('context')), 'the figure told beneath the stage draws nothing').toEqual([])
    await typeCommand($, 'compact-handoff', 'cancel')
    expect(w.seen.statusLines.at(-1), 'the run gone, the figure comes back').toBe(URGENT(75))
    await endTurn($, 'two')
    expect(w.seen.toasts.filter((t) => t.includes('is recommended')), 'no nudge beside the auto handoff').toEqual([])
  })
})

describe('the status line beside a run', () => {
  test("shows the run's stage over the figure, the figure again after a cancel", async ($, on) => {
    const w = world(on, { contextPercent: 66 })
    await startSession($)
    await endTurn($, 'one')
    await typeAndLaunch($, w, 'compact-handoff', '')
    expect(w.seen.statusLines.at(-1)).toMatch(WRITING)
    await typeCommand($, 'compact-handoff', 'cancel')
    expect(w.seen.statusLines.at(-1)).toBe(HINT(66))
  })

  test('is cleared by the swap: the old figure is never drawn after the stage', { plugins: [ANSWER_STAND_IN] }, async ($, on) => {
    const w = world(on, { contextPercent: 72 })
    await startSession($)
    await endTurn($, 'one')
    expect(w.seen.statusLines).toEqual([URGENT(72)])
    await typeAndLaunch($, w, 'compact-handoff', '')
    const sinceRun = w.seen.statusLines.length
    await skillWritesHandoff($, w, readyAnswer([HANDOFF], 'Read the handoff and go on.'))
    expect(w.seen.submits.at(-1), 'swapped').toEqual({ text: 'Read the handoff and go on.', asUser: true })
    const afterRun = w.seen.statusLines.slice(sinceRun)
    expect(afterRun.at(-1), 'cleared').toBeUndefined()
    expect(afterRun.filter((s) => s !== undefined && !WRITING.test(s)), 'no figure once the run began').toEqual([])
  })
})
