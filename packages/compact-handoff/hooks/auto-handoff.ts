// Opt-in auto handoff: after a main-loop turn that ended with an answer (a
// natural boundary) at or above `autoHandoffPercent` of the context window,
// the mod starts the run /compact-handoff starts, once per context window.

/** 0 is off. */
export const AUTO_OFF = 0

/** The two context-use options as register.ts read them: the turn's end and
 * /compact-handoff status both use them. */
export type Thresholds = { nudgePercent: number; autoPercent: number }

export type AutoWindow = { kind: 'armed' } | { kind: 'spent' }

export const AUTO_ARMED: AutoWindow = { kind: 'armed' }

const DECIMAL_RE = /^\s*\d+(?:\.\d+)?\s*$/

/** The percent from the plugin's options: 0..99 (the manifest's bounds), else off. */
export function autoHandoffPercentOf(option: unknown): number {
  const n = typeof option === 'number' ? option : typeof option === 'string' && DECIMAL_RE.test(option) ? Number(option) : NaN
  return Number.isFinite(n) && n > 0 && n <= 99 ? n : AUTO_OFF
}

export type TurnFacts = {
  reason: 'answer' | 'aborted' | 'refusal' | 'error'
  /** Context use after the turn; undefined right after a start or a compaction. */
  percent: number | undefined
  isSubagentRunning: boolean
  /** Whether a person is at the prompt: a `-p` or SDK session refuses plugin
   * compaction, so a run there would spend a handoff turn and then abort. */
  isInteractive: boolean
}

/** Whether this turn's end starts an auto run. */
export function isAutoDue(autoPercent: number, window: AutoWindow, turn: TurnFacts): boolean {
  return (
    autoPercent !== AUTO_OFF && turn.isInteractive && window.kind === 'armed' && turn.reason === 'answer' && !turn.isSubagentRunning && (turn.percent ?? 0) >= autoPercent
  )
}

/** The nudge stays quiet when an auto run will speak at or before its threshold. */
export function isNudgeSuperseded(autoPercent: number, nudgePercent: number): boolean {
  return autoPercent !== AUTO_OFF && autoPercent <= nudgePercent
}

export function autoStartTextOf(percent: number): string {
  return `compact-handoff: context at ${Math.round(percent)}%, so a handoff started on its own (autoHandoffPercent). Messages you type are held until the swap; /compact-handoff cancel stops it and changes nothing.`
}

export function autoStatusTextOf(autoPercent: number): string {
  return autoPercent === AUTO_OFF ? 'auto handoff off' : `auto handoff at ${autoPercent}%`
}
