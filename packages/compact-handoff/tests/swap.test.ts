import { describe, expect, test, type Engine } from 'claude-code/testing'
import { ANSWER_STAND_IN, CWD, HANDOFF, PLAN, endTurn, handoffText, planText, readyAnswer, skillWrite, typeCommand, world, type World } from './world.js'

const WITH_ANSWER = { plugins: [ANSWER_STAND_IN] }

async function startRun($: Engine, w: World, command = 'compact-handoff', args = 'finish the parser') {
  await $.session.start({ cwd: CWD, surface: 'terminal', isInteractive: true })
  const answer = await typeCommand($, command, args)
  await w.clock.advance(100)
  await w.clock.settle()
  return answer
}

async function finishSkill($: Engine, w: World, answer: string) {
  await endTurn($, answer)
  await w.clock.settle()
  await w.clock.advance(0)
  await w.clock.settle()
}

describe('a resume run', () => {
  test('runs the skill in compact mode, checks the handoff, swaps and submits the continue-prompt', WITH_ANSWER, async ($, on) => {
    const w = world(on)
    const started = await startRun($, w)
    expect(started.text).toContain('Writing a handoff')
    expect(w.seen.commandRuns).toEqual([{ command: 'compact-handoff-skills:handoff', args: 'compact-mode finish the parser' }])

    w.writeFile(HANDOFF, handoffText())
    await skillWrite($, HANDOFF, handoffText())
    await finishSkill($, w, readyAnswer([HANDOFF], 'Read the handoff and go on.'))

    expect(w.seen.toasts, 'no abort toast').toEqual([])
    expect(w.seen.compactions.length, 'the engine must not summarize').toBe(0)
    expect(w.seen.submits).toEqual([{ text: 'Read the handoff and go on.', asUser: true }])
    expect(w.seen.statuses.at(-1), 'the status line is cleared').toBeUndefined()
  })
})
