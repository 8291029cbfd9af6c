// Opt-in auto handoff: after a main-loop turn that ended with an answer (a
// natural boundary) at or above `autoHandoffPercent` of the context window,
// the mod starts the run /compact-handoff starts, once per context window.

/** 0 is off. */
export const AUTO_HANDOFF_OFF = 0

export type AutoHandoffWindow = { kind: 'armed' } | { kind: 'spent' }

export const AUTO_HANDOFF_ARMED: AutoHandoffWindow = { kind: 'armed' }

export type TurnInput = {
  reason: 'answer' | 'aborted' | 'refusal' | 'error'
  /** Context use after the turn; undefined right after a start or a compaction. */
  percent: number | undefined
  isSubagentRunning: boolean
  /** Whether a person is at the prompt: a `-p` or SDK session refuses plugin
   * compaction, so a run there would spend a handoff turn and then abort. */
  isInteractive: boolean
}

/** Whether this turn's end starts an auto handoff. */
export function isAutoHandoffDue(autoHandoffPercent: number, window: AutoHandoffWindow, turn: TurnInput): boolean {
  return (
    autoHandoffPercent !== AUTO_HANDOFF_OFF && turn.isInteractive && window.kind === 'armed' && turn.reason === 'answer' && !turn.isSubagentRunning && (turn.percent ?? 0) >= autoHandoffPercent
  )
}

/** The nudge stays quiet when an auto handoff will speak at or before its threshold. */
export function isNudgeSuperseded(autoHandoffPercent: number, nudgePercent: number): boolean {
  return autoHandoffPercent !== AUTO_HANDOFF_OFF && autoHandoffPercent <= nudgePercent
}

export function autoHandoffReportTextOf(autoHandoffPercent: number): string {
  return autoHandoffPercent === AUTO_HANDOFF_OFF ? 'auto handoff off' : `auto handoff at ${autoHandoffPercent}%`
}
