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
import { RECALL_DESCRIPTION, RECALL_INPUT_SCHEMA, RECALL_TOOL_NAME } from './recall.js'
import { recallQueryOf } from './recall-query.js'
import { recallScanOf, scanEnd, scanText } from './recall-search.js'
import { maskTextOf, recallAnswerTextOf, type Coverage } from './recall-answer.js'
import { transcriptPartsOf, transcriptRefusalOf } from './transcript-path.js'
import { READ_CHUNK_BYTES, SEARCH_BUDGET_MS, bytesOfBase64, joinedBytesOf, readStartOf, wholeCharsLengthOf } from './transcript-reading.js'
import { projectFileOnDisk } from '../disk/disk-steps.js'
import { folderIgnoresCase } from '../protocol/protocol-paths.js'
import { maskedText } from '../text/mask-steps.js'
import { recordRecallCall } from '../facts/work-steps.js'

type $ = EngineInterface

/** How long a search with no boundary read yet waits for the engine's queued transcript writes: LAG_POLLS reads LAG_POLL_MS apart. */
const LAG_POLL_MS = 100
const LAG_POLLS = 15

/** Lists the tool, from the session's start (a reload starts the module over
 * and runs it again). A failure is the debug log's alone: the conversation
 * goes on without it, and the model is told no such tool if it calls it. */
export async function listRecall($: $): Promise<void> {
  try {
    await $.tool.register({ name: RECALL_TOOL_NAME, description: RECALL_DESCRIPTION, inputSchema: { ...RECALL_INPUT_SCHEMA }, isDeferred: false })
  } catch (error) {
    $.ui.log(`the recall tool could not be listed (${error instanceof Error ? error.message : String(error)})`, { to: 'debug' })
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

/** The tool's answer to a main-loop call with `input`; the meter counts it. */
export async function answerRecall($: $, input: unknown, agentId: string | undefined): Promise<{ result: string }> {
  const [text] = await Promise.all([recallTextOf($, input), agentId === undefined ? recordRecallCall($).catch(() => undefined) : undefined])
  return { result: text }
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
  const scan = recallScanOf(parsed.query, { startsMidLine: start.startsMidLine })
  const decoder = new TextDecoder()
  const startedMs = await $.clock.now()
  let offset = start.offset
  let carry = new Uint8Array(0)
  let isCut = false
  // This call's own id: once its line is on disk, so is all the transcript before it.
  const callId = typeof (input as { tool_use_id?: unknown } | undefined)?.tool_use_id === 'string' ? (input as { tool_use_id: string }).tool_use_id : undefined
  let seenCall = false
  while (offset < size) {
    const chunk = await $.fs.read(transcriptPath, { as: 'bytes', offset, length: Math.min(READ_CHUNK_BYTES, size - offset) }).catch(() => undefined)
    if (chunk === undefined || typeof chunk === 'string') return unreadTextOf('a part of it could not be read')
    const read = bytesOfBase64(chunk.base64)
    if (read.length === 0) break
    offset += read.length
    // A character cut by the range's end waits for the next range.
    const bytes = joinedBytesOf(carry, read)
    const whole = offset < size ? wholeCharsLengthOf(bytes) : bytes.length
    const text = decoder.decode(bytes.subarray(0, whole))
    scanText(scan, text)
    seenCall ||= callId !== undefined && text.includes(callId)
    carry = bytes.slice(whole)
    if (offset < size && (await $.clock.now()) - startedMs > SEARCH_BUDGET_MS) {
      isCut = true
      break
    }
  }
  // The engine queues its transcript writes: under load a replacement's
  // compact_boundary (and this very call) reach the file a little after the
  // call starts (seen after a fork-answered automatic compaction: the first
  // call found no boundary, the next one 80 ms later did). With no boundary
  // read yet, the file's growth is
  // read on until this call's own line is on disk (all before it then is) or
  // a short bound passes.
  for (let poll = 0; !isCut && scan.boundaries === 0 && poll < LAG_POLLS; poll++) {
    if (seenCall) break
    await $.clock.sleep(LAG_POLL_MS)
    const grown = (await $.fs.stat(transcriptPath).catch(() => undefined))?.size ?? offset
    while (offset < grown) {
      const chunk = await $.fs.read(transcriptPath, { as: 'bytes', offset, length: Math.min(READ_CHUNK_BYTES, grown - offset) }).catch(() => undefined)
      if (chunk === undefined || typeof chunk === 'string') break
      const read = bytesOfBase64(chunk.base64)
      if (read.length === 0) break
      offset += read.length
      const bytes = joinedBytesOf(carry, read)
      const whole = wholeCharsLengthOf(bytes)
      const text = decoder.decode(bytes.subarray(0, whole))
      scanText(scan, text)
      seenCall ||= callId !== undefined && text.includes(callId)
      carry = bytes.slice(whole)
    }
  }
  const result = scanEnd(scan, { isCut })
  const masked = await Promise.all(result.hits.map((hit) => maskedText($, maskTextOf(hit))))
  const coverage: Coverage = isCut
    ? { kind: 'stopped', searchedBytes: offset - start.offset, totalBytes: size }
    : start.offset > 0
      ? { kind: 'newest', searchedBytes: size - start.offset, totalBytes: size }
      : { kind: 'whole' }
  return recallAnswerTextOf(result, masked, coverage)
}
