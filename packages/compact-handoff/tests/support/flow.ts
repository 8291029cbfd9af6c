// Drives a run the way a session does, for the kit tests. Not a test file:
// `claude plugin test` runs every *.test.ts it finds.
import type { Engine } from 'claude-code/testing'
import { CWD, HANDOFF, type World } from './world.js'
import { endTurn, skillWrite, startTurn } from './engine-calls.js'
import { handoffText, readyAnswer } from './texts.js'

/** A session's start; `-p` and the SDK start one with no person at the prompt. */
export async function startSession($: Engine, options: { cwd?: string; isInteractive?: boolean } = {}) {
  const isInteractive = options.isInteractive ?? true
  await $.session.start({ cwd: options.cwd ?? CWD, surface: isInteractive ? 'terminal' : null, isInteractive })
}

/** The launch timer's delay (run-machine.ts FROM_COMMAND_HOOK_DELAY_MS). */
export const LAUNCH_DELAY_MS = 100

/** Types the command, lets the launch timer run the skill, and starts the
 * skill's turn as the engine would: its start carries the command's arguments. */
export async function typeAndLaunch($: Engine, w: World, command: string, args: string) {
  const answer = await $.command.run({ command, args, origin: { kind: 'composer' }, presentation: { isFullscreen: false, columns: 80 } })
  await w.clock.advance(LAUNCH_DELAY_MS)
  await w.clock.settle()
  const launched = w.seen.commandRuns.at(-1) ?? w.seen.submits.at(-1)
  if (launched !== undefined) await startTurn($, 'args' in launched ? `<command-args>${launched.args}</command-args>` : launched.text)
  return answer
}

/** Ends the skill's turn (the check, the compaction and the continue-prompt run in its turn.complete) and lets any timer it set fire. */
export async function finishSkill($: Engine, w: World, answer: string, reason: 'answer' | 'aborted' | 'error' = 'answer') {
  await endTurn($, answer, reason)
  await w.clock.settle()
  await w.clock.advance(0)
  await w.clock.settle()
}

/** The skill's Write as it lands: the file on disk, then the tool call the mod hears. */
export async function skillWritesFile($: Engine, w: World, relPath: string, text: string) {
  w.writeFile(relPath, text)
  await skillWrite($, relPath, text)
}

/** The skill's turn as a well-behaved skill plays it: writes the handoff, then ends with `answer`. */
export async function skillWritesHandoff($: Engine, w: World, answer = readyAnswer([HANDOFF]), reason: 'answer' | 'aborted' | 'error' = 'answer') {
  await skillWritesFile($, w, HANDOFF, handoffText())
  await finishSkill($, w, answer, reason)
}

/** Plays the repair turn the mod just asked for: its start carries the repair
 * prompt (tagged with the run), `write` is what the skill does in it, then it
 * ends with `answer`. */
export async function repairTurn($: Engine, w: World, n: number, answer: string, write?: () => Promise<unknown>) {
  const ask = w.seen.submits.filter((s) => !s.asUser).at(-1)
  if (ask === undefined) throw new Error('no repair prompt was sent')
  const turnId = `t-repair-${n}`
  await startTurn($, ask.text, turnId)
  if (write !== undefined) await write()
  await endTurn($, answer, 'answer', undefined, turnId)
  await w.clock.settle()
  await w.clock.advance(0)
  await w.clock.settle()
}
