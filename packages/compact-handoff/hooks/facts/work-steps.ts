// Records the work's facts from the main loop's tool calls and runs the
// rediscovery meter (facts.ts and meter/meter.ts decide; this applies); writes
// the hot path's held records, a typed prompt's words among them.
import type { EngineInterface } from 'claude-code'
import { TOASTS } from '../text/toasts.js'
import { showToast } from '../text/toast-steps.js'
import { exitCodeOf, shownPath, withChange, withCommand, withRead, clippedCommandOf } from './facts.js'
import { meterAfterTurn, meterWithCommand, meterWithRead, meterWithRecall, watchingAfter, type After, type Watched } from '../meter/meter.js'
import { inFolder } from '../protocol/protocol-paths.js'
import { changeHeldWork, readHeldWork, readWork, updateWork } from './facts-state.js'
import { updateWords } from '../words/words-state.js'
import { withUserMessage } from '../words/user-words.js'
import { flushHeld, holdRecord, recordLater, type HeldRecord } from '../state/record-queue.js'
import { workWith, type WorkRecord } from './work.js'
import { appendSwapLog } from '../swap-log/swap-log-steps.js'
import { UNMASKED_TEXT, maskedText, maskedTexts } from '../text/mask-steps.js'
import { backgroundTaskIdOf } from '../background/running.js'
import { recordShellStarted } from '../background/running-steps.js'

type $ = EngineInterface

const UNREAD_TOAST_MS = 10_000

type ToolCall = { tool: string; agentId?: string; file_path?: unknown; command?: unknown }
type ToolOutcome = { deny?: string; isError?: true; text?: string; result?: unknown }
type FactRecord = Exclude<HeldRecord, { kind: 'words' }>

/** After a main-loop tool call: what it did is held for the facts, and for the
 * meter while one watches. Decided from the call alone, with no `$` call: a
 * subagent's call, a refused one, or a failed Read or Edit records nothing. */
export function holdToolCall($: $, call: ToolCall, outcome: ToolOutcome): void {
  if (call.agentId !== undefined || outcome.deny !== undefined) return
  const { command } = call
  if (call.tool === 'Bash') {
    if (typeof command !== 'string') return
    // Moved to the background, the command was answered at once and goes on:
    // started, not ended; its shell is recorded now, stamped with the time it started.
    const shellId = outcome.isError === true ? undefined : backgroundTaskIdOf(outcome.result)
    hold($, { kind: 'command', text: command, exitCode: exitCodeOf(outcome), ...(shellId !== undefined ? { shellId } : {}) })
    if (shellId !== undefined) recordLater(async () => recordShellStarted($, shellId, clippedCommandOf(await maskedText($, command))))
    return
  }
  if (outcome.isError === true || typeof call.file_path !== 'string') return
  hold($, { kind: call.tool === 'Read' ? 'read' : 'change', text: call.file_path })
}

/** Holds `record` (a tool call's, a typed prompt's words) for the next flush. */
export function hold($: $, record: HeldRecord): void {
  holdRecord(record, (records) => flushRecords($, records))
}

/** Flushes the held records and waits for every record queued so far: a hook
 * that reads them calls this first. */
export function recordsWritten($: $): Promise<void> {
  return flushHeld((records) => flushRecords($, records))
}

/** The distinct texts masked together (one redact call while they fit one),
 * in the same hop as one read of the work record and of the words; then every change applied in order (the meter
 * counts a repeat by what came before it), one write of each. */
async function flushRecords($: $, records: readonly HeldRecord[]): Promise<void> {
  const facts = records.flatMap((r) => (r.kind === 'words' ? [] : [r]))
  const said = records.flatMap((r) => (r.kind === 'words' ? [r.text] : []))
  const texts = [...new Set(facts.map((r) => r.text))]
  const [masked, work] = await Promise.all([
    maskedTexts($, texts),
    facts.length > 0 ? readHeldWork($) : undefined,
    said.length > 0 ? updateWords($, (w) => said.reduce(withUserMessage, w)) : undefined,
  ])
  const maskedOf = new Map(texts.map((text, i) => [text, masked[i]]))
  if (work !== undefined) await changeHeldWork($, work, (w) => facts.reduce((was, r) => workAfter(was, r, maskedOf.get(r.text) ?? UNMASKED_TEXT), w))
}

/** `work` after one held record of a tool call, its text masked. */
function workAfter(work: WorkRecord, record: FactRecord, text: string): WorkRecord {
  if (record.kind !== 'command') return record.kind === 'read' ? workWith(work, withRead(work.facts, text), meterWithRead(work.meter, text)) : workWith(work, withChange(work.facts, text), work.meter)
  const line = clippedCommandOf(text)
  return workWith(work, withCommand(work.facts, line, record.exitCode, record.shellId), meterWithCommand(work.meter, line))
}

