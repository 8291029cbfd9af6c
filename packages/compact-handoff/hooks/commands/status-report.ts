// The text of /compact-handoff status.
import { MAX_REPAIRS, stageTextOf, type Mode, type Phase } from '../run/run.js'
import { meterTextOf } from '../facts/follow-up.js'
import { autoHandoffReportTextOf } from '../thresholds/auto-handoff.js'

export type StatusReportInput = {
  phase: Phase
  nowMs: number
  contextPercent: number | undefined
  nudgePercent: number
  autoHandoffPercent: number
  words: { count: number; chars: number }
  /** Newest swap-log lines, oldest first. */
  recentLog: readonly string[]
  /** What the context re-did since the last swap, when the meter was watching. */
  meter?: { since: string; reReads: readonly string[]; repeatedCommands: readonly string[] }
}

function tailOf(facts: StatusReportInput): string[] {
  const lines = [`User messages recorded for the next stub: ${facts.words.count} (${facts.words.chars} characters).`]
  if (facts.meter !== undefined) lines.push(`Since ${facts.meter.since}: ${meterTextOf(facts.meter)}.`)
  if (facts.recentLog.length > 0) lines.push('From the swap log:', ...facts.recentLog.map((l) => `  ${l}`))
  return lines
}

/** What a person reads for each kind of run: named by what it writes. */
const RUN_KIND_TEXT: Readonly<Record<Mode, string>> = { handoff: 'Handoff run', plan: 'Plan run' }

function durationText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000))
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`
}

export function statusReportOf(facts: StatusReportInput): string {
  const { phase } = facts
  const context = `context ${facts.contextPercent === undefined ? 'unknown' : `${Math.round(facts.contextPercent)}%`}; nudge at ${facts.nudgePercent}%; ${autoHandoffReportTextOf(facts.autoHandoffPercent)}`
  if (phase.kind === 'idle') return [`No handoff run under way; ${context}.`, ...tailOf(facts)].join('\n')
  const { run } = phase
  const files = run.files.length === 0 ? 'none yet' : run.files.map((f) => f.relPath).join(', ')
  return [
    `${RUN_KIND_TEXT[run.mode]} ${phase.kind} (${stageTextOf(phase)})${run.focus === '' ? '' : `, focus "${run.focus}"`}, running for ${durationText(facts.nowMs - run.startedAtMs)}.`,
    `Files recorded: ${files}.`,
    `Messages typed during the run, held until the swap: ${run.held.length + run.heldCommands.length}.`,
    ...(run.repairs > 0 ? [`Repair turns asked for: ${run.repairs} of ${MAX_REPAIRS}.`] : []),
    `${context[0]?.toUpperCase()}${context.slice(1)}.`,
    ...tailOf(facts),
    phase.kind === 'reviewed' ? 'Apply with /compact-handoff apply, or drop it with /compact-handoff cancel.' : 'Cancel with /compact-handoff cancel.',
  ].join('\n')
}
