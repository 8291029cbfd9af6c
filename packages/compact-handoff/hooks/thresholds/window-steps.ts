// A new context window began: a swap or a compaction replaced the
// conversation, so what counts per window starts over. The one place that is
// applied: the swap (run/run-steps.ts) and an engine compaction
// (compaction/compaction-steps.ts), both above this folder, call it.
import type { EngineInterface } from 'claude-code'
import { NUDGE_ARMED } from './nudge.js'
import { rearmAutoHandoff, setNudge } from './thresholds-state.js'
import { clearContextUse } from '../status-line/status-line-steps.js'

type $ = EngineInterface

/** The nudge may speak again, the auto handoff may start again, and the
 * status line's context figure is the old window's, so it goes. */
export async function newWindowBegan($: $): Promise<void> {
  await Promise.all([setNudge($, NUDGE_ARMED), rearmAutoHandoff($), clearContextUse($)])
}
