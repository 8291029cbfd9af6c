/**
 * The status line in a real session, model scripted: with no run under way it shows the
 * context's use as a hint from ten points below nudgePercent (70 by default) and as urgent
 * from it on, read from the screen; the nudge's toast comes as before; a swap starts a new
 * window and the line is gone.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { skillTurn, isSkillTurnFor } from '../harness/handoff-script.js'
import { trackRuns } from './lifecycle.js'
import { ordinaryTurn, pollUntil, requestAfter, startFlow, turnSettled, type Flow } from './flow-support.js'

// The default model's window is 1,000,000 tokens: 620,000 reported tokens read back as 62%.
const WINDOW_TOKENS = 1_000_000
const HINT_RE = /handoff: context 62%(?! ·)/
const URGENT_RE = /handoff: context 72% · time for \/compact-handoff/
const ANY_FIGURE_RE = /handoff: context \d+%/

describe('the status line', () => {
  const { track } = trackRuns()
  let flow: Flow

  beforeAll(async () => {
    flow = await startFlow('status-line', track)
  })

  it('shows the hint, then urgent beside the nudge, and is cleared by a swap', async () => {
    const { mock, session, run } = flow
    const t0 = Date.now()
    await ordinaryTurn(flow, 'LOW', { inputTokens: Math.round(0.3 * WINDOW_TOKENS) })
    expect(session.screen(), 'no line below the hint').not.toMatch(ANY_FIGURE_RE)

    await ordinaryTurn(flow, 'HINT', { inputTokens: Math.round(0.62 * WINDOW_TOKENS) })
    await session.waitForScreen(HINT_RE, 15_000)
    expect(session.toasts().filter((t) => /context at/.test(t.text)), 'no nudge at the hint').toEqual([])

    const mark = session.logMark()
    await ordinaryTurn(flow, 'URGENT', { inputTokens: Math.round(0.72 * WINDOW_TOKENS) })
    const screen = await session.waitForScreen(URGENT_RE, 15_000)
    console.log(`e2e status line: drawn as "${screen.split('\n').find((l) => URGENT_RE.test(l))?.trim()}"`)
    const toast = await session.waitForToast(/context at \d+%/, { mod: 'compact-handoff', since: mark, timeoutMs: 20_000 })
    expect(toast.text, 'the nudge unchanged').toBe('context at 72%. /compact-handoff is recommended.')

    const turn = skillTurn({ proj: run.proj, doc: { slug: 'status-line-swap' } })
    mock.script(...turn.replies)
    const before = mock.requests.length
    await session.type('/compact-handoff status line')
    const skillRequest = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'status line'), 30_000)
    await session.waitForScreen(/handoff: (?!context)/, 15_000)
    const next = await requestAfter(mock, skillRequest.seq, turn.continuePrompt)
    const afterSwap = session.logMark()
    await session.waitForScreen(/OK \(mock default reply\)/, 30_000)
    await turnSettled(session, afterSwap)
    // Polled a while: a line drawn late (the old figure once the stage is gone) would show here.
    const drawn = await pollUntil('a figure after the swap', 2_000, () => (ANY_FIGURE_RE.test(session.screen()) ? session.screen() : undefined)).catch(() => undefined)
    expect(drawn, 'no figure in the new window').toBeUndefined()
    expect(next.kind).toBe('main')
    console.log(`e2e status line: ${Date.now() - t0} ms`)
  })

  // /clear empties the conversation and starts the session's state over, with no
  // session.start: whether the engine takes a plugin's status line away with it is seen here.
  it('/clear leaves no figure from the conversation it cleared', async () => {
    const { session } = flow
    await ordinaryTurn(flow, 'BEFORE-CLEAR', { inputTokens: Math.round(0.72 * WINDOW_TOKENS) })
    await session.waitForScreen(URGENT_RE, 15_000)
    await session.type('/clear')
    // Typed, the command opens the `/` menu over the conversation: cleared means the turn's prompt is gone too.
    await pollUntil('the conversation to clear', 15_000, () => (/BEFORE-CLEAR/.test(session.screen()) ? undefined : true))
    const drawn = await pollUntil('a figure after /clear', 2_000, () => (ANY_FIGURE_RE.test(session.screen()) ? session.screen() : undefined)).catch(() => undefined)
    expect(drawn, 'no figure after /clear').toBeUndefined()
  })
})
