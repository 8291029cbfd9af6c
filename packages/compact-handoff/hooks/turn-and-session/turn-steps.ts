// A main-loop turn's end: the skill's turn ending moves the run; any other
// turn, with no run under way, feeds the meter and may start the auto handoff
// (a run started as /compact-handoff starts one, so this sits above commands/)
// or show the nudge; the status line is told the context's use. A session's
// start and end, as they concern a run: whether a person is at the prompt, and
// what a run under way held when the session ends.
import type { EngineInterface } from 'claude-code'
import { AUTO_HANDOFF_OFF, isAutoHandoffDue, isNudgeSuperseded } from '../thresholds/auto-handoff.js'
import { nudgeIfDue, type SessionUsage } from '../thresholds/nudge-steps.js'
import { readAutoHandoff, spendAutoHandoff } from '../thresholds/thresholds-state.js'
import { TOASTS } from '../text/toasts.js'
import { showToast } from '../text/toast-steps.js'
import { readInteractive, readPhase, setInteractive } from '../run/run-state.js'
import { dispatch, phaseAtTurnEnd } from '../run/run-steps.js'
import { restoreKept, resumeBeat } from '../run/held-steps.js'
import { clearContextUse } from '../status-line/status-line-steps.js'
import type { TurnEnd } from '../run/turn-verdict.js'
import { startRun } from '../commands/command-steps.js'
import { meterTurnEnded, readWorkIfWatching } from '../facts/work-steps.js'
import type { Options } from '../options/options.js'
import { isTooLongFailureOf } from '../thresholds/window-edge.js'
import { windowRefused } from '../thresholds/window-steps.js'

type $ = EngineInterface

const AUTO_HANDOFF_TOAST_MS = 10_000

export async function mainTurnEnded($: $, turnId: string, end: TurnEnd, options: Options): Promise<void> {
  // The machine decides whether this turn is the skill's. What an idle turn's
  // end needs is read beside it, and only what may have changed: the common
  // case, no run, no meter window and a context below the figures, costs one
  // `$` call (the usage) and writes nothing; with a run, the skill's end is
  // not held up by a read of its own.
  const [found, work, usage] = await Promise.all([phaseAtTurnEnd($, turnId, end), readWorkIfWatching($), $.session.usage().catch(() => undefined)])
  if (found.kind !== 'idle') return
  await meterTurnEnded($, work)
  const isAutoHandoffStarted = await autoHandoffIfDue($, end, options.autoHandoffPercent, usage)
  // The figure is told even beneath an auto handoff's stage: a cancel shows it.
  const isToastOn = !isAutoHandoffStarted && !isNudgeSuperseded(options.autoHandoffPercent, options.nudgePercent)
  await nudgeIfDue($, options.nudgePercent, isToastOn, end.reason === 'answer', usage)
}

/** Starts the run /compact-handoff starts (a handoff run, no focus) when this
 * turn reached the threshold (`usage`, read at the turn's end). Whether it did. */
async function autoHandoffIfDue($: $, end: TurnEnd, autoHandoffPercent: number, usage: SessionUsage | undefined): Promise<boolean> {
  const percent = usage?.context.percent
  // Most turns end here, before any engine call.
  if (autoHandoffPercent === AUTO_HANDOFF_OFF || end.reason !== 'answer' || (percent ?? 0) < autoHandoffPercent) return false
  const [agents, isInteractive] = await Promise.all([$.agent.list().catch(() => []), readInteractive($)])
  const isSubagentRunning = agents.some((a) => a.status === 'running' || a.status === 'pending')
  if (!isAutoHandoffDue(autoHandoffPercent, await readAutoHandoff($), { reason: end.reason, percent, isSubagentRunning, isInteractive })) return false
  if (!(await spendAutoHandoff($))) return false
  const started = await startRun($, { kind: 'start', mode: 'handoff', focus: '', apply: 'now' }, 'auto-handoff')
  if (started.isStarted) showToast($, TOASTS.autoHandoffStarted(percent ?? autoHandoffPercent), AUTO_HANDOFF_TOAST_MS)
  return started.isStarted
}

/** A main-loop turn the API ended with an error (classic StopFailure): one
 * that refused the request as too long leaves the conversation known not to
 * fit. Every other error changes nothing here. */
export async function mainTurnFailed($: $, error: string, details: string | undefined): Promise<void> {
  if (isTooLongFailureOf(error, details)) await windowRefused($)
}

/** At every session.start (a hot reload runs it again). */
export async function noteSessionStart($: $, isInteractive: boolean): Promise<void> {
  await Promise.all([setInteractive($, isInteractive), resumeBeat($)])
  if (isInteractive) $.clock.after(0, () => void restoreKept($).catch(() => undefined))
}

/** Before the engine's end step: /clear starts the session's state over (seen
 * live, 2.1.332), so a run under way would be lost with what it held. Returns
 * whether a person is at the prompt, read before the state is gone. */
export async function endSession($: $, reason: string): Promise<boolean> {
  const isNewConversation = reason === 'clear' || reason === 'resume'
  // The engine keeps a plugin's status line across /clear (seen live, 2.1.332):
  // the old conversation's figure goes before the run's stage can uncover it.
  const [phase, isInteractive] = await Promise.all([readPhase($), readInteractive($), isNewConversation ? clearContextUse($) : undefined])
  if (phase.kind !== 'idle') await dispatch($, { kind: 'session-ended', reason })
  // The process goes on after /clear (or /resume) under a fresh state, with no
  // session.start: the flag is put back once that state is in place (checked
  // live for /clear in an SDK session).
  if (isNewConversation) $.clock.after(0, () => void setInteractive($, isInteractive).catch(() => undefined))
  return isInteractive
}
