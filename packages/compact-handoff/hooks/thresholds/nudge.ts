// The 70% nudge: one toast per context window, re-armed by any compaction.
// Kept in `$.state` beside the run so a hot reload does not nudge twice.

export type Nudge = { kind: 'armed' } | { kind: 'fired'; percent: number }

export const NUDGE_ARMED: Nudge = { kind: 'armed' }

/** The percent to announce, or undefined when this turn should stay quiet.
 * An unknown percent (fresh window, just compacted) counts as 0. */
export function nudgeDueAt(nudge: Nudge, percent: number | undefined, thresholdPercent: number): number | undefined {
  const p = percent ?? 0
  return nudge.kind === 'armed' && p >= thresholdPercent ? p : undefined
}
