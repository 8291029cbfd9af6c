// The engine's compactions of the main loop (engine-compaction.ts routes them):
// answered with a fork's handoff, handed to the engine's summariser with our
// instructions, a precompute vetoed, or passed. Where the conversation is too
// long for one more request (a fork refused as too long, or known before),
// a request carrying its digest writes the handoff; failing that, the
// engine's summary; failing that too, the digest itself, by code: the session
// always goes on. Each toast says what replaced the conversation once it has.
// After any that replaced the main loop's conversation, the nudge and the
// auto handoff rearm and the rediscovery meter starts. Our own swap compacts
// from a timer, which this hook never hears; should it ever, it goes on untouched.
// An automatic compaction in the middle of a run (run-edge.ts says why): at the
// skill's turn, answered with a digest and the turn's own messages; at any
// stage, what replaced the conversation is recorded on the run, so no later
// failure says the conversation is unchanged.
import type { EngineInterface, SessionCompactInput, SessionCompactResult } from 'claude-code'
import { TOASTS, type Toast } from '../text/toasts.js'
import { showToast } from '../text/toast-steps.js'
import { compactionRouteOf, turnPositionOf, type ForkTrigger } from './engine-compaction.js'
import { summaryInstructionsOf } from './summary-instructions.js'
import { COMPACTION_TOAST_MS, forkHandoff, stubAnswerOf } from './fork-steps.js'
import { lastHandoffNow } from '../stub/stub-steps.js'
import { folderInputOf } from '../disk/disk-steps.js'
import { readPhase, whileForkAnswers } from '../run/run-state.js'
import { readWork } from '../facts/facts-state.js'
import { readWords } from '../words/words-state.js'
import { newWindowBegan, windowRefused } from '../thresholds/window-steps.js'
import { watchAfterCompaction } from '../facts/work-steps.js'
import { appendSwapLog } from '../swap-log/swap-log-steps.js'
import { compactionLogTriggerOf } from '../swap-log/swap-log.js'
import { armingTriggerOf } from '../ask/ask.js'
import { armAfterCompaction } from '../ask/ask-steps.js'
import { buildDigestStub, isOwnMarkedCompaction } from '../stub/swap-text.js'
import type { Options } from '../options/options.js'
import { readWindowEdge } from '../thresholds/thresholds-state.js'
import { UNREFUSED, isKnownNotToFitOf } from '../thresholds/window-edge.js'
import { dispatch } from '../run/run-steps.js'
import { messageOf } from '../text/text-clip.js'
import { edgeDigestTextOf, edgePlanOf, runTurnOf } from './run-edge.js'
import { maskedDigestNow } from './digest-steps.js'
import type { Digest } from './digest.js'

type $ = EngineInterface
type Next = (e: SessionCompactInput) => Promise<SessionCompactResult>

/** The window a digest is sized against when the engine's usage cannot be
 * read: the smallest of the current models' (200,000 tokens), so the digest
 * fits whichever model runs. */
const FALLBACK_WINDOW_TOKENS = 200_000

/** The context's use as a compaction begins: its percent for the log, its
 * window for the digest, and whether the conversation is known not to fit
 * one more request (thresholds/window-edge.ts). Read only for the main loop's
 * automatic compaction and /compact; every other goes on without a read. */
type EdgeReading = { percent: number | null; windowTokens: number; isKnownNotToFit: boolean }

async function edgeReadingOf($: $, e: SessionCompactInput): Promise<EdgeReading> {
  if (e.agentId !== undefined || (e.trigger !== 'auto' && e.trigger !== 'manual')) return { percent: null, windowTokens: FALLBACK_WINDOW_TOKENS, isKnownNotToFit: false }
  const [usage, edge] = await Promise.all([$.session.usage().catch(() => undefined), readWindowEdge($).catch(() => UNREFUSED)])
  return { percent: usage?.context.percent ?? null, windowTokens: usage?.context.window ?? FALLBACK_WINDOW_TOKENS, isKnownNotToFit: isKnownNotToFitOf(edge, usage?.context) }
}

/** What the digest's own stub row names in place of a handoff file (stub-row/). */
const DIGEST_ROW_NAME = 'a digest'

/** Why no fork was asked for: the conversation was known not to fit. */
const KNOWN_NOT_TO_FIT = "the conversation is too long for one more request (this window's request was refused as too long, or the context is full), so no fork was asked for"

