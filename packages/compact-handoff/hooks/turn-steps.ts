// A main-loop turn's end: the skill's turn ending moves the run; any other
// turn, with no run under way, feeds the meter and may start the auto handoff
// or show the nudge.
import type { EngineInterface } from 'claude-code'
import { isNudgeSuperseded, type Thresholds } from './auto-handoff.js'
import { autoHandoffIfDue } from './auto-steps.js'
import { nudgeIfDue } from './nudge-steps.js'
import { dispatch } from './run-steps.js'
import { readPhase } from './state.js'
import type { TurnEnd } from './turn-verdict.js'
import { followUpTurnEnded } from './work-steps.js'

type $ = EngineInterface

export async function mainTurnEnded($: $, turnId: string, end: TurnEnd, thresholds: Thresholds): Promise<void> {
  // The common case, no run, costs one read; with a run the machine decides
  // whether this turn is the skill's.
  if ((await readPhase($)).kind !== 'idle') {
    await dispatch($, { kind: 'turn-ended', turnId, end })
    return
  }
  await followUpTurnEnded($)
  const isAutoStarted = await autoHandoffIfDue($, end, thresholds.autoPercent)
  if (!isAutoStarted && !isNudgeSuperseded(thresholds.autoPercent, thresholds.nudgePercent)) await nudgeIfDue($, thresholds.nudgePercent)
}
