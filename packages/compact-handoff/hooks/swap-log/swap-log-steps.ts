// Writes the swap log (swap-log.ts decides its lines), through the one rule
// for project files (disk/disk-rule.ts). A log that cannot be written costs
// the run nothing: it is a record, not a step of the swap. It
// sits in the project folder, beside handoffs people commit, so every text in
// it is masked: reasons and file paths here, the meter's paths and commands
// where they were recorded (work-steps.ts).
import type { EngineInterface } from 'claude-code'
import { SWAP_LOG_PATH, logReadRangeOf, logTextWith, readsAsSwapLog, recentLogLinesOf, tailLinesOf, type AfterSwapEntry, type CompactionTrigger, type LogEntry, type Outcome } from './swap-log.js'
import { inFolder } from '../protocol/protocol-paths.js'
import { maskedText } from '../text/mask-steps.js'
import { folderInputOf } from '../ownership/folder-steps.js'
import { projectFileOnDisk, writeProjectFile } from '../disk/disk-steps.js'
import type { ProjectFolder } from '../disk/disk-rule.js'
import type { Mode } from '../protocol/protocol.js'

type $ = EngineInterface

type Unstamped<E> = E extends unknown ? Omit<E, 'time' | 'sessionId'> : never

/** The log's newest whole lines from a file of `size` bytes: all of it while
 * it is within its cap, else only its tail (a read over 4 MiB rejects). A
 * log that is there but cannot be read rejects, so it is never rewritten
 * from nothing. */
async function logTailOf($: $, logPath: string, size: number): Promise<string> {
  const range = logReadRangeOf(size)
  if (range === undefined) return await $.fs.read(logPath)
  return tailLinesOf(await $.fs.read(logPath, { offset: range.offset, length: range.length }))
}

/** The log as the one rule finds it (disk-rule.ts): its text ('' when there
 * is none yet), or why it is left alone. */
async function logOnDisk($: $, folder: ProjectFolder): Promise<{ kind: 'absent' | 'present'; text: string } | { kind: 'refused'; why: string }> {
  const found = await projectFileOnDisk($, folder, SWAP_LOG_PATH)
  if (found.verdict.kind !== 'present') return found.verdict.kind === 'absent' ? { kind: 'absent', text: '' } : found.verdict
  const text = await logTailOf($, inFolder(folder.cwd, SWAP_LOG_PATH), found.stat?.size ?? 0)
  return readsAsSwapLog(text) ? { kind: 'present', text } : { kind: 'refused', why: `${SWAP_LOG_PATH} does not read as a swap log, and is left as it is` }
}

function skipped($: $, why: string): void {
  $.ui.log(`the swap log was not written: ${why}`, { to: 'debug' })
}

/** Appends one entry, stamped with the time and the session; skipped, with a
 * note in the debug log, wherever the one rule refuses the log. */
/** The append under way in this process: each append reads the whole log and
 * writes it back, so two at once (a swap's line and the first turn's check after
 * it, seen live) would drop one; they go one after another. */
let appending: Promise<void> = Promise.resolve()

function appendEntry($: $, cwd: string, entry: Unstamped<LogEntry | AfterSwapEntry>): Promise<void> {
  appending = appending.then(() => appendNow($, cwd, entry))
  return appending
}

async function appendNow($: $, cwd: string, entry: Unstamped<LogEntry | AfterSwapEntry>): Promise<void> {
  try {
    const folder = { cwd, ...(await folderInputOf($, cwd)) }
    const log = await logOnDisk($, folder)
    if (log.kind === 'refused') return skipped($, log.why)
    const stamped = { time: new Date(await $.clock.now()).toISOString(), sessionId: await $.session.id(), ...entry } as LogEntry | AfterSwapEntry
    const written = await writeProjectFile($, folder, SWAP_LOG_PATH, logTextWith(log.text, stamped), log.kind)
    if (!written.isWritten) skipped($, written.why)
  } catch (error) {
    $.ui.log(`could not write ${SWAP_LOG_PATH} (${error instanceof Error ? error.message : String(error)})`, { to: 'debug' })
  }
}

export async function appendAfterSwapLog($: $, cwd: string, entry: Unstamped<AfterSwapEntry>): Promise<void> {
  await appendEntry($, cwd, entry)
}

/** What a swap's line says of its run (run.ts Run has these fields). */
export type LoggedRun = {
  cwd: string
  mode: Mode
  apply: 'now' | 'review'
  trigger: 'command' | 'auto-handoff'
  contextPercentBefore: number | null
  held: readonly string[]
  heldCommands: readonly string[]
  repairs: number
}

export async function appendSwapLog($: $, run: LoggedRun, outcome: Outcome, files: readonly string[], reason?: string): Promise<void> {
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
  const log = await folderInputOf($, cwd).then((folder) => logOnDisk($, { cwd, ...folder })).catch(() => undefined)
  return log === undefined || log.kind === 'refused' ? [] : recentLogLinesOf(log.text, count)
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
