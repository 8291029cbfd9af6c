// Records the work's facts, read from the conversation where they are read
// (transcript-calls.ts), and runs the rediscovery meter on them (facts.ts and
// meter/meter.ts decide; this applies).
import type { EngineInterface } from 'claude-code'
import { TOASTS } from '../text/toasts.js'
import { showToast } from '../text/toast-steps.js'
import { shownPath, withChange, withCommand, withRead, clippedCommandOf } from './facts.js'
import { meterAfterTurn, meterWithCommand, meterWithRead, meterWithRecall, watchingAfter, type After, type Watched } from '../meter/meter.js'
import { inFolder } from '../protocol/protocol-paths.js'
import { changeHeldWork, readHeldWork, readWork, updateWork } from './facts-state.js'
import { callsAfter, type CallRecord, type ConversationMessage } from './transcript-calls.js'
import { recordsWritten } from '../words/words-steps.js'
import { recordLater } from '../state/record-queue.js'
import { workWith, type WorkRecord } from './work.js'
import { appendSwapLog } from '../swap-log/swap-log-steps.js'
import { UNMASKED_TEXT, maskedText, maskedTexts } from '../text/mask-steps.js'

type $ = EngineInterface

const UNREAD_TOAST_MS = 10_000

/** Each distinct text of `records` masked, in one redact call while they fit one. */
async function maskedOfTexts($: $, records: readonly CallRecord[]): Promise<Map<string, string>> {
  const texts = [...new Set(records.map((r) => r.text))]
  const masked = await maskedTexts($, texts)
  return new Map(texts.map((text, i) => [text, masked[i]!]))
}

/** Folds the calls the main conversation holds since the last catch-up (its
 * changes, Reads and commands) into the facts and the meter (`messages`: a
 * compaction's own, or read now), on the records' chain so two never fold one
 * call twice; the held words are written too. Called where the facts or the
 * meter are read; a read that fails costs its calls until the next one,
 * never the caller. */
export function factsCaughtUp($: $, messages?: readonly ConversationMessage[]): Promise<void> {
  recordLater(() => foldCalls($, messages))
  return recordsWritten($)
}

async function foldCalls($: $, given: readonly ConversationMessage[] | undefined): Promise<void> {
  const [messages, work] = await Promise.all([given ?? $.session.messages().then((found) => ('deny' in found ? [] : found)), readHeldWork($)])
  const { records, through } = callsAfter(messages, work.value.through)
  if (through === work.value.through) return
  const maskedOf = await maskedOfTexts($, records)
  // A miss folds again into the record that stands: one another catch-up
  // already moved on from `through` is left as it found it.
  const fold = (w: WorkRecord): WorkRecord => (w.through !== work.value.through ? w : { ...records.reduce((was, r) => workAfter(was, r, maskedOf.get(r.text) ?? UNMASKED_TEXT), w), through })
  await changeHeldWork($, work, fold)
}

/** Of the background shells `ids`, those a main-loop Bash call started,
 * each with its command as the facts hold it (masked and clipped). */
export async function mainLoopShellsOf($: $, ids: readonly string[]): Promise<{ id: string; command: string }[]> {
  await factsCaughtUp($)
  const { commands } = (await readWork($)).facts
  return commands.flatMap((c) => (c.shellId !== undefined && ids.includes(c.shellId) ? [{ id: c.shellId, command: c.line }] : []))
}

/** `work` after one record of a tool call, its text masked. */
function workAfter(work: WorkRecord, record: CallRecord, text: string): WorkRecord {
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
  await factsCaughtUp($)
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
  const [cwd] = await Promise.all([$.session.cwd(), factsCaughtUp($)])
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
