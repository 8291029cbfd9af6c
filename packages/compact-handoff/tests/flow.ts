// Drives a run the way a session does, for the kit tests. Not a test file:
// `claude plugin test` runs every *.test.ts it finds.
import type { Engine } from 'claude-code/testing'
import { CWD, HANDOFF, endTurn, handoffText, readyAnswer, skillWrite, type World } from './world.js'

export async function startSession($: Engine) {
  await $.session.start({ cwd: CWD, surface: 'terminal', isInteractive: true })
}

export async function typeAndLaunch($: Engine, w: World, command: string, args: string) {
  const answer = await $.command.run({ command, args, origin: { kind: 'composer' }, presentation: { isFullscreen: false, columns: 80 } })
  await w.clock.advance(100)
  await w.clock.settle()
  return answer
}

/** Ends the skill's turn and lets the queued go-command's timer fire. */
export async function finishSkill($: Engine, w: World, answer: string, reason: 'answer' | 'aborted' | 'error' = 'answer') {
  await endTurn($, answer, reason)
  await w.clock.settle()
  await w.clock.advance(0)
  await w.clock.settle()
}

/** The skill's turn as a well-behaved skill plays it: writes the handoff, then ends with `answer`. */
export async function skillWritesHandoff($: Engine, w: World, answer = readyAnswer([HANDOFF]), reason: 'answer' | 'aborted' | 'error' = 'answer') {
  w.writeFile(HANDOFF, handoffText())
  await skillWrite($, HANDOFF, handoffText())
  await finishSkill($, w, answer, reason)
}
