// The context nudge's effects; the decision is in nudge.ts.
import type { EngineInterface } from 'claude-code'
import { NUDGE_ARMED, nudgeDueAt, nudgeTextOf } from './nudge.js'
import { readNudge, setNudge } from '../state.js'

type $ = EngineInterface

const NUDGE_TOAST_MS = 10_000

export async function nudgeIfDue($: $, thresholdPercent: number): Promise<void> {
  const nudge = await readNudge($)
  if (nudge.kind !== 'armed') return
  const usage = await $.session.usage().catch(() => undefined)
  const percent = nudgeDueAt(nudge, usage?.context.percent, thresholdPercent)
  if (percent === undefined) return
  await setNudge($, ({ kind: 'fired', percent }))
  $.ui.toast(nudgeTextOf(percent), { timeoutMs: NUDGE_TOAST_MS })
}

/** Any compaction starts a new context window, so the nudge may speak again. */
export async function rearmNudge($: $): Promise<void> {
  await setNudge($, NUDGE_ARMED)
}
