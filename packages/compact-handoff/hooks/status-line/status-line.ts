// The status line: what it says, from what it was told. A run's stage comes
// first; with no run under way, the context's use, as a hint from ten points
// below nudgePercent and as urgent from nudgePercent on, or that the context
// is full (a request was refused as too long); else nothing. Those
// who tell it (run/, thresholds/) pass plain strings and numbers, so this
// folder sits beneath them and imports neither.

/** How far below nudgePercent the hint begins, in points of context use. */
export const HINT_POINTS = 10

/** The context's use as the status line shows it: the percent is rounded when
 * told, so a turn that moves it by less than a point writes nothing. `full`:
 * the window's request was refused as too long, whatever the last percent. */
export type ContextFigure = { kind: 'none' } | { kind: 'full' } | { kind: 'hint' | 'urgent'; percent: number }

/** What the status line was told: the run's stage text (null with no run) and
 * the figure from the latest idle turn's end. */
export type StatusLineTold = { stage: string | null; figure: ContextFigure }

export const NO_FIGURE: ContextFigure = { kind: 'none' }

export const FULL_FIGURE: ContextFigure = { kind: 'full' }

export const NOTHING_TOLD: StatusLineTold = { stage: null, figure: NO_FIGURE }

/** The figure for `percent` of the context window (undefined in a fresh window),
 * measured against the nudge's threshold as the nudge measures it: unrounded. */
export function contextFigureOf(percent: number | undefined, nudgePercent: number): ContextFigure {
  if (percent === undefined || !Number.isFinite(percent) || percent < nudgePercent - HINT_POINTS) return NO_FIGURE
  return { kind: percent >= nudgePercent ? 'urgent' : 'hint', percent: Math.round(percent) }
}

/** The figure at a main-loop turn's end: `full` stands until a turn is
 * answered (the window is full whatever percent the last answered request
 * left), else the use's figure. */
export function figureAfterTurnOf(was: ContextFigure, percent: number | undefined, nudgePercent: number, isAnswered: boolean): ContextFigure {
  return was.kind === 'full' && !isAnswered ? was : contextFigureOf(percent, nudgePercent)
}

/** `told` with the run's stage; the same object when the stage is unchanged. */
export function withStage(told: StatusLineTold, stage: string | undefined): StatusLineTold {
  const next = stage ?? null
  return next === told.stage ? told : { ...told, stage: next }
}

/** `told` with the figure; the same object when the figure is unchanged. */
export function withFigure(told: StatusLineTold, figure: ContextFigure): StatusLineTold {
  const was = told.figure
  const isSame = figure.kind === 'none' || figure.kind === 'full' ? was.kind === figure.kind : was.kind === figure.kind && was.percent === figure.percent
  return isSame ? told : { ...told, figure }
}

/** What the line says of the context for the figure, advising only a
 * command that works in that state; undefined for none. Full, a request
 * refused as too long: /compact-handoff's skill turn carries the whole
 * conversation and would be refused too, while /compact is answered from a
 * digest (compaction/digest-steps.ts), or by Claude Code's trimmed summary
 * under compactionHandoff off. */
export function contextAdviceOf(figure: ContextFigure): string | undefined {
  switch (figure.kind) {
    case 'none':
      return undefined
    case 'hint':
      return `context ${figure.percent}%`
    case 'urgent':
      return `context ${figure.percent}% · time for /compact-handoff`
    case 'full':
      return 'context full · /compact to go on'
  }
}

/** The line to draw, or undefined for none. */
export function statusLineOf(told: StatusLineTold): string | undefined {
  if (told.stage !== null) return `handoff: ${told.stage}`
  const advice = contextAdviceOf(told.figure)
  return advice === undefined ? undefined : `handoff: ${advice}`
}
