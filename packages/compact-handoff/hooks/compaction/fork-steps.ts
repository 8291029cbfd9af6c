// Answers one of the engine's compactions with a handoff a writer writes: a
// fork of the session, or, where the conversation is too long for one more
// request, a completion that carries its digest (fork-prompt.ts). The
// request, at most one repair, the check, the file, and the one message the
// conversation becomes. Nothing is written until a text passes the check, and
// a failure at any step before the write leaves the compaction to the next
// answer (compaction-steps.ts), so it is never both.
import type { EngineInterface, SessionCompactInput, SessionMessage } from 'claude-code'
import { TOASTS } from '../text/toasts.js'
import { showToast } from '../text/toast-steps.js'
import { turnPositionOf, type ForkTrigger } from './engine-compaction.js'
import { DIGEST_HANDOFF_MAX_TOKENS, DIGEST_HANDOFF_TIMEOUT_MS, digestPromptOf, digestRepairPromptOf, forkPromptOf, forkRepairPromptOf, type ForkAsk } from './fork-prompt.js'
import { forkReplyOf } from './fork-reply.js'
import { FORK_HANDOFF_DIR, composedHandoffOf, digestFailureOf, forkFailureOf, freeHandoffNameOf, isTooLongOf, slugOf, unmaskableProblemOf, type ForkFileValues, type ForkOutcome } from './fork-handoff.js'
import { formatProblems } from '../format/handoff-format.js'
import { chainValuesOf, createdValueOf } from '../run/frontmatter-values.js'
import { buildForkStub } from '../stub/swap-text.js'
import { stubFactsOf } from '../facts/facts.js'
import { messageOf, redactableOf } from '../text/text-clip.js'
import { lastHandoffNow, setLastHandoff } from '../stub/stub-steps.js'
import { markUsed, recordOwnFile } from '../ownership/ownership-steps.js'
import { appendSwapLog } from '../swap-log/swap-log-steps.js'
import { compactionLogTriggerOf } from '../swap-log/swap-log.js'
import { folderInputOf, listProjectFolder, projectFileOnDisk, writeProjectFile } from '../disk/disk-steps.js'
import type { ProjectFolder } from '../disk/disk-rule.js'
import { recordsNow } from './digest-steps.js'
import { rememberStubRow } from '../stub-row/stub-row-steps.js'

type $ = EngineInterface

/** How long a compaction's toast stays: it explains what replaced the conversation. */
export const COMPACTION_TOAST_MS = 10_000
/** Problems quoted in a fallback's reason, the rest counted. */
const SHOWN_PROBLEMS = 3

/** Who writes the handoff: a fork of the session (it sees the transcript as
 * last sent), or one completion carrying the digest, masked, with the
 * session's model. */
export type HandoffWriter = { kind: 'fork' } | { kind: 'digest'; digest: string; model: string }

/** `isInterrupted`: the person stopped the turn (Escape) while a fork ran;
 * `isTooLong`: the API refused a request as too long. */
export type Forked = { kind: 'answered'; messages: SessionMessage[] } | { kind: 'failed'; why: string; repairs: number; isInterrupted?: true; isTooLong?: true }

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
export async function forkHandoff($: $, e: SessionCompactInput, trigger: ForkTrigger, focus: string, contextPercentBefore: number | null, writer: HandoffWriter): Promise<Forked> {
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
export async function stubAnswerOf($: $, e: SessionCompactInput, trigger: ForkTrigger, stub: string, handoff: string, bytes: number): Promise<SessionMessage[]> {
  await rememberStubRow($, 'compaction', stub, handoff, bytes).catch((error: unknown) => $.ui.log(`the stub's row could not be remembered (${messageOf(error)}); it is drawn whole`, { to: 'debug' }))
  const position = turnPositionOf(e.messages, trigger)
  return [{ role: 'user', text: stub, toolUses: [] }, ...(position.kind === 'typed-prompt' ? [e.messages[position.index]!] : [])]
}
