// The engine's compactions of the main loop (engine-compaction.ts routes them):
// answered with a fork's handoff, handed to the engine's summariser with our
// instructions, a precompute vetoed, or passed. After any that replaced the
// main loop's conversation, the nudge and the auto handoff rearm and the
// rediscovery meter starts. Our own swap compacts from a timer, which this
// hook never hears; should it ever, it goes on untouched.
import type { EngineInterface, SessionCompactInput, SessionCompactResult } from 'claude-code'
import { TOASTS } from '../text/toasts.js'
import { showToast } from '../text/toast-steps.js'
import { compactionRouteOf, type ForkTrigger } from './engine-compaction.js'
import { summaryInstructionsOf } from './summary-instructions.js'
import { COMPACTION_TOAST_MS, forkHandoff } from './fork-steps.js'
import { whileForkAnswers } from '../run/fork-answering.js'
import { lastHandoffNow } from '../stub/last-handoff-steps.js'
import { folderInputOf } from '../ownership/folder-steps.js'
import { readPhase } from '../run/run-state.js'
import { readWork } from '../facts/facts-state.js'
import { readWords } from '../words/words-state.js'
import { newWindowBegan } from '../thresholds/window-steps.js'
import { watchAfterCompaction } from '../facts/work-steps.js'
import { appendCompactionLog } from '../swap-log/swap-log-steps.js'
import { compactionLogTriggerOf } from '../swap-log/swap-log.js'
import { armingTriggerOf } from '../ask/ask.js'
import { armAfterCompaction } from '../ask/ask-steps.js'
import { isOwnMarkedCompaction } from '../stub/swap-text.js'
import type { Options } from '../options/options.js'
import { answerAtRunEdge, noteSummaryDuringRun } from './run-edge-steps.js'

type $ = EngineInterface
type Next = (e: SessionCompactInput) => Promise<SessionCompactResult>

/** The summariser's instructions: the person's, then what this mod's state adds, then the outline. */
async function summaryInstructions($: $, own: string | undefined): Promise<string> {
  const cwd = await $.session.cwd()
  const folder = { cwd, ...(await folderInputOf($, cwd)) }
  const [words, lastHandoff, work] = await Promise.all([readWords($), lastHandoffNow($, folder), readWork($)])
  return summaryInstructionsOf(own, { words, lastHandoff, facts: work.facts, cwd })
}

/** A compaction began a new context window: what counts per window starts
 * over, and the meter watches the window after it. */
async function windowAfterCompaction($: $): Promise<void> {
  await newWindowBegan($)
  await watchAfterCompaction($)
}

/** After a compaction the engine raised: a new window rearms what counts per
 * window, and option askAfterCompaction arms its question whatever replaced
 * the conversation (a summary or a fork's handoff). */
async function observed($: $, e: SessionCompactInput, compacted: SessionCompactResult, isAskOn: boolean): Promise<SessionCompactResult> {
  if (e.agentId === undefined && e.trigger !== 'precompute' && compacted.skip === undefined) await windowAfterCompaction($)
  const arming = armingTriggerOf({ trigger: e.trigger, agentId: e.agentId, skip: compacted.skip })
  if (isAskOn && arming !== undefined) await armAfterCompaction($, arming)
  return compacted
}

/** The person stopped the turn (Escape) while the fork ran: the engine's
 * summary would be cut short too (seen live, 2.1.332: its call rejects and the
 * conversation stays), so none is asked for, the compaction is skipped, and
 * the person and the log are told the conversation was kept. */
async function keptAfterInterrupt($: $, e: SessionCompactInput, trigger: ForkTrigger, failed: { why: string; repairs: number }, percent: number | null, isAskOn: boolean): Promise<SessionCompactResult> {
  showToast($, TOASTS.compactionKept(failed.why), COMPACTION_TOAST_MS)
  await appendCompactionLog($, await $.session.cwd(), {
    trigger: compactionLogTriggerOf(trigger),
    outcome: 'compaction-kept',
    files: [],
    contextPercentBefore: percent,
    reason: `${failed.why}; the conversation was kept`,
    repairs: failed.repairs,
  })
  return observed($, e, { skip: 'the turn was interrupted while a fork wrote the handoff; the conversation is kept' }, isAskOn)
}

/** The fork gave no handoff: the engine's summary, with our instructions, and the person told why. */
async function fellBack($: $, e: SessionCompactInput, next: Next, trigger: ForkTrigger, failed: { why: string; repairs: number }, percent: number | null, isAskOn: boolean): Promise<SessionCompactResult> {
  showToast($, TOASTS.compactionSummarized(failed.why), COMPACTION_TOAST_MS)
  const compacted = await next({ ...e, instructions: await summaryInstructions($, e.instructions) })
  const cwd = await $.session.cwd()
  await appendCompactionLog($, cwd, {
    trigger: compactionLogTriggerOf(trigger),
    outcome: 'compaction-summarized',
    files: [],
    contextPercentBefore: percent,
    reason: compacted.skip === undefined ? failed.why : `${failed.why}; the summary was skipped too (${compacted.skip})`,
    repairs: failed.repairs,
  })
  return observed($, e, compacted, isAskOn)
}

/** `raisedBy` is the host's `next.origin.plugin`: our own swap goes on, before
 * anything is read, to compact-handoff-answer, the one that answers it. */
export async function answerCompaction($: $, e: SessionCompactInput, next: Next, raisedBy: string, options: Options): Promise<SessionCompactResult> {
  if (isOwnMarkedCompaction(e, raisedBy)) return next(e)
  const isAskOn = options.askAfterCompaction
  const runKind = (await readPhase($)).kind
  const route = compactionRouteOf(e, options.compactionHandoff, runKind)
  switch (route.kind) {
    case 'pass':
      return observed($, e, await next(e), isAskOn)
    case 'veto':
      return { skip: route.skip }
    case 'summary': {
      const compacted = await next({ ...e, instructions: await summaryInstructions($, e.instructions) })
      if (runKind !== 'idle') await noteSummaryDuringRun($, e, compacted)
      return observed($, e, compacted, isAskOn)
    }
    case 'run-edge': {
      const edged = await answerAtRunEdge($, e)
      // No question is armed: the skill's own Write would meet it, and the swap takes it back.
      if (edged !== undefined) return observed($, e, edged, false)
      const compacted = await next({ ...e, instructions: await summaryInstructions($, e.instructions) })
      await noteSummaryDuringRun($, e, compacted)
      return observed($, e, compacted, isAskOn)
    }
    case 'fork': {
      const usage = await $.session.usage().catch(() => undefined)
      const percent = usage?.context.percent ?? null
      const forked = await whileForkAnswers(() => forkHandoff($, e, route.trigger, route.focus, percent))
      if (forked.kind === 'failed') {
        return forked.isInterrupted === true ? keptAfterInterrupt($, e, route.trigger, forked, percent, isAskOn) : fellBack($, e, next, route.trigger, forked, percent, isAskOn)
      }
      return observed($, e, { messages: forked.messages }, isAskOn)
    }
  }
}
