// The context nudge's effects; the decision is in nudge.ts.
import type { EngineInterface } from 'claude-code'
import { nudgeDueAt } from './nudge.js'
import { TOASTS } from '../text/toasts.js'
import { showToast } from '../text/toast-steps.js'
import { readNudge, setNudge } from './thresholds-state.js'
import { tellContextUse } from '../status-line/status-line-steps.js'

type $ = EngineInterface

const NUDGE_TOAST_MS = 10_000

/** At an idle main-loop turn's end: one usage read feeds the status line's
 * context figure and, once per window, the toast; `isToastOn` is false when an
 * auto handoff speaks at or before the nudge's threshold; `isAnswered`, the
 * turn ended with the model's answer. */
export async function nudgeIfDue($: $, thresholdPercent: number, isToastOn: boolean, isAnswered: boolean): Promise<void> {
  const [nudge, usage] = await Promise.all([readNudge($), $.session.usage().catch(() => undefined)])
  const percent = usage?.context.percent
  const due = isToastOn ? nudgeDueAt(nudge, percent, thresholdPercent) : undefined
  // Side by side: the toast waits on no status-line write.
  await Promise.all([tellContextUse($, percent, thresholdPercent, isAnswered), due === undefined ? undefined : fireNudge($, due)])
}

async function fireNudge($: $, percent: number): Promise<void> {
  await setNudge($, { kind: 'fired', percent })
  showToast($, TOASTS.nudge(percent), NUDGE_TOAST_MS)
}
