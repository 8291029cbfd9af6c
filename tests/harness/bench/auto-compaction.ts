/**
 * The engine's automatic compaction on the bench's scripted conversation, answered in
 * fresh sessions with the same three plugins: the engine's built-in summary
 * (compact-handoff's option `compactionHandoff: off`), compact-handoff's fork handoff
 * (the default), and its handoff written from the digest (`--edge-only`: the last answer
 * reports the window full, so the conversation is known not to fit one more request and
 * no fork is asked for). The conversation's last answer reports usage near (or at) the
 * window, so the engine compacts at the follow-up the bench types next; every side then
 * gets the same scripted follow-up, and the rediscovery meter counts what it did again.
 */
import { performance } from 'node:perf_hooks'
import { digestWriterKindOf, digestWriterReply, isDigestWriterRequest } from '../digest-script.js'
import { AUTO_COMPACT_INPUT_TOKENS, forkKindOf, forkReply, forkReplyText, isForkRequest } from '../fork-script.js'
import { WINDOW_TOKENS, type MockRequest, type ScriptedReply } from '../mock-api.js'
import { createRunDir, setPluginOptions } from '../run-dir.js'
import { bytesOf, pluginDirs, runRoot, stampArrivals } from '../showcase-kit.js'
import { startSession, type Session } from '../tmux-session.js'
import { FOCUS, FOLLOW_UP, followUpScript, haveConversation, meterCounts, startConversationMock } from './conversation.js'
import { done, log } from './options.js'

export type AutoVariant = 'summary' | 'fork' | 'digest'

export interface AutoSample {
  /** Model requests the compaction made (the summariser's, or the fork's). */
  requests: number
  /** Characters of those requests' bodies (JSON). */
  sentChars: number
  /** Messages JSON of the follow-up's first request, in bytes: the conversation after. */
  afterBytes: number
  /** Enter on the follow-up → its first request after the compaction. */
  wallMs: number
  /** The first compaction request's arrival → the follow-up's first request. */
  compactionMs: number
  meter: { reReads: number; repeatedCommands: number }
}

function isMessages(r: MockRequest): boolean {
  return r.status === 200 && r.path.split('?')[0] === '/v1/messages'
}

/** The follow-up's own request (not the summariser's, not a fork's, not the digest writer's). */
function isFollowUp(r: MockRequest): boolean {
  return r.kind === 'main' && !isForkRequest(r) && !isDigestWriterRequest(r) && r.lastUserText.includes(FOLLOW_UP)
}

/** The writer's reply, first in the queue: its prompt may quote the follow-up among the person's words. */
function writerReplies(variant: AutoVariant): ScriptedReply[] {
  if (variant === 'fork') return [forkReply(forkReplyText({ focus: FOCUS }))]
  if (variant === 'digest') return [digestWriterReply(forkReplyText({ focus: FOCUS }))]
  return []
}

/** Which writer answered the compaction, as the mock saw it: the run measures that path or fails. */
function writersOf(during: readonly MockRequest[]): string {
  return during.map((r) => (r.kind === 'summary' ? 'summary' : (forkKindOf(r) ?? digestWriterKindOf(r) ?? 'main'))).join(',')
}

const EXPECTED_WRITERS: Record<AutoVariant, string> = { summary: 'summary', fork: 'handoff', digest: 'handoff' }

export async function autoCompactionRun(variant: AutoVariant, index: number): Promise<AutoSample> {
  const run = createRunDir(`bench-auto-${variant}`, runRoot())
  if (variant === 'summary') setPluginOptions(run, 'compact-handoff@inline', { compactionHandoff: 'off' })
  const mock = await startConversationMock(run)
  const at = stampArrivals(mock)
  let session: Session | undefined
  try {
    session = await startSession({ run, plugins: pluginDirs(), mock })
    await session.waitForReady()
    // The digest side's last answer reports the window full: compact-handoff then knows the conversation does not fit.
    await haveConversation(session, mock, run.proj, variant === 'digest' ? WINDOW_TOKENS : AUTO_COMPACT_INPUT_TOKENS)
    const before = mock.requests.length
    mock.script(...writerReplies(variant), ...followUpScript(FOLLOW_UP, run.proj))
    await session.type(FOLLOW_UP)
    const t0 = performance.now()
    const after = await mock.waitForRequest((r) => r.seq > before && isFollowUp(r), 60_000)
    const during = mock.requests.filter((r) => r.seq > before && r.seq < after.seq && isMessages(r))
    const writers = writersOf(during)
    const isDigestPath = during.some(isDigestWriterRequest)
    if (writers !== EXPECTED_WRITERS[variant] || isDigestPath !== (variant === 'digest')) throw new Error(`the compaction took another path: ${writers}`)
    const afterAt = at.get(after) ?? NaN
    const sample: AutoSample = {
      requests: during.length,
      sentChars: during.reduce((n, r) => n + JSON.stringify(r.body ?? null).length, 0),
      afterBytes: bytesOf(after.body?.messages),
      wallMs: afterAt - t0,
      compactionMs: afterAt - (at.get(during[0] ?? after) ?? NaN),
      meter: await meterCounts(session, run.proj),
    }
    log(`auto compaction ${variant} #${index + 1}: ${Math.round(sample.wallMs)} ms, ${sample.requests} request(s), after ${sample.afterBytes} B`)
    await session.stop()
    done(run.dir)
    return sample
  } catch (error) {
    await session?.stop()
    throw new Error(`auto compaction ${variant} #${index + 1} failed (run dir kept: ${run.dir}): ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    await mock.close()
  }
}