/** The engine's summary, with our instructions: the person's, then what this mod's state adds, then the outline. */
async function summarised($: $, e: SessionCompactInput, next: Next): Promise<SessionCompactResult> {
  const cwd = await $.session.cwd()
  const folder = await folderInputOf($, cwd)
  const [words, lastHandoff, work] = await Promise.all([readWords($), lastHandoffNow($, folder), readWork($)])
  return next({ ...e, instructions: summaryInstructionsOf(e.instructions, { words, lastHandoff, facts: work.facts, cwd }) })
}

/** After a compaction the engine raised: a new window rearms what counts per
 * window and the meter watches it, and option askAfterCompaction arms its question whatever replaced
 * the conversation (a summary or a fork's handoff). */
async function observed($: $, e: SessionCompactInput, compacted: SessionCompactResult, isAskOn: boolean): Promise<SessionCompactResult> {
  if (e.agentId === undefined && e.trigger !== 'precompute' && compacted.skip === undefined) {
    await newWindowBegan($)
    await watchAfterCompaction($)
  }
  const arming = armingTriggerOf({ trigger: e.trigger, agentId: e.agentId, skip: compacted.skip })
  if (isAskOn && arming !== undefined) await armAfterCompaction($, arming)
  return compacted
}

/** The toast that says what replaced the conversation, once it has, and one
 * line of the swap log (`appendSwapLog` never rejects); a folder that cannot
 * be read costs the line, never the answer. */
async function toldAndLogged($: $, toast: Toast, trigger: ForkTrigger, outcome: 'compaction-summarized' | 'compaction-digest' | 'compaction-kept', reason: string, repairs: number, percent: number | null): Promise<void> {
  showToast($, toast, COMPACTION_TOAST_MS)
  await $.session.cwd().then(
    (cwd) => appendSwapLog($, cwd, { trigger: compactionLogTriggerOf(trigger), outcome, files: [], contextPercentBefore: percent, reason, repairs }),
    (error: unknown) => $.ui.log(`the compaction could not be logged (${messageOf(error)})`, { to: 'debug' }),
  )
}

/** A handoff a writer writes: a fork, or, where the conversation is too long
 * for one more request (a fork refused as too long, or known before), a
 * request carrying its digest, masked (fork-steps.ts with the digest writer).
 * With none, the engine's summary with our instructions; where it fails too
 * (a skip, or its request rejected), the digest itself, by code, when one is
 * at hand; with none, nothing replaces the conversation. The toast and the
 * log say which, once it has happened. */
async function handedOff($: $, e: SessionCompactInput, next: Next, route: { kind: 'fork' | 'digest'; trigger: ForkTrigger; focus: string }, reading: EdgeReading, isAskOn: boolean): Promise<SessionCompactResult> {
  const { trigger, focus } = route
  const { percent } = reading
  let failed: { why: string; repairs: number; isTooLong?: true } = { why: KNOWN_NOT_TO_FIT, repairs: 0, isTooLong: true }
  if (route.kind === 'fork') {
    const forked = await whileForkAnswers(() => forkHandoff($, e, trigger, focus, percent, { kind: 'fork' }))
    if (forked.kind === 'answered') return observed($, e, { messages: forked.messages }, isAskOn)
    if (forked.isInterrupted === true) {
      // The person stopped the turn (Escape): the engine's summary would be cut short too (seen live, 2.1.332: its call rejects and the conversation stays).
      await toldAndLogged($, TOASTS.compactionKept(forked.why), trigger, 'compaction-kept', `${forked.why}; the conversation was kept`, forked.repairs, percent)
      return { skip: 'the turn was interrupted while a fork wrote the handoff; the conversation is kept' }
    }
    // Known from now on, should nothing replace the conversation: the next compaction spends no fork.
    if (forked.isTooLong === true) await windowRefused($).catch((error: unknown) => $.ui.log(`the refusal could not be recorded (${messageOf(error)})`, { to: 'debug' }))
    failed = forked
  }
  let digest: Digest | undefined
  if (failed.isTooLong === true) {
    try {
      digest = await maskedDigestNow($, e.messages, reading.windowTokens)
      const writer = { kind: 'digest', digest: digest.text, model: await $.session.model() } as const
      const written = await whileForkAnswers(() => forkHandoff($, e, trigger, focus, percent, writer))
      if (written.kind === 'answered') return observed($, e, { messages: written.messages }, isAskOn)
      failed = { why: `${failed.why}; ${written.why}`, repairs: failed.repairs + written.repairs }
    } catch (error) {
      failed = { why: `${failed.why}; ${digest === undefined ? 'the digest could not be built' : "the session's model could not be read"} (${messageOf(error)})`, repairs: failed.repairs }
    }
  }
  let summaryFailure: string
  try {
    const compacted = await summarised($, e, next)
    if (compacted.skip === undefined) {
      await toldAndLogged($, TOASTS.compactionSummarized(failed.why), trigger, 'compaction-summarized', failed.why, failed.repairs, percent)
      return observed($, e, compacted, isAskOn)
    }
    summaryFailure = `Claude Code's summary was skipped (${compacted.skip})`
  } catch (error) {
    summaryFailure = `Claude Code's summary failed (${messageOf(error)})`
  }
  const why = `${failed.why}; ${summaryFailure}`
  if (digest === undefined) {
    await toldAndLogged($, TOASTS.compactionNothing(why), trigger, 'compaction-kept', `${why}; the conversation was kept`, failed.repairs, percent)
    return { skip: `compact-handoff: ${why}; the conversation is kept` }
  }
  const stub = buildDigestStub({ digest: digest.text, trigger, isMidTurn: turnPositionOf(e.messages, trigger).kind === 'mid-turn' })
  // A quarter of the window, it too is drawn as one line.
  const messages = await stubAnswerOf($, e, trigger, stub, DIGEST_ROW_NAME, new TextEncoder().encode(stub).length)
  await toldAndLogged($, TOASTS.compactionDigest(why), trigger, 'compaction-digest', why, failed.repairs, percent)
  return observed($, e, { messages }, isAskOn)
}

