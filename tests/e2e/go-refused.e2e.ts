/**
 * A refused compaction, retried through the go stage, in a real session: another mod,
 * outer to ours, starts a slow turn of its own the moment compact-handoff's go-command
 * runs, so the go step's compaction finds a turn running and the engine refuses it. The
 * run goes back to the go stage, the go step is retried every 500 ms, and once that turn
 * has ended the swap goes through: the stub and the continue-prompt, no summariser.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { isSkillTurnFor, skillTurn } from '../harness/handoff-script.js'
import { writeMod } from '../harness/staging.js'
import { trackRuns } from './lifecycle.js'
import { expectSwapped, ordinaryTurn, requestAfter, startFlow, type Flow } from './flow-support.js'

const BUSY_TEXT = 'BUSY-TURN: a plugin asks something slow'

/** Hears compact-handoff's go-command first (outer) and, before the go-command's own
 * hook runs, submits a prompt of its own: its turn starts as soon as the command is
 * done, ahead of the go step's compaction timer. */
const BUSY_MOD = `import type { Register } from 'claude-code'

export const register: Register = (on) => {
  on('command.run', { command: 'compact-handoff-go' }, ($, e, next) => {
    void $.prompt.submit({ text: '${BUSY_TEXT}' }).catch(() => undefined)
    return next(e)
  })
}
`

describe('a compaction refused while another turn runs is retried through the go stage', () => {
  const { track } = trackRuns()
  let flow: Flow

  beforeAll(async () => {
    flow = await startFlow('go-refused', track, { outerMods: (run) => [writeMod(run, 'busy-mod', { 'hooks/register.ts': BUSY_MOD })] })
  })

  it('refused, back to the go stage, retried, then swapped once the other turn ended', async () => {
    const { mock, session, run } = flow
    await ordinaryTurn(flow, 'BEFORE-REFUSAL')
    const turn = skillTurn({ proj: run.proj, doc: { slug: 'go-refused', focus: 'refused' }, continuePrompt: 'Continue from the refused-then-retried handoff.' })
    // The other mod's turn holds its reply long enough for a few refusals.
    mock.script(...turn.replies, { when: BUSY_TEXT, text: 'REPLY-BUSY', delayMs: 1_500 }, { when: turn.continuePrompt, text: 'REPLY-AFTER-RETRY' })
    const mark = session.logMark()
    const before = mock.requests.length
    await session.type('/compact-handoff refused')
    const skill = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'refused'), 30_000)
    const next = await requestAfter(mock, skill.seq, turn.continuePrompt, 40_000)
    expectSwapped(next, turn.continuePrompt, [`Handoff file: ${turn.handoffPath}`])
    await session.waitForScreen(/REPLY-AFTER-RETRY/, 30_000)
    expect(mock.requests.some((r) => r.kind === 'summary'), 'no summariser request').toBe(false)
    expect(mock.requests.some((r) => r.seq > skill.seq && r.lastUserText.includes(BUSY_TEXT)), "the other mod's turn ran").toBe(true)

    // The engine logs a compaction it takes, not one it refuses: the stages tell the refusals.
    const log = session.debugLog().slice(mark)
    const statuses = [...log.matchAll(/\$\.ui\.status \(compact-handoff\): handoff: (swap queued|replacing the conversation)/g)].map((m) => m[1])
    const goSteps = statuses.filter((s) => s === 'replacing the conversation').length
    console.log(`e2e go-refused: go steps ${goSteps}`)
    expect(statuses.slice(0, 3), 'the go stage, the go step, back to the go stage after the refusal').toEqual(['swap queued', 'replacing the conversation', 'swap queued'])
    expect(goSteps, 'the go step retried after each refusal').toBeGreaterThan(1)
    expect([...log.matchAll(/\$\.session\.compact \(compact-handoff\): compacting/g)].length, 'one compaction taken').toBe(1)
  })
})
