// A new context window began: a swap or a compaction replaced the
// conversation, so what counts per window starts over. The one place that is
// applied: the swap (run/run-steps.ts) and an engine compaction
// (compaction/compaction-steps.ts), both above this folder, call it.
import type { EngineInterface } from 'claude-code'
import { NUDGE_ARMED } from './nudge.js'
import { rearmAutoHandoff, setNudge, setWindowEdge } from './thresholds-state.js'
import { REFUSED, UNREFUSED } from './window-edge.js'
import { clearContextUse, tellContextFull } from '../status-line/status-line-steps.js'

type $ = EngineInterface

/** The nudge may speak again, the auto handoff may start again, and the
 * status line's context figure and a refusal as too long are the old
 * window's, so they go. */
export async function newWindowBegan($: $): Promise<void> {
  await Promise.all([setNudge($, NUDGE_ARMED), rearmAutoHandoff($), setWindowEdge($, UNREFUSED), clearContextUse($)])
}

/** The main loop's request was refused as too long: kept for this window's
 * compactions (no fork is spent on a conversation known not to fit), and the
 * status line stops advising what would be refused too. */
export async function windowRefused($: $): Promise<void> {
  await Promise.all([setWindowEdge($, REFUSED), tellContextFull($)])
}
