// The 70% nudge: one toast per context window, re-armed by any compaction.
// Kept in `$.state` beside the run so a hot reload does not nudge twice.

export const DEFAULT_NUDGE_PERCENT = 70

export type Nudge = { kind: 'armed' } | { kind: 'fired'; percent: number }

const DECIMAL_RE = /^\s*\d+(?:\.\d+)?\s*$/

export const NUDGE_ARMED: Nudge = { kind: 'armed' }

/** The threshold from the plugin's options; the manifest bounds it to 1..99,
 * but a hand-edited setting can still arrive as anything: all else is the default. */
export function nudgePercentOf(option: unknown): number {
  const n = typeof option === 'number' ? option : typeof option === 'string' && DECIMAL_RE.test(option) ? Number(option) : NaN
  return Number.isFinite(n) && n >= 1 && n <= 99 ? n : DEFAULT_NUDGE_PERCENT
}

/** The percent to announce, or undefined when this turn should stay quiet.
 * An unknown percent (fresh window, just compacted) counts as 0. */
export function nudgeDueAt(nudge: Nudge, percent: number | undefined, thresholdPercent: number): number | undefined {
  const p = percent ?? 0
  return nudge.kind === 'armed' && p >= thresholdPercent ? p : undefined
}

export function nudgeTextOf(percent: number): string {
  return `context at ${Math.round(percent)}%. /compact-handoff is recommended.`
}
