// The context nudge's effects; the decision is in nudge.ts.
import type { EngineInterface } from 'claude-code'
import { NUDGE_ARMED, nudgeDueAt } from './nudge.js'
import { TOASTS } from '../text/toasts.js'
import { showToast } from '../text/toast-steps.js'
import { readNudge, setNudge } from './thresholds-state.js'
import { tellContextUse } from '../status-line/status-line-steps.js'

type $ = EngineInterface

const NUDGE_TOAST_MS = 10_000

export type SessionUsage = Awaited<ReturnType<$['session']['usage']>>

/** At an idle main-loop turn's end: the usage read there feeds the status
 * line's context figure and, once per window, the toast; `isToastOn` is false
 * when an auto handoff speaks at or before the nudge's threshold;
 * `isAnswered`, the turn ended with the model's answer. Below the threshold,
 * the common case, the nudge is not read. */
export async function nudgeIfDue($: $, thresholdPercent: number, isToastOn: boolean, isAnswered: boolean, usage: SessionUsage | undefined): Promise<void> {
  const percent = usage?.context.percent
  const mayBeDue = isToastOn && nudgeDueAt(NUDGE_ARMED, percent, thresholdPercent) !== undefined
  // Side by side: the toast waits on no status-line write.
  await Promise.all([tellContextUse($, percent, thresholdPercent, isAnswered), mayBeDue ? nudgeIfArmed($, percent, thresholdPercent) : undefined])
}

async function nudgeIfArmed($: $, percent: number | undefined, thresholdPercent: number): Promise<void> {
  const due = nudgeDueAt(await readNudge($), percent, thresholdPercent)
  if (due === undefined) return
  await setNudge($, { kind: 'fired', percent: due })
  showToast($, TOASTS.nudge(due), NUDGE_TOAST_MS)
}
