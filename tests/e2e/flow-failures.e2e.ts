/**
 * Every way a handoff run can fail leaves the conversation as it was: a later typed
 * prompt's request still holds the earlier turns, no summariser request is made, and the
 * person is told why (a toast that the run stopped and the conversation is unchanged, and `<why>. Context unchanged.` as a transcript line, or the cancel's own
 * command output). A second run while one is under way is refused.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { failedSkillTurn, handoffFileText, skillTurn, isSkillTurnFor } from '../harness/handoff-script.js'
import { trackRuns } from './lifecycle.js'
import { HANDOFF_MOD, expectConversationKept, ordinaryTurn, requestAfter, startFlow, turnSettled, type Flow } from './flow-support.js'

/** Long enough to type a command or press Escape while the skill's reply is held. */
const SLOW_MS = 5_000

describe('compact-handoff failure paths leave the context unchanged', () => {
  const { track } = trackRuns()
  let flow: Flow
  const kept = ['GAMMA-ONE']

  beforeAll(async () => {
    flow = await startFlow('flow-failures', track)
    await ordinaryTurn(flow, 'GAMMA-ONE')
  })

  /** Types the command, waits for the skill's request, and returns its seq. */
  async function startRun(focus: string, command = '/compact-handoff'): Promise<number> {
    const before = flow.mock.requests.length
    await flow.session.type(`${command} ${focus}`)
    const request = await flow.mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, focus), 30_000)
    return request.seq
  }

  async function expectAbortToast(why: RegExp, since: number): Promise<void> {
    await flow.session.waitForToast(/^handoff run stopped; the conversation is unchanged$/, { mod: 'compact-handoff', since, timeoutMs: 30_000 })
    const detail = await flow.session.waitForTranscriptLine(why, { plugin: 'compact-handoff', since, timeoutMs: 30_000 })
    expect(detail.text).toMatch(/^(?!compact-handoff:).*\. Context unchanged\.$/)
  }

  it('(a) the skill ends with COMPACT-HANDOFF-FAILED', async () => {
    const t0 = Date.now()
    const mark = flow.session.logMark()
    flow.mock.script(failedSkillTurn('nothing worth handing off yet'))
    await startRun('a-focus')
    await expectAbortToast(/the handoff skill reported failure: nothing worth handing off yet/, mark)
    await expectConversationKept(flow, 'PROBE-A', kept, mark)
    kept.push('PROBE-A')
    console.log(`e2e failures: (a) ${Date.now() - t0} ms`)
  })

  it('(b) the skill names a file it never wrote', async () => {
    const t0 = Date.now()
    const mark = flow.session.logMark()
    const turn = skillTurn({ proj: flow.run.proj, doc: { slug: 'never-written' }, skipHandoffWrite: true })
    flow.mock.script(...turn.replies)
    await startRun('b-focus')
    // The mod asks twice for the file to be written; the scripted model never does.
    await expectAbortToast(new RegExp(`after 2 repair turns .*${turn.handoffPath.replace(/[.]/g, '\\.')}: does not exist`), mark)
    await expectConversationKept(flow, 'PROBE-B', kept, mark)
    kept.push('PROBE-B')
    console.log(`e2e failures: (b) ${Date.now() - t0} ms`)
  })

  it('(c) the handoff lacks required sections', async () => {
    const t0 = Date.now()
    const mark = flow.session.logMark()
    const doc = { slug: 'no-next-step' }
    const turn = skillTurn({ proj: flow.run.proj, doc, handoffText: handoffFileText(doc, { omit: ['Next step', 'Verify'] }) })
    flow.mock.script(...turn.replies)
    await startRun('c-focus')
    // The repair notices name the section too; the abort's own line is the one after the repairs.
    await expectAbortToast(/^after 2 repair turns .*missing section "## Next step"/, mark)
    await expectConversationKept(flow, 'PROBE-C', kept, mark)
    kept.push('PROBE-C')
    console.log(`e2e failures: (c) ${Date.now() - t0} ms`)
  })

  it('(d) /compact-handoff cancel while the skill turn runs', async () => {
    const t0 = Date.now()
    const start = flow.session.logMark()
    const turn = skillTurn({ proj: flow.run.proj, doc: { slug: 'cancelled-run' } })
    turn.replies[0] = { ...turn.replies[0], delayMs: SLOW_MS }
    flow.mock.script(...turn.replies)
    await startRun('d-focus')
    const mark = flow.session.logMark()
    await flow.session.type('/compact-handoff cancel')
    await flow.session.waitForScreen(/Handoff run cancelled\. The conversation is unchanged\./, 30_000)
    // The held reply then completes the skill's turn with a READY sentinel: it must not swap.
    await flow.session.waitForScreen(/COMPACT-HANDOFF-READY/, 30_000)
    await turnSettled(flow.session, mark)
    await expectConversationKept(flow, 'PROBE-D', kept, start)
    kept.push('PROBE-D')
    expect(flow.session.toasts(mark).filter((t) => t.mod === 'compact-handoff')).toEqual([])
    console.log(`e2e failures: (d) ${Date.now() - t0} ms`)
  })

  it('(e) Escape interrupts the skill turn', async () => {
    const t0 = Date.now()
    const start = flow.session.logMark()
    const turn = skillTurn({ proj: flow.run.proj, doc: { slug: 'interrupted-run' } })
    turn.replies[0] = { ...turn.replies[0], delayMs: 30_000 }
    flow.mock.script(...turn.replies)
    await startRun('e-focus')
    const mark = flow.session.logMark()
    flow.session.pressKeys('Escape')
    await expectAbortToast(/the handoff turn was interrupted/, mark)
    await expectConversationKept(flow, 'PROBE-E', kept, start)
    kept.push('PROBE-E')
    console.log(`e2e failures: (e) ${Date.now() - t0} ms`)
  })

  it('a second /compact-handoff while one is under way is refused', async () => {
    const t0 = Date.now()
    const turn = skillTurn({ proj: flow.run.proj, doc: { slug: 'second-run' } })
    turn.replies[0] = { ...turn.replies[0], delayMs: SLOW_MS }
    flow.mock.script(...turn.replies)
    const skillSeq = await startRun('first-run')
    await flow.session.type('/compact-handoff second-run')
    await flow.session.waitForScreen(/A handoff run is already under way .*\n?.*\/compact-handoff cancel/, 30_000)
    // The first run goes on to its swap; the refused one started no skill turn.
    await requestAfter(flow.mock, skillSeq, turn.continuePrompt, 40_000)
    expect(flow.mock.requests.some((r) => isSkillTurnFor(r.lastUserText, 'second-run'))).toBe(false)
    expect(flow.session.debugLog()).toContain(`hooks module ${HANDOFF_MOD}`)
    console.log(`e2e failures: second run refused ${Date.now() - t0} ms`)
  })
})
