// Decides what this mod does with a compaction, before any state is read.
// Pure and free of 'claude-code' so vitest can load it under Node; register.ts
// applies the route.
import { markedStubOf, type CompactionInput } from './marked-stub.js'
import type { RunView } from '../partner/run-view.js'

export type Route =
  /** compact-handoff's marked compaction, raised by its swap: the stub replaces the conversation. */
  | { kind: 'answer'; stub: string }
  /** The main loop's ahead-of-time summary: vetoed while a run is pending. */
  | { kind: 'precompute' }
  /** Everything else (the person's /compact and the engine's automatic one,
   * which compact-handoff, outer to this mod, handles; a subagent's; another
   * plugin's; a marked one that is not compact-handoff's swap) goes on untouched. */
  | { kind: 'pass' }

/** The plugin whose swap this mod answers, as `next.origin.plugin` names it. */
export const SENDER_PLUGIN = 'compact-handoff'

/**
 * Whether a marked compaction is compact-handoff's swap: raised by compact-handoff
 * itself while its run is swapping with the compaction in flight. The marker
 * alone proves nothing: any plugin can write it, and an answered compaction
 * replaces the whole conversation with text of the caller's choosing.
 * `raisedBy` is the host's `next.origin.plugin`, which no plugin can set.
 */
export function isSwapToAnswer(raisedBy: string, run: RunView): boolean {
  return raisedBy === SENDER_PLUGIN && run.kind === 'swapping' && run.isCompacting === true
}

/** The route for a compaction raised by `raisedBy` (`next.origin.plugin`)
 * while compact-handoff's run is `run`. */
export function routeOf(input: CompactionInput, raisedBy: string, run: RunView): Route {
  const stub = markedStubOf(input)
  if (stub !== undefined) return isSwapToAnswer(raisedBy, run) ? { kind: 'answer', stub } : { kind: 'pass' }
  // A subagent or fork compacts its own transcript: compact-handoff's run belongs to the main loop.
  if (input.agentId !== undefined) return { kind: 'pass' }
  return input.trigger === 'precompute' ? { kind: 'precompute' } : { kind: 'pass' }
}

/**
 * Why a precompute is vetoed, or undefined to let it run.
 *
 * A run ends in a swap that replaces the whole conversation, so a summary
 * computed ahead of time now would describe a conversation that is gone, and
 * the engine could install it at the next compaction. Any kind but 'idle'
 * counts, a kind compact-handoff adds later included: a vetoed precompute only
 * costs the engine doing the work when it actually compacts.
 */
export function precomputeSkipOf(run: RunView): string | undefined {
  if (run.kind === 'idle') return undefined
  return `compact-handoff run pending (${run.kind}): a summary computed now would be stale once the handoff swaps in`
}
