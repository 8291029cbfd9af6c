// The opt-in auto handoff: after a main-loop answer at or above the option's
// percent, the same run /compact-handoff starts, once per context window.
import { describe, expect, type Engine } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { swapLogEntries, world, type World } from '../support/world.js'
import { endTurn, typeCommand } from '../support/engine-calls.js'
import { startSession } from '../support/flow.js'

const AUTO_80 = { options: { autoHandoffPercent: 80 } }

/** An ordinary main-loop turn ending, as the engine raises it. */
async function turnEnds($: Engine, w: World, reason: 'answer' | 'aborted' = 'answer') {
  await endTurn($, 'an ordinary answer', reason, undefined, `t-${Math.random()}`)
  await w.clock.settle()
  await w.clock.advance(100)
  await w.clock.settle()
}

describe('the auto handoff', () => {
  test('starts a handoff run, without a focus, after an answer at the threshold, and says how to cancel', AUTO_80, async ($, on) => {
    const w = world(on, { contextPercent: 80 })
    await startSession($)
    await turnEnds($, w)
    expect(w.seen.commandRuns.map((r) => r.command)).toEqual(['compact-handoff-skills:handoff'])
    expect(w.seen.toasts).toEqual(['context at 80%: a handoff started on its own. /compact-handoff cancel stops it'])
    expect((await typeCommand($, 'compact-handoff', 'status')).text).toContain('auto handoff at 80%')
  })

  test('stays off below the threshold, after an interrupted turn, and while a subagent runs', AUTO_80, async ($, on) => {
    const w = world(on, { contextPercent: 79, agentStatuses: ['completed'] })
    await startSession($)
    await turnEnds($, w)
    w.setContextPercent(95)
    await turnEnds($, w, 'aborted')
    expect(w.seen.commandRuns).toEqual([])
  })

  test('waits while a subagent is still running', AUTO_80, async ($, on) => {
    const w = world(on, { contextPercent: 95, agentStatuses: ['running'] })
    await startSession($)
    await turnEnds($, w)
    expect(w.seen.commandRuns).toEqual([])
  })

  test('is off at 0, the default, and the nudge still speaks', async ($, on) => {
    const w = world(on, { contextPercent: 97 })
    await startSession($)
    await turnEnds($, w)
    expect(w.seen.commandRuns).toEqual([])
    expect(w.seen.toasts).toEqual(['context at 97%. /compact-handoff is recommended.'])
  })

  test('runs once per context window: a cancelled run is not retried until a compaction', AUTO_80, async ($, on) => {
    const w = world(on, { contextPercent: 85 })
    await startSession($)
    await turnEnds($, w)
    expect((await typeCommand($, 'compact-handoff', 'cancel')).text).toMatch(/^Handoff run cancelled/)
    // Its log line names the auto handoff by its own word, not the engine's `auto`.
    expect(swapLogEntries(w).at(-1)).toMatchObject({ trigger: 'auto-handoff', outcome: 'aborted' })
    await turnEnds($, w)
    expect(w.seen.commandRuns.length, 'not again in this window').toBe(1)
    await $.session.compact({ trigger: 'manual', messages: [{ role: 'user', text: 'the conversation so far', toolUses: [] }] })
    await turnEnds($, w)
    expect(w.seen.commandRuns.length, 'a new window, a new auto handoff').toBe(2)
  })

  test('leaves the nudge out when its threshold is at or below the nudge', { options: { autoHandoffPercent: 60 } }, async ($, on) => {
    const w = world(on, { contextPercent: 75 })
    await startSession($)
    await turnEnds($, w)
    await typeCommand($, 'compact-handoff', 'cancel')
    await turnEnds($, w)
    expect(w.seen.toasts.filter((t) => t.includes('is recommended')), 'no nudge beside the auto handoff').toEqual([])
  })

  test('leaves the nudge on when its threshold is above the nudge', AUTO_80, async ($, on) => {
    const w = world(on, { contextPercent: 75 })
    await startSession($)
    await turnEnds($, w)
    expect(w.seen.toasts).toEqual(['context at 75%. /compact-handoff is recommended.'])
    expect(w.seen.commandRuns).toEqual([])
  })
})