/** A main-loop call of the recall tool: the meter, while one watches, counts it
 * apart from the files read again and the commands run again. */
export async function recordRecallCall($: $): Promise<void> {
  await updateWork($, (w) => ({ ...w, meter: meterWithRecall(w.meter) }))
}

/** Starts the meter after a swap or a resume of `handoff` (relative to `cwd`);
 * a window still open is closed and logged first. */
export async function watchAfter($: $, cwd: string, kind: 'swapped' | 'resumed', handoff: string): Promise<void> {
  await logClosed($, cwd, await startWatching($, await afterOf($, cwd, kind, handoff)))
}

/** What a window after a swap or resume of `handoff` follows, as of now. The
 * handoff's path is masked as the Read that opens it will be, so the two compare. */
export async function afterOf($: $, cwd: string, kind: 'swapped' | 'resumed', handoff: string): Promise<After> {
  return { kind, handoff: await maskedText($, inFolder(cwd, handoff)) }
}

// Whether a meter window may be open, so that a turn's end with none, the
// common case, reads nothing. A module variable: it starts raised (a hot
// reload empties it; `$.state` keeps the window), every window opened raises
// it once its write landed, and a read lowers it only when it found none and
// no window landed while it was in flight.
let mayBeWatching = true
let windowsOpened = 0

/** The work record, or undefined, with no `$` call, once a read found no window open and none was opened since. */
export async function readWorkIfWatching($: $): Promise<WorkRecord | undefined> {
  if (!mayBeWatching) return undefined
  const openedBefore = windowsOpened
  const work = await readWork($)
  if (work.meter.kind !== 'watching' && openedBefore === windowsOpened) mayBeWatching = false
  return work
}

/** Opens the meter's window in one write, nothing else (a swap opens it
 * before the continue-prompt goes out, so the new context's first tool call
 * is counted); returns the window it closed, for `logClosed` later. */
export async function startWatching($: $, after: After): Promise<Watched | undefined> {
  const before = await updateWork($, (w) => ({ ...w, meter: watchingAfter(after, w.facts) }))
  windowsOpened++
  mayBeWatching = true
  return before.meter.kind === 'watching' ? before.meter : undefined
}

export async function logClosed($: $, cwd: string, closed: Watched | undefined): Promise<void> {
  if (closed === undefined) return
  const { after, reReads, repeatedCommands, recalls } = closed
  const files = after.kind === 'compacted' ? [] : [shownPath(after.handoff, cwd)]
  await appendSwapLog($, cwd, { outcome: 'meter', files, reReads: reReads.map((p) => shownPath(p, cwd)), repeatedCommands, recalls: recalls || undefined })
}

/** Starts the meter after a compaction that was not ours, measured like a swap. */
export async function watchAfterCompaction($: $): Promise<void> {
  await logClosed($, await $.session.cwd(), await startWatching($, { kind: 'compacted' }))
}

/** Closes the meter's window now (a new run starts, or the person asked for
 * the status report) and logs it; returns what it counted, if a window was open. */
export async function closeMeter($: $, cwd: string): Promise<Watched | undefined> {
  const before = await updateWork($, (w) => ({ ...w, meter: { kind: 'none' } }))
  if (before.meter.kind !== 'watching') return undefined
  await logClosed($, cwd, before.meter)
  return before.meter
}

/** A main-loop turn ended: the meter counts it; the first turn after a swap
 * that never read the handoff is said and logged. `work` is the record read
 * at the turn's end (readWorkIfWatching): with no window open, the common
 * case, nothing more is read. */
export async function meterTurnEnded($: $, work: WorkRecord | undefined): Promise<void> {
  if (work?.meter.kind !== 'watching') return
  const cwd = await $.session.cwd()
  let result: ReturnType<typeof meterAfterTurn> | undefined
  await updateWork($, (w) => {
    result = meterAfterTurn(w.meter)
    return { ...w, meter: result.meter }
  })
  if (result === undefined) return
  const { isUnread, closed, meter } = result
  const watched = closed ?? (meter.kind === 'watching' ? meter : undefined)
  if (isUnread && watched !== undefined && watched.after.kind !== 'compacted') {
    const handoff = shownPath(watched.after.handoff, cwd)
    showToast($, TOASTS.unreadHandoff(handoff), UNREAD_TOAST_MS)
    await appendSwapLog($, cwd, { outcome: 'handoff-unread', files: [handoff] })
  }
  await logClosed($, cwd, closed)
}
