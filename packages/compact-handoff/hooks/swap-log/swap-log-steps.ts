// Writes the swap log (swap-log.ts decides its lines), through the one rule
// for project files (disk/disk-rule.ts). A log that cannot be written costs
// the run nothing: it is a record, not a step of the swap. It
// sits in the project folder, beside handoffs people commit, so every text in
// it is masked: reasons and file paths here, the meter's paths and commands
// where they were recorded (work-steps.ts).
import type { EngineInterface } from 'claude-code'
import { MAX_LOG_BYTES, OLD_SWAP_LOG_PATH, SWAP_LOG_FOLDER, isSessionLogName, logSizeRefusalOf, logTextRefusalOf, logTextWith, sessionLogPathOf, type AfterSwapEntry, type CompactionTrigger, type LogEntry, type Outcome } from './swap-log.js'
import { newestEntriesOf, notALogLinesOf, reportEntriesOf, type ReportEntry } from './log-report.js'
import { inFolder } from '../protocol/protocol-paths.js'
import { maskedText } from '../text/mask-steps.js'
import { folderInputOf } from '../ownership/folder-steps.js'
import { listProjectFolder, projectFileOnDisk, writeProjectFile } from '../disk/disk-steps.js'
import type { ProjectFolder } from '../disk/disk-rule.js'
import type { Mode } from '../protocol/protocol.js'

type $ = EngineInterface

type Unstamped<E> = E extends unknown ? Omit<E, 'time' | 'sessionId'> : never

/** The log at `relPath` as the one rule finds it (disk-rule.ts): its whole
 * text ('' when there is none yet), or why it is left alone. Judged by its
 * size before it is read, then over its whole text, so a file there that is
 * no swap log (a clone's, a hand edit) is never cut or rewritten. A log that
 * is there but cannot be read rejects, so it is never rewritten from nothing. */
async function logOnDisk($: $, folder: ProjectFolder, relPath: string): Promise<{ kind: 'absent' | 'present'; text: string } | { kind: 'refused'; why: string; isNoLog: boolean }> {
  const found = await projectFileOnDisk($, folder, relPath)
  if (found.verdict.kind !== 'present') return found.verdict.kind === 'absent' ? { kind: 'absent', text: '' } : { ...found.verdict, isNoLog: false }
  const tooLarge = logSizeRefusalOf(relPath, found.stat?.size ?? MAX_LOG_BYTES + 1)
  if (tooLarge !== undefined) return { kind: 'refused', why: tooLarge, isNoLog: true }
  const text = await $.fs.read(inFolder(folder.cwd, relPath))
  const notLog = logTextRefusalOf(relPath, text)
  return notLog === undefined ? { kind: 'present', text } : { kind: 'refused', why: notLog, isNoLog: true }
}

function skipped($: $, why: string): void {
  $.ui.log(`the swap log was not written: ${why}`, { to: 'debug' })
}

/** The append under way in this process: each append reads this session's
 * log and writes it back, so two at once (a swap's line and the first turn's
 * check after it, seen live) would drop one; they go one after another.
 * Another session writes only its own file. */
let appending: Promise<void> = Promise.resolve()

/** Appends one entry to this session's log, stamped with the time and the
 * session; skipped, with a note in the debug log, wherever the one rule
 * refuses the log. */
function appendEntry($: $, cwd: string, entry: Unstamped<LogEntry | AfterSwapEntry>): Promise<void> {
  appending = appending.then(() => appendNow($, cwd, entry))
  return appending
}

async function appendNow($: $, cwd: string, entry: Unstamped<LogEntry | AfterSwapEntry>): Promise<void> {
  try {
    const sessionId = await $.session.id()
    const relPath = sessionLogPathOf(sessionId)
    if (relPath === undefined) return skipped($, `the session id ${JSON.stringify(sessionId.slice(0, 100))} names no file`)
    const folder = { cwd, ...(await folderInputOf($, cwd)) }
    const log = await logOnDisk($, folder, relPath)
    if (log.kind === 'refused') return skipped($, log.why)
    const stamped = { time: new Date(await $.clock.now()).toISOString(), sessionId, ...entry } as LogEntry | AfterSwapEntry
    const written = await writeProjectFile($, folder, relPath, logTextWith(log.text, stamped), log.kind)
    if (!written.isWritten) skipped($, written.why)
  } catch (error) {
    $.ui.log(`could not write the swap log (${error instanceof Error ? error.message : String(error)})`, { to: 'debug' })
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

/** One of the engine's compactions and what replaced the conversation, if
 * anything did (Outcome). */
export async function appendCompactionLog(
  $: $,
  cwd: string,
  entry: { trigger: CompactionTrigger; outcome: Extract<Outcome, `compaction-${string}`>; files: { path: string; bytes: number }[]; contextPercentBefore: number | null; reason?: string; repairs: number },
): Promise<void> {
  const { reason, ...rest } = entry
  const files = []
  for (const file of rest.files) files.push({ ...file, path: await maskedText($, file.path) })
  await appendEntry($, cwd, { mode: 'handoff', ...rest, files, ...(reason !== undefined ? { reason: await maskedText($, reason) } : {}), messagesHeld: 0 })
}

/** The logs the report reads: this session's, the newest `count` others by
 * time written (each one's newest line was written at its mtime, so the
 * newest `count` lines are in them), and the old shared log. */
async function logPathsToRead($: $, folder: ProjectFolder, own: string | undefined, count: number): Promise<string[]> {
  const listed = await listProjectFolder($, folder, SWAP_LOG_FOLDER)
  const logs = listed.filter((entry) => entry.kind === 'file' && isSessionLogName(entry.name)).sort((a, b) => b.mtimeMs - a.mtimeMs)
  const others = logs.map((entry) => `${SWAP_LOG_FOLDER}/${entry.name}`).filter((relPath) => relPath !== own)
  return [...(own === undefined ? [] : [own]), ...others.slice(0, count), OLD_SWAP_LOG_PATH]
}

/** What /compact-handoff status shows of the logs: their newest `count`
 * entries together, and a note for each file at a log's path that is no swap
 * log (left alone). A log that cannot be read is left out. */
export async function recentSwapLog($: $, cwd: string, count: number): Promise<{ lines: string[]; notes: string[] }> {
  const folder = { cwd, ...(await folderInputOf($, cwd)) }
  const own = sessionLogPathOf(await $.session.id())
  const entries: ReportEntry[][] = []
  const notLogs: { relPath: string; isThisSession: boolean }[] = []
  for (const relPath of await logPathsToRead($, folder, own, count)) {
    const log = await logOnDisk($, folder, relPath).catch(() => undefined)
    if (log === undefined) continue
    if (log.kind !== 'refused') entries.push(reportEntriesOf(log.text))
    else if (log.isNoLog) notLogs.push({ relPath, isThisSession: relPath === own })
  }
  return { lines: newestEntriesOf(entries, count), notes: notALogLinesOf(notLogs) }
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
