// The engine's compactions of the main loop (engine-compaction.ts routes them):
// answered with a fork's handoff, handed to the engine's summariser with our
// instructions, a precompute vetoed, or passed. After any that replaced the
// main loop's conversation, the nudge and the auto handoff rearm and the
// rediscovery meter starts. A mod never hears the compaction its own timer
// starts, so none of these is this mod's swap.
import type { EngineInterface, SessionCompactInput, SessionCompactResult } from 'claude-code'
import { compactionRouteOf, type CompactionHandoff, type ForkTrigger } from './engine-compaction.js'
import { summaryInstructionsOf } from './summary-instructions.js'
import { forkHandoff } from './fork-steps.js'
import { readLastSwap, readPhase, readWork, readWords, rearmAuto } from './state.js'
import { rearmNudge } from './nudge-steps.js'
import { watchAfterCompaction } from './work-steps.js'
import { appendCompactionLog } from './swap-log-steps.js'

type $ = EngineInterface
type Next = (e: SessionCompactInput) => Promise<SessionCompactResult>

const TOAST_MS = 10_000

/** The summariser's instructions: the person's, then what this mod's state adds, then the outline. */
async function summaryInstructions($: $, own: string | undefined): Promise<string> {
  const [words, lastSwap, work, cwd] = await Promise.all([readWords($), readLastSwap($), readWork($), $.session.cwd()])
  return summaryInstructionsOf(own, { words, lastSwap, facts: work.facts, cwd })
}

/** A new context window began: what counts per window starts over. */
async function newWindowBegan($: $): Promise<void> {
  await Promise.all([rearmNudge($), rearmAuto($)])
  await watchAfterCompaction($)
}

async function observed($: $, e: SessionCompactInput, compacted: SessionCompactResult): Promise<SessionCompactResult> {
  if (e.agentId === undefined && e.trigger !== 'precompute' && compacted.skip === undefined) await newWindowBegan($)
  return compacted
}

/** The fork gave no handoff: the engine's summary, with our instructions, and the person told why. */
async function fellBack($: $, e: SessionCompactInput, next: Next, trigger: ForkTrigger, failed: { why: string; repairs: number }, percent: number | null): Promise<SessionCompactResult> {
  $.ui.toast(
    `compact-handoff: no handoff was written at this compaction: ${failed.why}. Claude Code's own summary replaces the conversation instead, told to keep your words, the work's facts and a handoff's sections.`,
    { timeoutMs: TOAST_MS },
  )
  const compacted = await next({ ...e, instructions: await summaryInstructions($, e.instructions) })
  const cwd = await $.session.cwd()
  await appendCompactionLog($, cwd, {
    trigger: trigger === 'auto' ? 'automatic-compaction' : 'compact-command',
    outcome: 'compaction-summarized',
    files: [],
    contextPercentBefore: percent,
    reason: compacted.skip === undefined ? failed.why : `${failed.why}; the summary was skipped too (${compacted.skip})`,
    repairs: failed.repairs,
  })
  return observed($, e, compacted)
}

export async function answerCompaction($: $, e: SessionCompactInput, next: Next, option: CompactionHandoff): Promise<SessionCompactResult> {
  const route = compactionRouteOf(e, option, (await readPhase($)).kind)
  switch (route.kind) {
    case 'pass':
      return observed($, e, await next(e))
    case 'veto':
      return { skip: route.skip }
    case 'summary':
      return observed($, e, await next({ ...e, instructions: await summaryInstructions($, e.instructions) }))
    case 'fork': {
      const usage = await $.session.usage().catch(() => undefined)
      const percent = usage?.context.percent ?? null
      const forked = await forkHandoff($, e, route.trigger, route.focus, percent)
      if (forked.kind === 'failed') return fellBack($, e, next, route.trigger, forked, percent)
      await newWindowBegan($)
      return { messages: forked.messages }
    }
  }
}
