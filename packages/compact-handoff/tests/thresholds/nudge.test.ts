import { describe, expect } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { world } from '../support/world.js'
import { endTurn } from '../support/engine-calls.js'
import { startSession } from '../support/flow.js'

const TRANSCRIPT = [{ role: 'user' as const, text: 'hello', toolUses: [] }]
const NUDGE = (n: number) => `context at ${n}%. /compact-handoff is recommended.`

describe('the context nudge', () => {
  test('fires once per context window and re-arms after a compaction', async ($, on) => {
    const w = world(on, { contextPercent: 72 })
    await startSession($)
    await endTurn($, 'one')
    await endTurn($, 'two')
    expect(w.seen.toasts).toEqual([NUDGE(72)])
    await $.session.compact({ trigger: 'manual', messages: TRANSCRIPT })
    w.setContextPercent(75)
    await endTurn($, 'three')
    expect(w.seen.toasts).toEqual([NUDGE(72), NUDGE(75)])
  })

  test('stays quiet below the threshold and when the percent is unknown', async ($, on) => {
    const w = world(on, { contextPercent: 69 })
    await startSession($)
    await endTurn($, 'one')
    w.setContextPercent(undefined)
    await endTurn($, 'two')
    expect(w.seen.toasts).toEqual([])
  })

  test('ignores subagent turns', async ($, on) => {
    const w = world(on, { contextPercent: 90 })
    await startSession($)
    await endTurn($, 'sub', 'answer', 'agent-1')
    expect(w.seen.toasts).toEqual([])
  })

  test('is not re-armed by a subagent compaction or a precompute', async ($, on) => {
    const w = world(on, { contextPercent: 80 })
    await startSession($)
    await endTurn($, 'one')
    await $.session.compact({ trigger: 'auto', agentId: 'agent-1', messages: TRANSCRIPT })
    await $.session.compact({ trigger: 'precompute', messages: TRANSCRIPT })
    await endTurn($, 'two')
    expect(w.seen.toasts).toEqual([NUDGE(80)])
  })

  test('uses the threshold from the plugin options', { options: { nudgePercent: 50 } }, async ($, on) => {
    const w = world(on, { contextPercent: 55 })
    await startSession($)
    await endTurn($, 'one')
    expect(w.seen.toasts).toEqual([NUDGE(55)])
  })
})
