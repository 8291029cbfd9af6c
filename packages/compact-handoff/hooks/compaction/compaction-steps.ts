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
// A handoff's writer (forkHandoff; the digest's, fork-prompt.ts): the request,
// at most one repair, the check, the file, and the one message the
// conversation becomes. Nothing is written until a text passes the check, and
// a failure at any step before the write leaves the compaction to the next
// answer, so it is never both.
import type { EngineInterface, SessionCompactInput, SessionCompactResult, SessionMessage } from 'claude-code'
import { TOASTS, type Toast } from '../text/toasts.js'
import { showToast } from '../text/toast-steps.js'
import { compactionRouteOf, turnPositionOf, type ForkTrigger } from './engine-compaction.js'
import { summaryInstructionsOf } from './summary-instructions.js'
import { DIGEST_HANDOFF_MAX_TOKENS, DIGEST_HANDOFF_TIMEOUT_MS, digestPromptOf, digestRepairPromptOf, forkPromptOf, forkRepairPromptOf, type ForkAsk } from './fork-prompt.js'
import { forkReplyOf } from './fork-reply.js'
import { FORK_HANDOFF_DIR, composedHandoffOf, digestFailureOf, forkFailureOf, freeHandoffNameOf, isTooLongOf, slugOf, unmaskableProblemOf, type ForkFileValues, type ForkOutcome } from './fork-handoff.js'
import { formatProblems } from '../format/handoff-format.js'
import { chainValuesOf, createdValueOf } from '../run/frontmatter-values.js'
import { lastHandoffNow, setLastHandoff } from '../stub/stub-steps.js'
import { markUsed, recordOwnFile } from '../ownership/ownership-steps.js'
import { folderInputOf, listProjectFolder, projectFileOnDisk, writeProjectFile } from '../disk/disk-steps.js'
import type { ProjectFolder } from '../disk/disk-rule.js'
import { readPhase, whileForkAnswers } from '../run/run-state.js'
import { readWork } from '../facts/facts-state.js'
import { stubFactsOf } from '../facts/facts.js'
import { readWords } from '../words/words-state.js'
import { newWindowBegan, windowRefused } from '../thresholds/window-steps.js'
import { watchAfterCompaction } from '../facts/work-steps.js'
import { appendSwapLog } from '../swap-log/swap-log-steps.js'
import { compactionLogTriggerOf } from '../swap-log/swap-log.js'
import { armingTriggerOf } from '../ask/ask.js'
import { armAfterCompaction } from '../ask/ask-steps.js'
import { buildDigestStub, buildForkStub, isOwnMarkedCompaction } from '../stub/swap-text.js'
import type { Options } from '../options/options.js'
import { readWindowEdge } from '../thresholds/thresholds-state.js'
import { UNREFUSED, isKnownNotToFitOf } from '../thresholds/window-edge.js'
import { dispatch } from '../run/run-steps.js'
import { messageOf, redactableOf } from '../text/text-clip.js'
import { edgeDigestTextOf, edgePlanOf, runTurnOf } from './run-edge.js'
import { maskedDigestNow, recordsNow } from './digest-steps.js'
import type { Digest } from './digest.js'
import { rememberStubRow } from '../stub-row/stub-row-steps.js'

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
 * request carrying its digest, masked (forkHandoff with the digest writer).
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

/** How long a compaction's toast stays: it explains what replaced the conversation. */
const COMPACTION_TOAST_MS = 10_000
/** Problems quoted in a fallback's reason, the rest counted. */
const SHOWN_PROBLEMS = 3

/** Who writes the handoff: a fork of the session (it sees the transcript as
 * last sent), or one completion carrying the digest, masked, with the
 * session's model. */
type HandoffWriter = { kind: 'fork' } | { kind: 'digest'; digest: string; model: string }

/** `isInterrupted`: the person stopped the turn (Escape) while a fork ran;
 * `isTooLong`: the API refused a request as too long. */
type Forked = { kind: 'answered'; messages: SessionMessage[] } | { kind: 'failed'; why: string; repairs: number; isInterrupted?: true; isTooLong?: true }

/** What the whole attempt knows before the first fork. */
type Context = { cwd: string; folder: ProjectFolder; ask: ForkAsk; values: ForkFileValues; taken: string[] }

type Failure = Omit<Extract<Forked, { kind: 'failed' }>, 'repairs'>
type Draft = { kind: 'passed'; text: string; name: string } | { kind: 'problems'; problems: string[]; body: string } | Failure

/** One request of the writer's: its text, or why it gave none, `before` that.
 * The engine may reject the request; a fork is cut short by the turn's
 * Escape, a completion only by its own time limit. */
