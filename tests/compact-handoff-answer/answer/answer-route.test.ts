// compact-handoff-answer's routing of a compaction and its precompute veto, run
// under Node. The kit tests in the mod cover the wiring and the state reads.
import { describe, expect, test } from 'vitest'
import { MARKER } from '../../../packages/compact-handoff-answer/hooks/partner/marker.js'
import { isSwapToAnswer, precomputeSkipOf, routeOf } from '../../../packages/compact-handoff-answer/hooks/answer/route.js'
import type { RunView } from '../../../packages/compact-handoff-answer/hooks/partner/run-view.js'

/** compact-handoff's run with its compaction in flight: the one moment a marked compaction is its swap. */
const COMPACTING: RunView = { kind: 'swapping', isCompacting: true }
const SENDER = 'compact-handoff'

describe('routeOf', () => {
  test("answers compact-handoff's marked compaction raised while its swap compacts, with its stub", () => {
    expect(routeOf({ trigger: 'plugin', instructions: `${MARKER}\nstub` }, SENDER, COMPACTING)).toEqual({ kind: 'answer', stub: 'stub' })
    expect(routeOf({ instructions: `${MARKER}\nstub` }, SENDER, COMPACTING)).toEqual({ kind: 'answer', stub: 'stub' })
  })

  test('passes a marked compaction raised by anyone else, the engine included, unchanged', () => {
    for (const raisedBy of ['other-mod', 'engine', 'compact-handoff-answer', 'Compact-Handoff', 'compact-handoff@inline', '']) {
      expect(routeOf({ trigger: 'plugin', instructions: `${MARKER}\nstub` }, raisedBy, COMPACTING), raisedBy).toEqual({ kind: 'pass' })
    }
  })

  test("passes compact-handoff's own marked compaction when its run is not compacting", () => {
    const runs: RunView[] = [
      { kind: 'idle' },
      { kind: 'writing' },
      { kind: 'checking' },
      { kind: 'reviewed' },
      { kind: 'swapping', isCompacting: false },
      { kind: 'swapping' },
      { kind: 'launching', isCompacting: true },
    ]
    for (const run of runs) expect(routeOf({ trigger: 'plugin', instructions: `${MARKER}\nstub` }, SENDER, run), JSON.stringify(run)).toEqual({ kind: 'pass' })
  })

  test("routes the main loop's precompute to the veto, and passes its manual and automatic compactions to compact-handoff's handling, whoever raised them", () => {
    for (const raisedBy of ['engine', SENDER]) {
      expect(routeOf({ trigger: 'precompute' }, raisedBy, COMPACTING)).toEqual({ kind: 'precompute' })
      expect(routeOf({ trigger: 'manual', instructions: 'be brief' }, raisedBy, { kind: 'idle' })).toEqual({ kind: 'pass' })
      expect(routeOf({ trigger: 'auto' }, raisedBy, { kind: 'idle' })).toEqual({ kind: 'pass' })
    }
  })

  test('a marked /compact is the person\'s own: passed, never answered', () => {
    expect(routeOf({ trigger: 'manual', instructions: `${MARKER}\nstub` }, 'engine', COMPACTING)).toEqual({ kind: 'pass' })
  })

  test('passes every subagent compaction, whatever its trigger', () => {
    for (const trigger of ['precompute', 'manual', 'auto', 'plugin', undefined]) {
      expect(routeOf({ trigger, agentId: 'agent-1', instructions: `${MARKER}\nstub` }, SENDER, COMPACTING), String(trigger)).toEqual({ kind: 'pass' })
    }
  })

  test("passes another plugin's unmarked compaction and triggers this build does not know", () => {
    expect(routeOf({ trigger: 'plugin', instructions: 'keep the plan' }, 'other-mod', COMPACTING)).toEqual({ kind: 'pass' })
    expect(routeOf({}, SENDER, COMPACTING)).toEqual({ kind: 'pass' })
    expect(routeOf({ trigger: 'scheduled' }, SENDER, COMPACTING)).toEqual({ kind: 'pass' })
  })
})

describe('isSwapToAnswer', () => {
  test('holds only for compact-handoff, swapping, with its compaction in flight', () => {
    expect(isSwapToAnswer(SENDER, COMPACTING)).toBe(true)
    expect(isSwapToAnswer('other-mod', COMPACTING)).toBe(false)
    expect(isSwapToAnswer(SENDER, { kind: 'swapping', isCompacting: false })).toBe(false)
    expect(isSwapToAnswer(SENDER, { kind: 'idle' })).toBe(false)
  })
})

describe('precomputeSkipOf', () => {
  test('lets a precompute run while no handoff run is under way', () => {
    expect(precomputeSkipOf({ kind: 'idle' })).toBeUndefined()
  })

  test('vetoes it for every other kind, one added later included, naming the kind', () => {
    for (const kind of ['launching', 'writing', 'checking', 'reviewed', 'swapping', 'a-kind-added-later']) {
      expect(precomputeSkipOf({ kind }), kind).toContain(kind)
    }
  })
})
