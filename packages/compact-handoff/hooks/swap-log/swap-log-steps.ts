// Writes and reads the swap log (swap-log.ts decides its lines) through the
// one rule for project files (disk/disk-rule.ts). A log that cannot be
// written costs the run nothing: it is a record, not a step of the swap.
import type { EngineInterface } from 'claude-code'
import { MAX_LOG_BYTES, MAX_LOG_LIST_ITEMS, SWAP_LOG_FOLDER, logLinesOf, logTextWith, notALogLinesOf, reportLinesOf, sessionLogPathOf, type LogEntry } from './swap-log.js'
import { inFolder } from '../protocol/protocol-paths.js'
import { maskedText } from '../text/mask-steps.js'
import { folderInputOf, listProjectFolder, projectFileOnDisk, writeProjectFile } from '../disk/disk-steps.js'
import type { ProjectFolder } from '../disk/disk-rule.js'
import { messageOf } from '../text/text-clip.js'

type $ = EngineInterface

/** The log at `relPath`: its entry lines (none yet when it is absent), or why
 * it is left alone. A file larger than any log (judged before it is read) or
 * not wholly a log (a clone's, a hand edit) is never cut or rewritten; a log
 * that cannot be read rejects, so it is never rewritten from nothing. */
async function logOnDisk($: $, folder: ProjectFolder, relPath: string): Promise<{ kind: 'absent' | 'present'; lines: string[] } | { kind: 'refused'; why: string }> {
  const found = await projectFileOnDisk($, folder, relPath)
  if (found.verdict.kind !== 'present') return found.verdict.kind === 'absent' ? { kind: 'absent', lines: [] } : found.verdict
  if ((found.stat?.size ?? MAX_LOG_BYTES + 1) > MAX_LOG_BYTES) return { kind: 'refused', why: `${relPath} is larger than a swap log ever grows, so it is no swap log, and is left as it is` }
  const lines = logLinesOf(await $.fs.read(inFolder(folder.cwd, relPath)))
  return lines !== undefined ? { kind: 'present', lines } : { kind: 'refused', why: `${relPath} does not read as a swap log, and is left as it is` }
}

/** The append under way in this process: each reads this session's log and
 * writes it back, so two at once (a swap's line and the first turn's check
 * after it, seen live) would drop one; they go one after another. */
let appending: Promise<void> = Promise.resolve()

/** Appends one entry to this session's log, stamped with the time and the
 * session, every text masked first (the log sits beside handoffs people
 * commit); skipped, with a note in the debug log, where the one rule refuses. */
export function appendSwapLog($: $, cwd: string, entry: Omit<LogEntry, 'time' | 'sessionId'>): Promise<void> {
  appending = appending.then(async () => {
    const skipped = (why: string) => $.ui.log(`the swap log was not written: ${why}`, { to: 'debug' })
    try {
      const sessionId = await $.session.id()
      const relPath = sessionLogPathOf(sessionId)
      if (relPath === undefined) return skipped(`the session id ${JSON.stringify(sessionId.slice(0, 100))} names no file`)
      const folder = await folderInputOf($, cwd)
      const log = await logOnDisk($, folder, relPath)
      if (log.kind === 'refused') return skipped(log.why)
      const masked = (texts: readonly string[]) => Promise.all(texts.slice(0, MAX_LOG_LIST_ITEMS).map((text) => maskedText($, text)))
      const { reason, reReads, repeatedCommands } = entry
      // `time` first: logLinesOf knows a line cut short by how every line opens.
      const stamped: LogEntry = {
        time: new Date(await $.clock.now()).toISOString(),
        sessionId,
        ...entry,
        files: await masked(entry.files),
        reason: reason && (await maskedText($, reason)),
        reReads: reReads && (await masked(reReads)),
        repeatedCommands: repeatedCommands && (await masked(repeatedCommands)),
      }
      const written = await writeProjectFile($, folder, relPath, logTextWith(log.lines, stamped), log.kind)
      if (!written.isWritten) skipped(written.why)
    } catch (error) {
      $.ui.log(`could not write the swap log (${messageOf(error)})`, { to: 'debug' })
    }
  })
  return appending
}

/** What /compact-handoff status shows of the logs: the newest `count`
 * entries of this session's log and the newest `count` others by time
 * written (each one's newest line was written at its mtime, so the newest
 * lines are in them), and a note for each file at a log's path that is no
 * log. A log that cannot be read is left out. */
export async function recentSwapLog($: $, cwd: string, count: number): Promise<{ lines: string[]; notes: string[] }> {
  const folder = await folderInputOf($, cwd)
  const own = sessionLogPathOf(await $.session.id())
  const listed = await listProjectFolder($, folder, SWAP_LOG_FOLDER)
  const others = listed.filter((entry) => entry.kind === 'file' && entry.name.endsWith('.jsonl')).sort((a, b) => b.mtimeMs - a.mtimeMs).map((entry) => `${SWAP_LOG_FOLDER}/${entry.name}`).filter((relPath) => relPath !== own)
  const logs: string[][] = []
  const notLogs: { relPath: string; isThisSession: boolean }[] = []
  for (const relPath of [...(own === undefined ? [] : [own]), ...others.slice(0, count)]) {
    const log = await logOnDisk($, folder, relPath).catch(() => undefined)
    if (log?.kind === 'refused') notLogs.push({ relPath, isThisSession: relPath === own })
    else if (log !== undefined) logs.push(log.lines)
  }
  return { lines: reportLinesOf(logs, count), notes: notALogLinesOf(notLogs) }
}
