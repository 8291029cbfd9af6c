// The engine's automatic compaction in the middle of a run (run-edge.ts says
// why): at the skill's turn, answered with a digest and the turn's own
// messages; at any stage, what replaced the conversation is recorded on the
// run, so no later failure says the conversation is unchanged.
import type { EngineInterface, SessionCompactInput, SessionCompactResult, SessionMessage } from 'claude-code'
import { TOASTS } from '../text/toasts.js'
import { showToast } from '../text/toast-steps.js'
import { readPhase } from '../run/run-state.js'
import { dispatch, messageOf } from '../run/run-steps.js'
import type { Replaced } from '../run/run.js'
import { maskedDigestNow } from './digest-steps.js'
import { edgeDigestTextOf, edgePlanOf, runTurnOf } from './run-edge.js'
import { COMPACTION_TOAST_MS } from './fork-steps.js'

type $ = EngineInterface

/** The window assumed when the engine does not say (its usage read failed):
 * the smallest a model of this build runs with. */
const FALLBACK_WINDOW_TOKENS = 200_000

/**
 * Answers an automatic compaction met while the run is writing: the
 * conversation before the run's turn becomes a digest, and the turn's own
 * messages follow it, kept with their handles. Undefined when this is not the
 * run's turn (no message carries its tag), or when no digest could be built:
 * the caller then leaves the compaction to the engine's summary.
 */
export async function answerAtRunEdge($: $, e: SessionCompactInput): Promise<SessionCompactResult | undefined> {
  const phase = await readPhase($)
  if (phase.kind !== 'writing') return undefined
  const messages = e.messages ?? []
  const turn = runTurnOf(messages, `run=${phase.run.values.run}`)
  if (turn === undefined) return undefined
  const usage = await $.session.usage().catch(() => undefined)
  const plan = edgePlanOf(messages, turn, usage?.context.window ?? FALLBACK_WINDOW_TOKENS)
  let digest
  try {
    digest = await maskedDigestNow($, plan.digested.map((i) => messages[i]!), plan.digestWindowTokens)
  } catch (error) {
    $.ui.log(`the digest at the window's edge could not be built (${messageOf(error)}); the engine summarises instead`, { to: 'debug' })
    return undefined
  }
  // Recorded on the run found now, whatever stage it reached while the digest was built.
  await noteReplaced($, 'digest', phase.run.id)
  showToast($, TOASTS.runEdgeDigest(digest.shownEntries, digest.leftOutEntries), COMPACTION_TOAST_MS)
  const kept: SessionMessage[] = plan.kept.map((i) => messages[i]!)
  return { messages: [{ role: 'user', text: edgeDigestTextOf(digest.text), toolUses: [] }, ...kept] }
}

/** Records on the run under way (run `id`'s only, when given) that the
 * conversation was replaced, by `by`, before any swap. */
export async function noteReplaced($: $, by: Replaced, id?: string): Promise<void> {
  await dispatch($, { kind: 'conversation-replaced', by, ...(id !== undefined ? { id } : {}) })
}

/** After the engine's own compaction of the main loop during a run: when it
 * replaced the conversation, the run records the summary. */
export async function noteSummaryDuringRun($: $, e: SessionCompactInput, compacted: SessionCompactResult): Promise<void> {
  if (e.agentId !== undefined || e.trigger === 'precompute' || compacted.skip !== undefined) return
  await noteReplaced($, 'summary')
}