async function askOnce($: $, writer: HandoffWriter, prompt: string, before = ''): Promise<string | Failure> {
  let outcome: ForkOutcome
  try {
    outcome = writer.kind === 'fork' ? await $.model.fork({ prompt }) : await $.model.complete({ model: writer.model, prompt, maxTokens: DIGEST_HANDOFF_MAX_TOKENS, timeoutMs: DIGEST_HANDOFF_TIMEOUT_MS })
  } catch (error) {
    return { kind: 'failed', why: `${before}${writer.kind === 'fork' ? 'the fork' : "the digest's request"} was refused (${messageOf(error)})` }
  }
  if (outcome.isAnswered) return outcome.text
  const why = `${before}${writer.kind === 'fork' ? forkFailureOf(outcome) : digestFailureOf(outcome, DIGEST_HANDOFF_TIMEOUT_MS)}`
  if (writer.kind === 'fork' && outcome.reason === 'aborted') return { kind: 'failed', why, isInterrupted: true }
  return isTooLongOf(outcome) ? { kind: 'failed', why, isTooLong: true } : { kind: 'failed', why }
}

/** The reply as the file it would become: taken out of what surrounds it,
 * masked (a Verify command can hold a token), named, given its frontmatter,
 * then checked as the skill's files are. */
async function draftOf($: $, reply: string, context: Context): Promise<Draft> {
  const { body } = forkReplyOf(reply)
  const tooLong = unmaskableProblemOf(body)
  if (tooLong !== undefined) return { kind: 'problems', problems: [tooLong], body }
  let masked: string
  let focus: string
  try {
    ;[masked, focus] = await Promise.all([$.session.redact(body), context.values.focus === '' ? '' : $.session.redact(redactableOf(context.values.focus))])
  } catch (error) {
    return { kind: 'failed', why: `the handoff could not be masked (${messageOf(error)})` }
  }
  const name = freeHandoffNameOf(slugOf(forkReplyOf(masked).title, focus), context.values.created, context.taken)
  const text = composedHandoffOf({ ...context.values, focus }, name, masked)
  const problems = formatProblems(text, 'handoff', { projectDir: context.cwd })
  return problems.length === 0 ? { kind: 'passed', text, name } : { kind: 'problems', problems, body }
}

function problemsReasonOf(problems: readonly string[]): string {
  const more = problems.length > SHOWN_PROBLEMS ? `; and ${problems.length - SHOWN_PROBLEMS} more` : ''
  return `the handoff failed the format check twice (${problems.slice(0, SHOWN_PROBLEMS).join('; ')}${more})`
}

/** The writer's request, and one repair when its text fails the check: a
 * text that passed, or why there is none. */
async function passedDraft($: $, context: Context, writer: HandoffWriter): Promise<{ draft: Exclude<Draft, { kind: 'problems' }>; repairs: number }> {
  const { ask } = context
  const first = await askOnce($, writer, writer.kind === 'fork' ? forkPromptOf(ask) : digestPromptOf(ask, writer.digest))
  if (typeof first !== 'string') return { draft: first, repairs: 0 }
  const draft = await draftOf($, first, context)
  if (draft.kind !== 'problems') return { draft, repairs: 0 }
  const { problems, body } = draft
  const repairPrompt = writer.kind === 'fork' ? forkRepairPromptOf(ask, problems, body) : digestRepairPromptOf(ask, writer.digest, problems, body)
  const second = await askOnce($, writer, repairPrompt, `${writer.kind === 'fork' ? 'the repair fork' : "the digest writer's repair"} gave no handoff: `)
  if (typeof second !== 'string') return { draft: second, repairs: 1 }
  const repaired = await draftOf($, second, context)
  return { draft: repaired.kind === 'problems' ? { kind: 'failed', why: problemsReasonOf(repaired.problems) } : repaired, repairs: 1 }
}

async function contextOf($: $, focus: string, isMidTurn: boolean): Promise<Context> {
  const [cwd, nowMs] = await Promise.all([$.session.cwd(), $.clock.now()])
  const folder = await folderInputOf($, cwd)
  const [lastHandoff, listed] = await Promise.all([lastHandoffNow($, folder), listProjectFolder($, folder, FORK_HANDOFF_DIR).catch(() => [])])
  return { cwd, folder, ask: { focus, isMidTurn }, values: { created: createdValueOf(nowMs), ...chainValuesOf(lastHandoff), focus }, taken: listed.map((entry) => entry.name) }
}

