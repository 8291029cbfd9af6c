/**
 * One swap run of the bench: a fresh session with the three plugins, the scripted
 * conversation, then built-in `/compact` or `/compact-handoff`, measured from the mock's
 * request log and arrival times.
 */
import { performance } from 'node:perf_hooks'
import { STUB_OPENING } from '../../../packages/compact-handoff/hooks/stub/swap-text.js'
import { skillTurn } from '../handoff-script.js'
import type { MockApi, MockRequest } from '../mock-api.js'
import { pollUntil } from '../poll.js'
import { conversationOf, textBlocksOf, messageTextOf } from '../request-messages.js'
import { createRunDir, type RunDir } from '../run-dir.js'
import { bytesOf, pluginDirs, runRoot, stampArrivals, TIMING_POLL_MS } from '../showcase-kit.js'
import { startSession, type Session } from '../tmux-session.js'
import { FOCUS, FOLLOW_UP, followUpScript, haveConversation, meterCounts, startConversationMock } from './conversation.js'
import { done, log } from './options.js'
import { swapStepsOf, type SwapSteps } from './swap-steps.js'

export type SwapVariant = 'compact' | 'handoff'

export interface SwapSample {
  contextBytes: number
  summaryCount: number
  summaryBytes: number
  swapRequests: number
  swapBytes: number
  afterBytes: number
  afterMessages: number
  /** Calls other than POST /v1/messages (count_tokens), answered 404 by the mock. */
  otherCalls: number
  wallMs: number
  /** /compact only: first key of the follow-up prompt to its request (part of wallMs). */
  followUpMs?: number
  /** /compact-handoff only: the swap's own latency, from the skill turn's last request
   * (answered at once with its final text) to the request after the swap. */
  swapOwnMs?: number
  /** /compact-handoff only: that latency step by step (swap-steps.ts), when every step's mark was found. */
  swapSteps?: SwapSteps
  /** The rediscovery meter after the same scripted follow-up. */
  meter: { reReads: number; repeatedCommands: number }
  /** /compact-handoff only: the stub's text, in bytes (words and facts included). */
  stubBytes?: number
}

/** What one command did: when Enter went in (performance.now()), and the first request after the swap. */
interface Swapped {
  t0: number
  after: MockRequest
  followUpMs?: number
  /** The debug log's length before the command was typed. */
  logMark?: number
}

interface SwapContext {
  run: RunDir
  mock: MockApi
  session: Session
  at: Map<MockRequest, number>
  before: number
}

/** The stub's own text block in a request (the engine merges it with the continue-prompt into one message). */
function stubBlockOf(request: MockRequest): string {
  return conversationOf(request).flatMap(textBlocksOf).find((text) => text.startsWith(STUB_OPENING)) ?? ''
}

function isMessages(r: MockRequest): boolean {
  return r.status === 200 && r.path.split('?')[0] === '/v1/messages'
}

/** `/compact`, then the follow-up typed as soon as the screen says it compacted. */
async function compactSwap({ run, mock, session, at, before }: SwapContext): Promise<Swapped> {
  await session.type('/compact')
  const t0 = performance.now()
  const summary = await mock.waitForRequest((r) => r.seq > before && r.kind === 'summary', 60_000)
  // Compaction is over when the prompt is back and the screen says it compacted.
  await pollUntil('/compact to finish', 60_000, () => (/Compacted/.test(session.screen()) ? true : undefined), TIMING_POLL_MS)
  mock.script(...followUpScript(FOLLOW_UP, run.proj))
  const typedAt = performance.now()
  await session.type(FOLLOW_UP)
  // Compaction sends count_tokens calls for the files it re-attaches; the mock 404s them.
  const after = await mock.waitForRequest((r) => r.seq > summary.seq && isMessages(r) && r.kind === 'main', 30_000)
  return { t0, after, followUpMs: (at.get(after) ?? NaN) - typedAt }
}

