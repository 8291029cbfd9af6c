/**
 * The compact-handoff flow in a real session, model scripted: /compact-handoff and
 * /compact-handoffplan write a handoff (and a plan) through the skill's turn, the files
 * are checked, and the conversation is replaced by the stub plus the continue-prompt,
 * with no summariser request.
 */
import { existsSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { skillTurn, isSkillTurnFor } from '../harness/handoff-script.js'
import { trackRuns } from './lifecycle.js'
import { expectSwapped, expectTurnsGone, ordinaryTurn, requestAfter, startFlow, type Flow } from './flow-support.js'

describe('compact-handoff replaces the conversation with a handoff', () => {
  const { track } = trackRuns()
  let flow: Flow

  beforeAll(async () => {
    flow = await startFlow('flow', track)
  })

  it('/compact-handoff <focus>: handoff written, stub and continue-prompt replace the turns', async () => {
    const { mock, session, run } = flow
    const t0 = Date.now()
    await ordinaryTurn(flow, 'ALPHA-ONE')
    await ordinaryTurn(flow, 'ALPHA-TWO')
    const turn = skillTurn({ proj: run.proj, doc: { slug: 'parser-finish', focus: 'finish the parser' } })
    mock.script(...turn.replies)
    const before = mock.requests.length
    await session.type('/compact-handoff finish the parser')
    const skillRequest = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'finish the parser'), 30_000)
    expect(skillRequest.kind).toBe('main')
    const next = await requestAfter(mock, skillRequest.seq, turn.continuePrompt)
    console.log(`e2e flow: handoff run ${Date.now() - t0} ms`)

    expect(mock.requests.some((r) => r.kind === 'summary'), 'no summariser request').toBe(false)
    expectSwapped(next, turn.continuePrompt, [`Handoff file: ${turn.handoffPath}`])
    expectTurnsGone(next, ['ALPHA-ONE', 'ALPHA-TWO'], ['compact-mode', 'Base directory for this skill', turn.finalText.split('\n')[0]!])
    expect(existsSync(turn.handoffFile), 'the handoff is on disk').toBe(true)
    await session.waitForScreen(/OK \(mock default reply\)/, 30_000)
  })

  it('/compact-handoffplan: handoff and plan named in the stub, Phase 1 prompt sent next', async () => {
    const { mock, session, run } = flow
    const t0 = Date.now()
    await ordinaryTurn(flow, 'BETA-ONE')
    const turn = skillTurn({
      proj: run.proj,
      mode: 'plan',
      doc: { slug: 'parser-plan', focus: 'parser plan' },
      continuePrompt: 'Start Phase 1 of the parser plan: add error recovery to src/parser.ts.',
    })
    mock.script(...turn.replies)
    const before = mock.requests.length
    await session.type('/compact-handoffplan parser plan')
    const skillRequest = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'parser plan'), 30_000)
    const next = await requestAfter(mock, skillRequest.seq, turn.continuePrompt)
    console.log(`e2e flow: plan run ${Date.now() - t0} ms`)

    expect(mock.requests.some((r) => r.kind === 'summary'), 'no summariser request').toBe(false)
    expectSwapped(next, turn.continuePrompt, [`Handoff file: ${turn.handoffPath}`, `Plan file: ${turn.planPath}`])
    expectTurnsGone(next, ['BETA-ONE'], ['compact-mode'])
    expect(existsSync(turn.handoffFile)).toBe(true)
    expect(existsSync(turn.planFile!)).toBe(true)
  })
})
