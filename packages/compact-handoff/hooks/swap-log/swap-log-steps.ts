// Writes the swap log (swap-log.ts decides its lines). A log that cannot be
// written costs the run nothing: it is a record, not a step of the swap. It
// sits in the project folder, beside handoffs people commit, so every text in
// it is masked: reasons and file paths here, the meter's paths and commands
// where they were recorded (work-steps.ts).
import type { EngineInterface } from 'claude-code'
import { SWAP_LOG_PATH, logReadRangeOf, logTextWith, recentLogLinesOf, tailLinesOf, type AfterSwapEntry, type CompactionTrigger, type LogEntry, type Outcome } from './swap-log.js'
import type { Run } from '../run/run.js'
import { inFolder } from '../protocol/protocol-paths.js'
import { maskedText } from '../facts/mask-steps.js'

type $ = EngineInterface

type Unstamped<E> = E extends unknown ? Omit<E, 'time' | 'sessionId'> : never

/** The log's newest whole lines, stat first: all of it while it is within its
 * cap, else only its tail (a read over 4 MiB rejects). '' when there is no
 * log; a log that is there but cannot be read rejects, so it is never
 * rewritten from nothing. */
async function logTailOf($: $, logPath: string): Promise<string> {
  const stat = await $.fs.stat(logPath).catch(() => undefined)
  if (stat === undefined) return ''
  const range = logReadRangeOf(stat.size)
  if (range === undefined) return await $.fs.read(logPath)
  return tailLinesOf(await $.fs.read(logPath, { offset: range.offset, length: range.length }))
}

/** Appends one entry, stamped with the time and the session. */
async function appendEntry($: $, cwd: string, entry: Unstamped<LogEntry | AfterSwapEntry>): Promise<void> {
  try {
    const logPath = inFolder(cwd, SWAP_LOG_PATH)
    const existing = await logTailOf($, logPath)
    const stamped = { time: new Date(await $.clock.now()).toISOString(), sessionId: await $.session.id(), ...entry } as LogEntry | AfterSwapEntry
    await $.fs.write(logPath, logTextWith(existing, stamped))
  } catch (error) {
    $.ui.log(`could not write ${SWAP_LOG_PATH} (${error instanceof Error ? error.message : String(error)})`, { to: 'debug' })
  }
}

export async function appendAfterSwapLog($: $, cwd: string, entry: Unstamped<AfterSwapEntry>): Promise<void> {
  await appendEntry($, cwd, entry)
}

export async function appendSwapLog($: $, run: Run, outcome: Outcome, files: readonly string[], reason?: string): Promise<void> {
  const sized = []
  for (const path of files) {
    const stat = await $.fs.stat(inFolder(run.cwd, path)).catch(() => undefined)
    sized.push({ path: await maskedText($, path), bytes: stat?.size ?? 0 })
  }
  await appendEntry($, run.cwd, {
    mode: run.mode,
    trigger: run.apply === 'review' ? 'apply' : run.trigger,
    files: sized,
    contextPercentBefore: run.contextPercentBefore,
    outcome,
    // A reason can quote the skill's sentinel, written by the model.
    ...(reason !== undefined ? { reason: await maskedText($, reason) } : {}),
    messagesHeld: run.held.length + run.heldCommands.length,
    repairs: run.repairs,
  })
}

/** One of the engine's compactions, answered with a fork's handoff or, when
 * the fork gave none that passed, left to the engine's summary. */
export async function appendCompactionLog(
  $: $,
  cwd: string,
  entry: { trigger: CompactionTrigger; outcome: Extract<Outcome, 'compaction-handoff' | 'compaction-summarized' | 'compaction-kept'>; files: { path: string; bytes: number }[]; contextPercentBefore: number | null; reason?: string; repairs: number },
): Promise<void> {
  const { reason, ...rest } = entry
  const files = []
  for (const file of rest.files) files.push({ ...file, path: await maskedText($, file.path) })
  await appendEntry($, cwd, { mode: 'handoff', ...rest, files, ...(reason !== undefined ? { reason: await maskedText($, reason) } : {}), messagesHeld: 0 })
}

/** The log's newest `count` entries as /compact-handoff status shows them;
 * none when the log cannot be read. */
export async function recentSwapLog($: $, cwd: string, count: number): Promise<string[]> {
  return recentLogLinesOf(await logTailOf($, inFolder(cwd, SWAP_LOG_PATH)).catch(() => ''), count)
}

/** A resume in a fresh session, logged like a swap so the offer never names it again. */
export async function appendResumeLog($: $, cwd: string, handoff: string, bytes: number, contextPercentBefore: number | null): Promise<void> {
  await appendEntry($, cwd, {
    trigger: 'command',
    files: [{ path: await maskedText($, handoff), bytes }],
    contextPercentBefore,
    outcome: 'resumed',
    messagesHeld: 0,
    repairs: 0,
  })
}
