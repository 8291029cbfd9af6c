// The auto handoff's effects at a turn's end (a run started as /compact-handoff
// starts one, so this sits above commands/); the decisions are in
// thresholds/auto-handoff.ts.
import type { EngineInterface } from 'claude-code'
import { AUTO_HANDOFF_OFF, isAutoHandoffDue } from '../thresholds/auto-handoff.js'
import { TOASTS } from '../text/toasts.js'
import { showToast } from '../text/toast-steps.js'
import { readAutoHandoff, spendAutoHandoff } from '../thresholds/thresholds-state.js'
import { readInteractive } from '../run/run-state.js'
import type { SessionUsage } from '../thresholds/nudge-steps.js'
import { startRun } from '../commands/command-steps.js'
import type { TurnEnd } from '../run/turn-verdict.js'

type $ = EngineInterface

const AUTO_HANDOFF_TOAST_MS = 10_000

/** After an idle main-loop turn: starts the run /compact-handoff starts (a
 * handoff run, no focus) when this turn reached the threshold (`usage`, read at
 * the turn's end). Whether it did. */
export async function autoHandoffIfDue($: $, end: Pick<TurnEnd, 'reason'>, autoHandoffPercent: number, usage: SessionUsage | undefined): Promise<boolean> {
  // Most turns end here, before any engine call.
  if (autoHandoffPercent === AUTO_HANDOFF_OFF || end.reason !== 'answer') return false
  const [agents, isInteractive] = await Promise.all([$.agent.list().catch(() => []), readInteractive($)])
  const percent = usage?.context.percent
  const isSubagentRunning = agents.some((a) => a.status === 'running' || a.status === 'pending')
  if (!isAutoHandoffDue(autoHandoffPercent, await readAutoHandoff($), { reason: end.reason, percent, isSubagentRunning, isInteractive })) return false
  if (!(await spendAutoHandoff($))) return false
  const started = await startRun($, { kind: 'start', mode: 'handoff', focus: '', apply: 'now' }, 'auto-handoff')
  if (started.isStarted) showToast($, TOASTS.autoHandoffStarted(percent ?? autoHandoffPercent), AUTO_HANDOFF_TOAST_MS)
  return started.isStarted
}