/** `/compact-handoff`: the scripted skill turn, the swap, and the continue-prompt the mod submits. */
async function handoffSwap({ run, mock, session, before }: SwapContext): Promise<Swapped> {
  const turn = skillTurn({ proj: run.proj, doc: { focus: FOCUS } })
  mock.script(...turn.replies, ...followUpScript(turn.continuePrompt, run.proj))
  const logMark = session.logMark()
  await session.type(`/compact-handoff ${FOCUS}`)
  const t0 = performance.now()
  const after = await mock.waitForRequest((r) => r.seq > before && conversationOf(r).some((m) => messageTextOf(m).includes(STUB_OPENING)), 60_000)
  return { t0, after, logMark }
}

function sampleOf(variant: SwapVariant, ctx: SwapContext, last: MockRequest, swapped: Swapped, meter: SwapSample['meter']): SwapSample {
  const { after, t0, followUpMs } = swapped
  const { at, before, mock, session } = ctx
  const between = mock.requests.filter((r) => r.seq > before && r.seq < after.seq)
  const during = between.filter(isMessages)
  const summaries = during.filter((r) => r.kind === 'summary')
  return {
    contextBytes: bytesOf(last.body?.messages),
    summaryCount: summaries.length,
    summaryBytes: summaries.reduce((n, r) => n + bytesOf(r.body), 0),
    swapRequests: during.length,
    swapBytes: during.reduce((n, r) => n + bytesOf(r.body), 0),
    afterBytes: bytesOf(after.body?.messages),
    afterMessages: conversationOf(after).length,
    otherCalls: between.length - during.length,
    wallMs: (at.get(after) ?? NaN) - t0,
    ...(followUpMs === undefined ? {} : { followUpMs }),
    meter,
    ...(variant === 'handoff' ? { stubBytes: Buffer.byteLength(stubBlockOf(after)) } : {}),
    ...(variant === 'handoff' ? { swapOwnMs: (at.get(after) ?? NaN) - (at.get(during.at(-1) ?? after) ?? NaN) } : {}),
    ...(variant === 'handoff' ? stepsOf(session, swapped, at.get(during.at(-1) ?? after) ?? NaN, at.get(after) ?? NaN) : {}),
  }
}

/** The swap's steps from the debug log (its own wall clock), between the mock's arrivals
 * (performance.now(), so put on the wall clock by the time origin). */
function stepsOf(session: Session, swapped: Swapped, answeredAt: number, afterAt: number): { swapSteps?: SwapSteps } {
  const wall = (t: number): number => performance.timeOrigin + t
  const steps = swapStepsOf(session.debugLog().slice(swapped.logMark ?? 0), wall(answeredAt), wall(afterAt))
  if (steps === undefined) log('swap steps: a mark is missing from the debug log; this run has no split')
  return steps === undefined ? {} : { swapSteps: steps }
}

export async function swapRun(variant: SwapVariant, index: number): Promise<SwapSample> {
  const run = createRunDir(`bench-${variant}`, runRoot())
  const mock = await startConversationMock(run)
  const at = stampArrivals(mock)
  let session: Session | undefined
  try {
    session = await startSession({ run, plugins: pluginDirs(), mock })
    await session.waitForReady()
    const last = await haveConversation(session, mock, run.proj)
    const ctx: SwapContext = { run, mock, session, at, before: mock.requests.length }
    const swapped = variant === 'compact' ? await compactSwap(ctx) : await handoffSwap(ctx)
    const sample = sampleOf(variant, ctx, last, swapped, await meterCounts(session, run.proj))
    const own = sample.swapOwnMs === undefined ? '' : `; own ${Math.round(sample.swapOwnMs)} ms${sample.swapSteps === undefined ? '' : ` (${Object.entries(sample.swapSteps).map(([k, v]) => `${k} ${Math.round(v)}`).join(', ')})`}`
    log(`swap ${variant} #${index + 1}: ${Math.round(sample.wallMs)} ms, after ${sample.afterBytes} B, ${sample.swapRequests} request(s) during${own}`)
    await session.stop()
    done(run.dir)
    return sample
  } catch (error) {
    await session?.stop()
    throw new Error(`swap ${variant} #${index + 1} failed (run dir kept: ${run.dir}): ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    await mock.close()
  }
}
