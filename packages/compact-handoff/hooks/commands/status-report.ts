// The status report: the text of /compact-handoff status (not the status line, status-line/).
import { MAX_REPAIRS, stageTextOf, type Phase } from '../run/run.js'
import type { Mode } from '../protocol/protocol.js'
import { meterTextOf } from '../meter/meter.js'
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
  meter?: { since: string; reReads: readonly string[]; repeatedCommands: readonly string[]; recalls?: number }
}

function tailOf(input: StatusReportInput): string[] {
  const lines = [`User messages recorded for the next stub: ${input.words.count} (${input.words.chars} characters).`]
  if (input.meter !== undefined) lines.push(`Since ${input.meter.since}: ${meterTextOf(input.meter)}.`)
  if (input.recentLog.length > 0) lines.push('From the swap log:', ...input.recentLog.map((l) => `  ${l}`))
  return lines
}

/** What a person reads for each kind of run: named by what it writes. */
const RUN_KIND_TEXT: Readonly<Record<Mode, string>> = { handoff: 'Handoff run', plan: 'Plan run' }

function durationText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000))
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`
}

export function statusReportOf(input: StatusReportInput): string {
  const { phase } = input
  const context = `context ${input.contextPercent === undefined ? 'unknown' : `${Math.round(input.contextPercent)}%`}; nudge at ${input.nudgePercent}%; ${autoHandoffReportTextOf(input.autoHandoffPercent)}`
  if (phase.kind === 'idle') return [`No handoff run under way; ${context}.`, ...tailOf(input)].join('\n')
  const { run } = phase
  const files = run.files.length === 0 ? 'none yet' : run.files.map((f) => f.relPath).join(', ')
  return [
    `${RUN_KIND_TEXT[run.mode]} ${phase.kind} (${stageTextOf(phase)})${run.focus === '' ? '' : `, focus "${run.focus}"`}, running for ${durationText(input.nowMs - run.startedAtMs)}.`,
    `Files recorded: ${files}.`,
    `Messages typed during the run, held until the swap: ${run.held.length + run.heldCommands.length}.`,
    ...(run.repairs > 0 ? [`Repair turns asked for: ${run.repairs} of ${MAX_REPAIRS}.`] : []),
    `${context[0]?.toUpperCase()}${context.slice(1)}.`,
    ...tailOf(input),
    phase.kind === 'reviewed' ? 'Apply with /compact-handoff apply, or drop it with /compact-handoff cancel.' : 'Cancel with /compact-handoff cancel.',
  ].join('\n')
}
