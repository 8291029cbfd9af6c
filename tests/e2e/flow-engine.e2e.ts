/**
 * The engine's side of the flow: without compact-handoff-answer the engine's summariser
 * answers the compaction and the person is told; and the context-use nudge fires once
 * per window when a turn reports 72% of it.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { skillTurn, isSkillTurnFor } from '../harness/handoff-script.js'
import { trackRuns } from './lifecycle.js'
import { ordinaryTurn, requestAfter, startFlow, turnSettled, type Flow } from './flow-support.js'

describe('without compact-handoff-answer', () => {
  const { track } = trackRuns()
  let flow: Flow

  beforeAll(async () => {
    flow = await startFlow('flow-no-answer', track, { withAnswer: false })
  })

  it('the engine summarizes instead, and the person is told', async () => {
    const { mock, session, run } = flow
    const t0 = Date.now()
    await ordinaryTurn(flow, 'DELTA-ONE')
    const turn = skillTurn({ proj: run.proj, doc: { slug: 'no-answer-mod' } })
    mock.script(...turn.replies)
    const mark = session.logMark()
    const before = mock.requests.length
    await session.type('/compact-handoff no answer mod')
    const skillRequest = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'no answer mod'), 30_000)
    const summary = await mock.waitForRequest((r) => r.seq > skillRequest.seq && r.kind === 'summary', 30_000)
    expect(summary.lastUserText).toContain('compact-handoff:v1')
    const toast = await session.waitForToast(/engine summarized/, { mod: 'compact-handoff', since: mark, timeoutMs: 30_000 })
    expect(toast.text).toMatch(/compact-handoff-answer did not answer/)
    const next = await requestAfter(mock, summary.seq, turn.continuePrompt)
    expect(next.kind).toBe('main')
    console.log(`e2e no-answer: run with engine summary ${Date.now() - t0} ms`)
  })
})

describe('the context nudge', () => {
  const { track } = trackRuns()
  let flow: Flow

  beforeAll(async () => {
    flow = await startFlow('flow-nudge', track)
  })

  it('recommends /compact-handoff once when a turn reaches 72% of the window', async () => {
    const { session } = flow
    const t0 = Date.now()
    // The default model's window is 1,000,000 tokens: 720,000 reported tokens read back as 72%.
    const window = 1_000_000
    const mark = session.logMark()
    await ordinaryTurn(flow, 'NUDGE-ONE', { inputTokens: Math.round(0.72 * window) })
    const toast = await session.waitForToast(/context at \d+%/, { mod: 'compact-handoff', since: mark, timeoutMs: 20_000 })
    expect(toast.text).toBe('context at 72%. /compact-handoff is recommended.')

    const mark2 = session.logMark()
    await ordinaryTurn(flow, 'NUDGE-TWO', { inputTokens: Math.round(0.74 * window) })
    await turnSettled(session, mark2)
    expect(session.toasts(mark2).filter((t) => /context at/.test(t.text)), 'no second nudge in the same window').toEqual([])
    expect(session.toasts(mark).filter((t) => /context at/.test(t.text))).toHaveLength(1)
    console.log(`e2e nudge: ${Date.now() - t0} ms`)
  })
})
