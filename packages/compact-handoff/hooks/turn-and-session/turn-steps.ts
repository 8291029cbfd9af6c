// A main-loop turn's end: the skill's turn ending moves the run; any other
// turn, with no run under way, feeds the meter and may start the auto handoff
// or show the nudge; the status line is told the context's use.
import type { EngineInterface } from 'claude-code'
import { isNudgeSuperseded } from '../thresholds/auto-handoff.js'
import { autoHandoffIfDue } from './auto-handoff-steps.js'
import { nudgeIfDue } from '../thresholds/nudge-steps.js'
import { dispatch } from '../run/run-steps.js'
import type { TurnEnd } from '../run/turn-verdict.js'
import { meterTurnEnded } from '../facts/work-steps.js'
import type { Options } from '../options/options.js'
import { isTooLongFailureOf } from '../thresholds/window-edge.js'
import { windowRefused } from '../thresholds/window-steps.js'

type $ = EngineInterface

export async function mainTurnEnded($: $, turnId: string, end: TurnEnd, options: Options): Promise<void> {
  // The machine decides whether this turn is the skill's. With no run the
  // event writes nothing, so the common case costs one read (beside the clock);
  // with a run, the skill's end is not held up by a read of its own.
  if ((await dispatch($, { kind: 'turn-ended', turnId, end })).found.kind !== 'idle') return
  await meterTurnEnded($)
  const isAutoHandoffStarted = await autoHandoffIfDue($, end, options.autoHandoffPercent)
  // The figure is told even beneath an auto handoff's stage: a cancel shows it.
  const isToastOn = !isAutoHandoffStarted && !isNudgeSuperseded(options.autoHandoffPercent, options.nudgePercent)
  await nudgeIfDue($, options.nudgePercent, isToastOn, end.reason === 'answer')
}

/** A main-loop turn the API ended with an error (classic StopFailure): one
 * that refused the request as too long leaves the conversation known not to
 * fit. Every other error changes nothing here. */
export async function mainTurnFailed($: $, error: string, details: string | undefined): Promise<void> {
  if (isTooLongFailureOf(error, details)) await windowRefused($)
}