/** `raisedBy` is the host's `next.origin.plugin`: our own swap goes on, before
 * anything is read, to compact-handoff-answer, the one that answers it. */
export async function answerCompaction($: $, e: SessionCompactInput, next: Next, raisedBy: string, options: Options): Promise<SessionCompactResult> {
  if (isOwnMarkedCompaction(e, raisedBy)) return next(e)
  const isAskOn = options.askAfterCompaction
  const [phase, reading] = await Promise.all([readPhase($), edgeReadingOf($, e)])
  const route = compactionRouteOf(e, options.compactionHandoff, phase.kind, reading.isKnownNotToFit)
  switch (route.kind) {
    case 'pass':
      return observed($, e, await next(e), isAskOn)
    case 'veto':
      return { skip: route.skip }
    case 'run-edge': {
      const edged = await answerAtRunEdge($, e, reading.windowTokens)
      // No question is armed: the skill's own Write would meet it, and the swap takes it back.
      if (edged !== undefined) return observed($, e, edged, false)
    }
    // falls through: the engine summarises, as while any run is under way
    case 'summary': {
      const compacted = await summarised($, e, next)
      if (phase.kind !== 'idle' && compacted.skip === undefined) await dispatch($, { kind: 'conversation-replaced', by: 'summary' })
      return observed($, e, compacted, isAskOn)
    }
    case 'digest':
    case 'fork':
      return handedOff($, e, next, route, reading, isAskOn)
  }
}

/**
 * Answers an automatic compaction met while the run is writing: the
 * conversation before the run's turn becomes a digest, and the turn's own
 * messages follow it, kept with their handles. Undefined when this is not the
 * run's turn (no message carries its tag), or when no digest could be built:
 * the caller then leaves the compaction to the engine's summary.
 */
async function answerAtRunEdge($: $, e: SessionCompactInput, windowTokens: number): Promise<SessionCompactResult | undefined> {
  const phase = await readPhase($)
  if (phase.kind !== 'writing') return undefined
  const { messages } = e
  const turn = runTurnOf(messages, `run=${phase.run.values.run}`)
  if (turn === undefined) return undefined
  const plan = edgePlanOf(messages, turn, windowTokens)
  let digest
  try {
    digest = await maskedDigestNow($, plan.digested.map((i) => messages[i]!), plan.digestWindowTokens)
  } catch (error) {
    $.ui.log(`the digest at the window's edge could not be built (${messageOf(error)}); the engine summarises instead`, { to: 'debug' })
    return undefined
  }
  // Recorded on the run found now, whatever stage it reached while the digest was built.
  await dispatch($, { kind: 'conversation-replaced', by: 'digest', id: phase.run.id })
  showToast($, TOASTS.runEdgeDigest(digest.shownEntries, digest.leftOutEntries), COMPACTION_TOAST_MS)
  return { messages: [{ role: 'user', text: edgeDigestTextOf(digest.text), toolUses: [] }, ...plan.kept.map((i) => messages[i]!)] }
}