/** The bookkeeping of a handoff that now stands: each step on its own, since
 * the file is written and the conversation answered whatever becomes of them. */
async function recordForkHandoff($: $, cwd: string, relPath: string, text: string, logged: Parameters<typeof appendSwapLog>[2]): Promise<void> {
  const steps = [recordOwnFile($, cwd, relPath, text).then(() => markUsed($, cwd, relPath)), setLastHandoff($, { kind: 'handoff', handoff: relPath }), appendSwapLog($, cwd, logged)]
  for (const settled of await Promise.allSettled(steps)) {
    if (settled.status === 'rejected') $.ui.log(`could not record ${relPath} (${messageOf(settled.reason)})`, { to: 'debug' })
  }
}

/** Answers the compaction `e` with a handoff `writer` wrote, or says why it
 * could not; `contextPercentBefore` is the context's use as the compaction began. */
async function forkHandoff($: $, e: SessionCompactInput, trigger: ForkTrigger, focus: string, contextPercentBefore: number | null, writer: HandoffWriter): Promise<Forked> {
  const isMidTurn = turnPositionOf(e.messages, trigger).kind === 'mid-turn'
  let context: Context
  let passed: Awaited<ReturnType<typeof passedDraft>>
  try {
    context = await contextOf($, focus, isMidTurn)
    // A folder the one rule refuses would refuse the file too: no request is spent on it.
    const place = await projectFileOnDisk($, context.folder, FORK_HANDOFF_DIR, 'folder')
    if (place.verdict.kind === 'refused') return { kind: 'failed', why: `no handoff can be saved in ${FORK_HANDOFF_DIR}: ${place.verdict.why}`, repairs: 0 }
    passed = await passedDraft($, context, writer)
  } catch (error) {
    return { kind: 'failed', why: `compact-handoff failed before writing anything (${messageOf(error)})`, repairs: 0 }
  }
  const { draft, repairs } = passed
  if (draft.kind === 'failed') return { ...draft, repairs }
  const relPath = `${FORK_HANDOFF_DIR}/${draft.name}`
  // Named from a listing taken before the forks: the one rule's look right
  // before the write refuses a file that appeared since, and any link.
  let written: Awaited<ReturnType<typeof writeProjectFile>>
  try {
    written = await writeProjectFile($, context.folder, relPath, draft.text, 'absent')
  } catch (error) {
    return { kind: 'failed', why: `${relPath} could not be saved (${messageOf(error)})`, repairs }
  }
  if (!written.isWritten) return { kind: 'failed', why: `${relPath} was not written: ${written.why}`, repairs }
  const outcome = writer.kind === 'fork' ? 'compaction-handoff' : 'compaction-digest-handoff'
  await recordForkHandoff($, context.cwd, relPath, draft.text, { trigger: compactionLogTriggerOf(trigger), outcome, files: [relPath], contextPercentBefore, repairs })
  // The file stands and the answer follows: a state that cannot be read costs the stub a section, never the answer.
  const { words, work, context: stubContext, latestStep } = await recordsNow($, e.messages, isMidTurn)
  const stub = buildForkStub({
    handoff: relPath,
    handoffText: draft.text,
    words,
    trigger,
    writtenFrom: writer.kind,
    isMidTurn,
    context: stubContext,
    factsSection: stubFactsOf(work.facts, context.cwd, [relPath], draft.text),
    latestStep,
  })
  const messages = await stubAnswerOf($, e, trigger, stub, relPath, new TextEncoder().encode(draft.text).length)
  showToast($, writer.kind === 'fork' ? TOASTS.forkHandoff(trigger, relPath) : TOASTS.digestHandoff(trigger, relPath), COMPACTION_TOAST_MS)
  return { kind: 'answered', messages }
}

/** The messages a compaction is answered with: the stub, then a prompt typed
 * at the moment (the transcript's last message), which stays last, as it
 * came. The stub's row (named by `handoff`) is remembered before the answer
 * installs it, so its first drawing is already the one line. */
async function stubAnswerOf($: $, e: SessionCompactInput, trigger: ForkTrigger, stub: string, handoff: string, bytes: number): Promise<SessionMessage[]> {
  await rememberStubRow($, 'compaction', stub, handoff, bytes).catch((error: unknown) => $.ui.log(`the stub's row could not be remembered (${messageOf(error)}); it is drawn whole`, { to: 'debug' }))
  const position = turnPositionOf(e.messages, trigger)
  return [{ role: 'user', text: stub, toolUses: [] }, ...(position.kind === 'typed-prompt' ? [e.messages[position.index]!] : [])]
}
