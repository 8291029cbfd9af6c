/**
 * The engine's automatic compaction on the bench's scripted conversation, answered two
 * ways in fresh sessions with the same three plugins: the engine's built-in summary
 * (compact-handoff's option `compactionHandoff: off`) and compact-handoff's fork handoff
 * (the default). The conversation's last answer reports usage near the window, so the
 * engine compacts at the follow-up the bench types next; both sides then get the same
 * scripted follow-up, and the rediscovery meter counts what it did again.
 */
import { performance } from 'node:perf_hooks'
import { AUTO_COMPACT_INPUT_TOKENS, forkReply, forkReplyText, isForkRequest } from '../fork-script.js'
import type { MockRequest } from '../mock-api.js'
import { createRunDir, setPluginOptions } from '../run-dir.js'
import { bytesOf, pluginDirs, runRoot, stampArrivals } from '../showcase-kit.js'
import { startSession, type Session } from '../tmux-session.js'
import { FOCUS, FOLLOW_UP, followUpScript, haveConversation, meterCounts, startConversationMock } from './conversation.js'
import { done, log } from './options.js'

export type AutoVariant = 'summary' | 'fork'

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

/** The follow-up's own request (not the summariser's, not a fork's). */
function isFollowUp(r: MockRequest): boolean {
  return r.kind === 'main' && !isForkRequest(r) && r.lastUserText.includes(FOLLOW_UP)
}

export async function autoCompactionRun(variant: AutoVariant, index: number): Promise<AutoSample> {
  const run = createRunDir(`bench-auto-${variant}`, runRoot())
  if (variant === 'summary') setPluginOptions(run, 'compact-handoff@inline', { compactionHandoff: 'off' })
  const mock = await startConversationMock(run)
  const at = stampArrivals(mock)
  let session: Session | undefined
  try {
    session = await startSession({ run, plugins: pluginDirs(), mock })
    await session.waitForReady()
    await haveConversation(session, mock, run.proj, AUTO_COMPACT_INPUT_TOKENS)
    const before = mock.requests.length
    // The fork's reply goes first in the queue: a fork prompt may quote the follow-up among the person's words.
    mock.script(...(variant === 'fork' ? [forkReply(forkReplyText({ focus: FOCUS }))] : []), ...followUpScript(FOLLOW_UP, run.proj))
    await session.type(FOLLOW_UP)
    const t0 = performance.now()
    const after = await mock.waitForRequest((r) => r.seq > before && isFollowUp(r), 60_000)
    const during = mock.requests.filter((r) => r.seq > before && r.seq < after.seq && isMessages(r))
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
