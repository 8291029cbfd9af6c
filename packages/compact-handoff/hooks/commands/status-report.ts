// The status report: the text of /compact-handoff status (not the status line,
// status-line/). It is for the person alone (the command answers it display
// only), and it fits one screen: at most MAX_REPORT_LINES lines of at most
// REPORT_LINE_CHARS characters, so the engine draws it whole in 24 rows at 80
// columns beside its own command row and prompt box. A text the report did
// not write itself (a focus, a path, a log's reason) is quoted and cut short.
import { MAX_REPAIRS, stageTextOf, type Phase } from '../run/run.js'
import type { Mode } from '../protocol/protocol.js'
import { autoHandoffReportTextOf } from '../thresholds/auto-handoff.js'
import { REPORT_LINE_CHARS, meterCountsTextOf, quotedOf } from '../swap-log/swap-log.js'

/** Lines the report holds at most: 24 rows, less the engine's own around it
 * (the command's row, a blank one, the prompt box and its rules, the mode line). */
export const MAX_REPORT_LINES = 17
/** Swap-log lines shown at most. */
export const MAX_REPORT_LOG_LINES = 3
/** Lines on files that are no log (swap-log/swap-log.ts notALogLinesOf):
 * two files and what to do. */
const MAX_REPORT_NOTE_LINES = 3

export type StatusReportInput = {
  phase: Phase
  nowMs: number
  contextPercent: number | undefined
  nudgePercent: number
  autoHandoffPercent: number
  words: { count: number; chars: number }
  /** Newest swap-log lines, oldest first, already worded (swap-log/swap-log.ts). */
  recentLog: readonly string[]
  /** Lines on files at a log's path that are no swap log, left alone. */
  logNotes: readonly string[]
  /** What the context re-did since the last swap, a resume or a compaction,
   * when the meter was watching: `handoff` is the handoff's path. */
  meter?: { handoff: string | undefined; reReads: readonly string[]; repeatedCommands: readonly string[]; recalls?: number }
}

/** `words` and a text of someone else's, quoted in what is left of the line. */
function withQuote(words: string, text: string, keep: 'head' | 'tail', end = '.'): string {
  return `${words}${quotedOf(text, REPORT_LINE_CHARS - words.length - end.length, keep)}${end}`
}

function contextLineOf(input: StatusReportInput): string {
  const used = input.contextPercent === undefined ? 'Context use not known yet' : `Context ${Math.round(input.contextPercent)}% used`
  return `${used} · nudge at ${input.nudgePercent}% · ${autoHandoffReportTextOf(input.autoHandoffPercent)}.`
}

function meterLineOf(meter: NonNullable<StatusReportInput['meter']>): string {
  const counts = `: ${meterCountsTextOf(meter.reReads.length, meter.repeatedCommands.length, meter.recalls)}.`
  return meter.handoff === undefined ? `Since the last compaction${counts}` : withQuote('Since ', meter.handoff, 'tail', counts)
}

function tailOf(input: StatusReportInput): string[] {
  const lines = [`Your messages the next handoff will carry: ${input.words.count} (${input.words.chars} characters).`]
  if (input.meter !== undefined) lines.push(meterLineOf(input.meter))
  const log = input.recentLog.slice(-MAX_REPORT_LOG_LINES)
  if (log.length > 0) lines.push('Swap log, newest last (as its files say):', ...log.map((l) => `  ${l}`))
  return [...lines, ...input.logNotes.slice(0, MAX_REPORT_NOTE_LINES)]
}

/** What a person reads for each kind of run: named by what it writes. */
const RUN_KIND_TEXT: Readonly<Record<Mode, string>> = { handoff: 'Handoff run', plan: 'Plan run' }

function durationText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000))
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`
}

function filesLineOf(paths: readonly string[]): string {
  if (paths.length === 0) return 'Files so far: none.'
  const more = paths.length > 1 ? ` (+${paths.length - 1})` : ''
  return withQuote('Files so far: ', paths[0]!, 'tail', `${more}.`)
}

export function statusReportOf(input: StatusReportInput): string {
  const { phase } = input
  if (phase.kind === 'idle') return ['No handoff run under way.', contextLineOf(input), ...tailOf(input)].join('\n')
  const { run } = phase
  return [
    `${RUN_KIND_TEXT[run.mode]} under way for ${durationText(input.nowMs - run.startedAtMs)}.`,
    `Now: ${stageTextOf(phase)}.`,
    ...(run.focus === '' ? [] : [withQuote('Focus: ', run.focus, 'head')]),
    filesLineOf(run.files.map((f) => f.relPath)),
    `Messages you typed meanwhile, held for after the swap: ${run.held.length + run.heldCommands.length}.`,
    ...(run.repairs > 0 ? [`Repair turns asked for: ${run.repairs} of ${MAX_REPAIRS}.`] : []),
    contextLineOf(input),
    ...tailOf(input),
    phase.kind === 'reviewed' ? '/compact-handoff apply swaps it in; /compact-handoff cancel drops it.' : 'Cancel with /compact-handoff cancel.',
  ].join('\n')
}
