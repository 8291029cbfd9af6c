// The recall tool applied: listed with `$.tool.register` at the session's
// start, and each call answered from this session's own transcript, read by
// range and masked by the engine's redact.
//
// Listed at the start, not at the first replacement: registering mid-session
// works in 2.1.332, but a tool registered at a replacement was missing from the
// first request after it, a swap's and a fork's alike, though its register had
// resolved ("visible after 1761ms") before that request's turn began (seen
// live under load); one registered between turns was listed from the next
// turn on. Registered at the start, the request right after a replacement still
// leaves it out in some runs (its call is answered all the same). The register
// spins up the engine's loopback server for the plugin (0.5 to 2.8 s seen), so
// it goes from the start's timer, off the start's wait.
import type { EngineInterface } from 'claude-code'
import { RECALL_DESCRIPTION, RECALL_INPUT_SCHEMA, RECALL_TOOL_NAME, recallCallerRefusalOf, recallQueryOf, type RecallCaller } from './recall.js'
import { recallScanOf, scanEnd, scanText, type Hit, type RecallScan } from './recall-search.js'
import { recallAnswerTextOf, type Coverage, type MaskedHit } from './recall-answer.js'
import { LAG_POLL_MS, READ_CHUNK_BYTES, SEARCH_BUDGET_MS, bytesOfBase64, joinedBytesOf, readStartOf, transcriptPartsOf, transcriptRefusalOf, waitsForWritesOf, wholeCharsLengthOf } from './transcript-reading.js'
import { projectFileOnDisk } from '../disk/disk-steps.js'
import { folderIgnoresCase } from '../protocol/protocol-paths.js'
import { maskedWhole } from '../text/mask-steps.js'
import { recordRecallCall } from '../facts/work-steps.js'
import { messageOf } from '../text/text-clip.js'

type $ = EngineInterface

/** Lists the tool, from the session's start (a reload starts the module over
 * and runs it again). A failure is the debug log's alone: the conversation
 * goes on without it, and the model is told no such tool if it calls it. */
export async function listRecall($: $): Promise<void> {
  try {
    await $.tool.register({ name: RECALL_TOOL_NAME, description: RECALL_DESCRIPTION, inputSchema: { ...RECALL_INPUT_SCHEMA }, isDeferred: false })
  } catch (error) {
    $.ui.log(`the recall tool could not be listed (${messageOf(error)})`, { to: 'debug' })
  }
}

/** What the transcript read says when there is nothing to search. */
function unreadTextOf(why: string): string {
  return `recall could not search this session's transcript: ${why}. Nothing was searched; the handoff, the files on disk and git are what remain.`
}

/** The answer when the tool's own hook failed: what happened, and that nothing came back. */
export function recallFailedOf(why: string | undefined): { result: string } {
  return { result: unreadTextOf(`the search failed (${why ?? 'no reason given'})`) }
}

/** The tool's answer to a call with `input`: the model's own call in the main
 * conversation is answered and counted by the meter; any other caller's is
 * refused in words and reaches neither the transcript nor the meter. */
export async function answerRecall($: $, input: unknown, caller: RecallCaller): Promise<{ result: string } | { deny: string }> {
  const refusal = recallCallerRefusalOf(caller)
  if (refusal !== undefined) return { deny: refusal }
  const [text] = await Promise.all([recallTextOf($, input), recordRecallCall($).catch(() => undefined)])
  return { result: text }
}

/** A hit's excerpt and call text, each masked whole before the answer cuts them. */
async function maskedHitOf($: $, hit: Hit): Promise<MaskedHit> {
  const [label, excerpt] = await Promise.all([hit.kind === 'result' ? maskedWhole($, hit.label) : hit.label, maskedWhole($, hit.excerpt)])
  return label === undefined || excerpt === undefined ? undefined : { label, excerpt }
}

