// compact-handoff-answer's routing of a compaction and its precompute veto, run
// under Node. The kit tests in the mod cover the wiring and the state reads.
import { describe, expect, test } from 'vitest'
import { MARKER } from '../../packages/compact-handoff-answer/hooks/marker.js'
import { precomputeSkipOf, routeOf } from '../../packages/compact-handoff-answer/hooks/route.js'

describe('routeOf', () => {
  test('answers our marked compaction with its stub, whatever else holds', () => {
    expect(routeOf({ trigger: 'plugin', instructions: `${MARKER}\nstub` })).toEqual({ kind: 'answer', stub: 'stub' })
    expect(routeOf({ instructions: `${MARKER}\nstub` })).toEqual({ kind: 'answer', stub: 'stub' })
  })

  test("routes the main loop's precompute, manual and automatic compactions", () => {
    expect(routeOf({ trigger: 'precompute' })).toEqual({ kind: 'precompute' })
    expect(routeOf({ trigger: 'manual', instructions: 'be brief' })).toEqual({ kind: 'summary' })
    expect(routeOf({ trigger: 'auto' })).toEqual({ kind: 'summary' })
  })

  test('passes every subagent compaction, whatever its trigger', () => {
    for (const trigger of ['precompute', 'manual', 'auto', 'plugin', undefined]) {
      expect(routeOf({ trigger, agentId: 'agent-1', instructions: `${MARKER}\nstub` }), String(trigger)).toEqual({ kind: 'pass' })
    }
  })

  test("passes another plugin's unmarked compaction and triggers this build does not know", () => {
    expect(routeOf({ trigger: 'plugin', instructions: 'keep the plan' })).toEqual({ kind: 'pass' })
    expect(routeOf({})).toEqual({ kind: 'pass' })
    expect(routeOf({ trigger: 'scheduled' })).toEqual({ kind: 'pass' })
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
