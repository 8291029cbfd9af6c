// What compact-handoff-answer restates of compact-handoff: the marker it looks
// for, and the run it reads (the phase that says a swap's compaction is in
// flight). Mods cannot import each other's files, so each keeps its own copy;
// these tests keep the copies equal. The state key the two name is held by
// answer-stand-in.test.ts.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { MARKER as SENT } from '../../packages/compact-handoff/hooks/protocol/protocol.js'
import { IDLE, type Phase } from '../../packages/compact-handoff/hooks/run/run.js'
import { MARKER as ANSWERED } from '../../packages/compact-handoff-answer/hooks/partner/marker.js'
import { isSwapToAnswer, precomputeSkipOf, SENDER_PLUGIN } from '../../packages/compact-handoff-answer/hooks/answer/route.js'
import { runFixture } from '../support/run-fixture.js'

test('the answer mod looks for the marker compact-handoff sends', () => {
  expect(ANSWERED, 'a mismatch sends every handoff compaction to the summariser').toBe(SENT)
})

test('the marker can stand alone on a line', () => {
  expect(SENT, 'the answer mod reads it as the whole first line').toMatch(/^\S+$/)
})

describe("the answer mod's view of compact-handoff's run", () => {
  const run = runFixture()
  const swap = { handoff: 'plans/handoffs/HANDOFF_a_2026-11-29.md', continuePrompt: 'go on', refusals: 0 }
  const chosen = { handoff: { kind: 'handoff' as const, relPath: swap.handoff }, continuePrompt: 'go on', notices: [] }
  // Typed as compact-handoff's Phase: a renamed kind or field fails the type-check here.
  const phases: Phase[] = [
    { kind: 'launching', run, sinceMs: 0 },
    { kind: 'writing', run, sinceMs: 0 },
    { kind: 'checking', run, sinceMs: 0, chosen },
    { kind: 'reviewed', run, sinceMs: 0, swap },
    { kind: 'swapping', run, sinceMs: 0, swap, isCompacting: false },
  ]
  const compacting: Phase = { kind: 'swapping', run, sinceMs: 0, swap, isCompacting: true }

  test("answers compact-handoff's swap only while its compaction is in flight", () => {
    expect(isSwapToAnswer(SENDER_PLUGIN, compacting)).toBe(true)
    for (const phase of [IDLE, ...phases]) expect(isSwapToAnswer(SENDER_PLUGIN, phase), phase.kind).toBe(false)
  })

  test('vetoes a precompute in every phase of a run, and in none while idle', () => {
    expect(precomputeSkipOf(IDLE)).toBeUndefined()
    for (const phase of [...phases, compacting]) expect(precomputeSkipOf(phase), phase.kind).toBeDefined()
  })

  test('names the sender as the host names compact-handoff', () => {
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '../../packages/compact-handoff/.claude-plugin/plugin.json'), 'utf8')) as { name: string }
    expect(SENDER_PLUGIN).toBe(manifest.name)
  })
})