async function recallTextOf($: $, input: unknown): Promise<string> {
  const parsed = recallQueryOf(input)
  if ('refusal' in parsed) return parsed.refusal
  const [info, sessionId, cwd, root] = await Promise.all([$.session.info(), $.session.id(), $.session.cwd(), $.session.root().catch(() => undefined)])
  const transcriptPath = info.transcriptPath
  const refusal = transcriptRefusalOf({ transcriptPath, sessionId, folders: root === undefined ? [cwd] : [root, cwd] })
  if (refusal !== undefined) return unreadTextOf(refusal)
  const { folder, name } = transcriptPartsOf(transcriptPath)
  const folderStat = await $.fs.stat(folder, { resolve: true }).catch(() => undefined)
  // No folder yet is no transcript yet: the engine makes both at the first message.
  if (folderStat?.realPath === undefined) return unreadTextOf('the file is not on disk')
  const found = await projectFileOnDisk($, { cwd: folder, cwdRealPath: folderStat.realPath, ignoresCase: folderIgnoresCase(folder, info.platform) }, name)
  if (found.verdict.kind === 'absent') return unreadTextOf('the file is not on disk')
  if (found.verdict.kind === 'refused' || found.stat === undefined) return unreadTextOf(found.verdict.kind === 'refused' ? found.verdict.why : 'it could not be looked at')
  const size = found.stat.size
  const start = readStartOf(size)
  const scan = recallScanOf(parsed.query, start.startsMidLine)
  // This call's own id, which its line in the transcript holds.
  const callId = (input as { tool_use_id?: unknown } | undefined)?.tool_use_id
  const search: Search = { path: transcriptPath, scan, callId: typeof callId === 'string' ? callId : undefined }
  const reading: Reading = { offset: start.offset, carry: new Uint8Array(0), hasSeenCall: false }
  const first = await readRanges($, search, reading, { kind: 'first', end: size, startedMs: await $.clock.now() })
  if (first === 'unreadable') return unreadTextOf('a part of it could not be read')
  const isCut = first === 'cut'
  for (let polls = 0; waitsForWritesOf({ isCut, boundaries: scan.boundaries, hasSeenCall: reading.hasSeenCall, polls }); polls++) {
    await $.clock.sleep(LAG_POLL_MS)
    const grown = (await $.fs.stat(transcriptPath).catch(() => undefined))?.size ?? reading.offset
    // A range unreadable here is read again after the next wait.
    await readRanges($, search, reading, { kind: 'grown', end: grown })
  }
  const result = scanEnd(scan, isCut)
  const masked = await Promise.all(result.hits.map((hit) => maskedHitOf($, hit)))
  const coverage: Coverage = isCut
    ? { kind: 'stopped', searchedBytes: reading.offset - start.offset, totalBytes: size }
    : start.offset > 0
      ? { kind: 'newest', searchedBytes: size - start.offset, totalBytes: size }
      : { kind: 'whole' }
  return recallAnswerTextOf(result, masked, coverage)
}

/** The file a search reads, the scan it feeds, and the id of the call it answers. */
type Search = { path: string; scan: RecallScan; callId: string | undefined }

/** Where the reading stands: the next byte, the incomplete character the last
 * range ended in, and whether this call's own line has been read. */
type Reading = { offset: number; carry: Uint8Array; hasSeenCall: boolean }

/** A pass of ranges up to `end`. The first: to the file's size at the call's
 * start, kept inside the budget from `startedMs`, a character cut at its end
 * decoded as it stands. One after a wait: to the size the file has grown to,
 * bounded by the wait, a character cut at its end kept for the next pass. */
type Pass = { kind: 'first'; end: number; startedMs: number } | { kind: 'grown'; end: number }

/** Reads a pass into the scan and moves `reading` on. Says how it ended: read
 * to its end (or to where the file gave no more bytes), at a range that could
 * not be read, or cut by the budget. */
async function readRanges($: $, search: Search, reading: Reading, pass: Pass): Promise<'read' | 'unreadable' | 'cut'> {
  const decoder = new TextDecoder()
  while (reading.offset < pass.end) {
    const chunk = await $.fs.read(search.path, { as: 'bytes', offset: reading.offset, length: Math.min(READ_CHUNK_BYTES, pass.end - reading.offset) }).catch(() => undefined)
    if (chunk === undefined) return 'unreadable'
    const read = bytesOfBase64(chunk.base64)
    if (read.length === 0) return 'read'
    reading.offset += read.length
    // A character cut by the range's end waits for the next range.
    const bytes = joinedBytesOf(reading.carry, read)
    const whole = reading.offset < pass.end || pass.kind === 'grown' ? wholeCharsLengthOf(bytes) : bytes.length
    const text = decoder.decode(bytes.subarray(0, whole))
    scanText(search.scan, text)
    reading.hasSeenCall ||= search.callId !== undefined && text.includes(search.callId)
    reading.carry = bytes.slice(whole)
    if (pass.kind === 'first' && reading.offset < pass.end && (await $.clock.now()) - pass.startedMs > SEARCH_BUDGET_MS) return 'cut'
  }
  return 'read'
}
