// The context nudge's effects; the decision is in nudge.ts.
import type { EngineInterface } from 'claude-code'
import { nudgeDueAt, type Nudge } from './nudge.js'
import { TOASTS } from '../text/toasts.js'
import { showToast } from '../text/toast-steps.js'
import { readNudge, setNudge } from './thresholds-state.js'
import { readStatusLine, tellContextUse, type HeldStatusLine } from '../status-line/status-line-steps.js'

type $ = EngineInterface

const NUDGE_TOAST_MS = 10_000

export type SessionUsage = Awaited<ReturnType<$['session']['usage']>>

/** What a main-loop turn's end reads for the thresholds and the status line:
 * read together, beside the run's move (one hop, not three). */
export type TurnEndReads = { nudge: Nudge; usage: SessionUsage | undefined; statusLine: HeldStatusLine }

export async function turnEndReadsNow($: $): Promise<TurnEndReads> {
  const [nudge, usage, statusLine] = await Promise.all([readNudge($), $.session.usage().catch(() => undefined), readStatusLine($)])
  return { nudge, usage, statusLine }
}

/** At an idle main-loop turn's end: one usage read feeds the status line's
 * context figure and, once per window, the toast; `isToastOn` is false when an
 * auto handoff speaks at or before the nudge's threshold; `isAnswered`, the
 * turn ended with the model's answer. */
export async function nudgeIfDue($: $, thresholdPercent: number, isToastOn: boolean, isAnswered: boolean, reads: TurnEndReads): Promise<void> {
  const percent = reads.usage?.context.percent
  const due = isToastOn ? nudgeDueAt(reads.nudge, percent, thresholdPercent) : undefined
  // Side by side: the toast waits on no status-line write.
  await Promise.all([tellContextUse($, percent, thresholdPercent, isAnswered, reads.statusLine), due === undefined ? undefined : fireNudge($, due)])
}

async function fireNudge($: $, percent: number): Promise<void> {
  await setNudge($, { kind: 'fired', percent })
  showToast($, TOASTS.nudge(percent), NUDGE_TOAST_MS)
}
