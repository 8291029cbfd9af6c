// The effects of a handoff run. Every move of the run goes through `dispatch`:
// the event is applied to the phase in the state atom (run-state.ts), then the
// effects of that move are performed here.
import type { CommandRunResult, EngineInterface, PromptOrigin } from 'claude-code'
import { TOASTS, type DroppedContext } from '../text/toasts.js'
import { showToast } from '../text/toast-steps.js'
import { GO_COMMAND, GO_REFUSED_TEXT, IDLE, isAt, isOwnGo, replacedNoteOf, type Chosen, type Phase, type Run, type Swap } from './run.js'
import { FROM_COMMAND_HOOK_DELAY_MS, type Effect, type RunEvent, type Step, type StubParts } from './run-machine.js'
import type { TurnEnd } from './turn-verdict.js'
import { SKILL_OF_MODE, formatSkillArgs } from '../protocol/protocol.js'
import { mayBeHandoffPath, relativeToCwd, type HandoffPath } from '../protocol/protocol-paths.js'
import { skillCommandOf, skillFallbackPromptOf } from './skill-command.js'
import { fileReportOf, isReadable, type FileInput, type FileReport } from './file-check.js'
import { isOwnWrite, ownWriteTargetOf } from './own-write.js'
import { compactInstructionsOf, continuePromptWithHeld, reviewLinesOf, buildStub, type SwapFiles } from '../stub/swap-text.js'
import { withUserMessage } from '../words/user-words.js'
import { applyEvent, isForkAnswering, isRunPossible, readPhase } from './run-state.js'
import { lastHandoffNow, setLastHandoff, stubContextNow } from '../stub/stub-steps.js'
import { readWork } from '../facts/facts-state.js'
import { readWords, updateWords } from '../words/words-state.js'
import { newWindowBegan } from '../thresholds/window-steps.js'
import { chainValuesOf } from './frontmatter-values.js'
import { appendSwapLog } from '../swap-log/swap-log-steps.js'
import { runLogOf } from '../swap-log/swap-log.js'
import { clearHeldDraft, forgetHeld, giveBackHeld, giveToBox, keepHeldNow } from './held-steps.js'
import { letThroughTextOf } from './held-messages.js'
import { afterOf, factsCaughtUp, logClosed, startWatching } from '../facts/work-steps.js'
import type { After, Watched } from '../meter/meter.js'
import { stubFactsOf } from '../facts/facts.js'
import { markUsed, recordWrittenFile } from '../ownership/ownership-steps.js'
import { disarmAfterSwap } from '../ask/ask-steps.js'
import { projectFileOnDisk, readProjectFile } from '../disk/disk-steps.js'
import { rememberStubRow } from '../stub-row/stub-row-steps.js'
import type { ProjectFolder } from '../disk/disk-rule.js'
import { messageOf } from '../text/text-clip.js'

type $ = EngineInterface

const LONG_TOAST_MS = 10_000
const HOLD_TOAST_MS = 6_000

/** Applies `event` and performs what it set off. Returns what the person
 * should hear of their held messages when the run was dropped ('' otherwise),
 * and the phase the event found (a run dropped as stuck still shows there). */
export async function dispatch($: $, event: RunEvent): Promise<{ step: Step; found: Phase; heldNote: string }> {
  const { step, found } = await applyEvent($, event)
  let heldNote = ''
  for (const effect of step.effects) heldNote += (await perform($, effect)) ?? ''
  return { step, found, heldNote }
}

async function perform($: $, effect: Effect): Promise<string | void> {
  switch (effect.kind) {
    case 'drop': {
      // Given back first: at a session's end the whole chain has ~1.5 s.
      const given = await giveBackHeld($, effect.run, effect.giveBack)
      await appendSwapLog($, effect.run.cwd, { ...runLogOf(effect.run), outcome: 'aborted', files: effect.run.files.map((f) => f.relPath), reason: `${effect.reason}${replacedLogNoteOf(effect.run)}${given.logNote}` })
      if (effect.toast !== undefined) {
        const { context, note } = droppedContextOf(effect)
        showToast($, TOASTS.runDropped(`${effect.toast}.${note}${given.note}`, context), LONG_TOAST_MS)
      }
      return given.note
    }
    case 'launch-later':
      return void $.clock.after(FROM_COMMAND_HOOK_DELAY_MS, () => void launchSkill($, effect.id))
    case 'check-files':
      return checkFiles($, effect.run, effect.chosen)
    case 'send-repair':
      // Not awaited: the prompt starts its turn once this turn.complete hook is done.
      return void $.prompt
        .submit({ text: effect.text })
        .catch((error: unknown) => dispatch($, { kind: 'repair-failed', id: effect.id, why: `could not ask the skill to repair its files (${messageOf(error)})` }))
    case 'queue-go':
      // Not awaited: a queued command runs once the session is idle, after this hook.
      $.command.run({ command: GO_COMMAND, args: effect.id }).catch((error: unknown) => dispatch($, { kind: 'go-failed', id: effect.id, why: `could not queue the swap (${messageOf(error)})` }))
      // The engine takes the call in order, and must take it while this hook is
      // still in flight: one taken after the hook settled counts as this mod's
      // own code, and this mod's command.run hook is skipped for it (seen live,
      // 2.1.332: "command.run skipped: re-entry"). One more round trip holds it.
      return void (await $.clock.now())
    case 'go-later':
      return void $.clock.after(effect.delayMs, () => void dispatch($, { kind: 'go', id: effect.id }).catch(() => undefined))
    case 'compact-later':
      return void $.clock.after(effect.delayMs, () => void compactNow($, effect.id))
    case 'show-review':
      // `$.ui.log` draws one transcript line per call (a newline shows as a stray glyph).
      for (const line of reviewLinesOf(effect.swap, buildStub(effect.swap, effect.review.words, effect.swap.facts, effect.review.context, effect.writtenFrom))) $.ui.log(line)
      return
    case 'log':
      return $.ui.log(effect.text)
    case 'finish-swap':
      return finishSwap($, effect.run, effect.swap, effect.isSummarized, effect.after)
    case 'late-swap':
      await disarmAfterSwap($)
      return showToast($, TOASTS.lateSwap(effect.swap.handoff, await giveToBox($, [effect.swap.continuePrompt])), LONG_TOAST_MS)
    case 'held':
      showToast($, TOASTS.held(), HOLD_TOAST_MS)
      $.clock.after(0, () => void clearHeldDraft($, effect.text).catch(() => undefined))
      // Kept outside the session at once (a killed session runs no session.end),
      // not awaited: the hook answers the drop first, and only then can the
      // engine put the text back in the box for clearHeldDraft to clear.
      return void keepHeldNow($)
    case 'let-through':
      return showToast($, TOASTS.letThrough(letThroughTextOf(effect.attachments)), LONG_TOAST_MS)
  }
}

/** What a drop did to the conversation, and the toast's note on it: nothing,
 * unless the engine's compaction was still in flight; a session's end says
 * nothing of it. A conversation an automatic compaction replaced mid-run is
 * said as such, never as unchanged. */
function droppedContextOf(drop: Extract<Effect, { kind: 'drop' }>): { context: DroppedContext; note: string } {
  if (drop.isCompactionPending) return { context: 'compaction-pending', note: ' The compaction had not returned: if it still does, the conversation is replaced and the continue-prompt is added to the prompt box.' }
  if (drop.giveBack !== 'box') return { context: 'unsaid', note: '' }
  return { context: drop.run.replacedBy ?? 'unchanged', note: ` ${replacedNoteOf(drop.run) ?? 'Context unchanged.'}` }
}

function replacedLogNoteOf(run: Run): string {
  if (run.replacedBy === undefined) return ''
  return run.replacedBy === 'digest' ? "; a digest had replaced the conversation at the window's edge" : "; the engine's summary had replaced the conversation"
}

function writtenFromLogNoteOf(run: Run): string | undefined {
  if (run.writtenFrom === undefined) return undefined
  return `the handoff was written from ${run.writtenFrom === 'digest' ? "a digest, which had replaced the conversation at the window's edge" : "the engine's summary, which had replaced the conversation"}`
}

/** A launch the engine refused is tried again this often, this many times in
 * all: the timer can fire while the command hook that set it is still settling
 * (seen live under load), and the engine refuses a command run from there. A
 * launch that waits for a fork looks again as often. */
export const LAUNCH_RETRY_MS = 250
export const MAX_LAUNCH_TRIES = 8

/** Timer: moves the run to writing (recording starts before the skill's turn
 * can write anything), then starts the skill's turn. The chain is read here,
 * not at the start: a fork answering a compaction sets the last handoff when
 * it is done, so while one answers the launch waits for it (the stuck-run rule
 * bounds the wait). */
export async function launchSkill($: $, id: string): Promise<void> {
  const phase = await readPhase($)
  if (!isAt(phase, 'launching', id)) return
  if (isForkAnswering()) {
    $.clock.after(LAUNCH_RETRY_MS, () => void launchSkill($, id))
    return
  }
  const chain = chainValuesOf(await lastHandoffNow($, phase.run))
  if ((await dispatch($, { kind: 'launch', id, chain })).step.isTaken) await startSkillTurn($, id, 1)
}

async function startSkillTurn($: $, id: string, tries: number): Promise<void> {
  const phase = await readPhase($)
  if (!isAt(phase, 'writing', id)) return
  const { run } = phase
  const name = skillCommandOf(await $.command.list().catch(() => []), run.mode)
  const args = formatSkillArgs(run.values, run.focus)
  // Refused while the command hook that set the timer still settles (seen live
  // under load: the engine then takes the prompt below, so it alone never
  // retries): the command is tried again first, asking Claude only at the last try.
  const retry = tries < MAX_LAUNCH_TRIES ? (): void => void $.clock.after(LAUNCH_RETRY_MS, () => void startSkillTurn($, id, tries + 1)) : undefined
  let why = `no command for the ${SKILL_OF_MODE[run.mode]} skill is installed`
  if (name !== undefined) {
    try {
      await $.command.run({ command: name, args })
      return
    } catch (error) {
      why = `running /${name} failed (${messageOf(error)})`
      if (retry !== undefined) return retry()
    }
  }
  try {
    await $.prompt.submit({ text: skillFallbackPromptOf(run.mode, name, args) })
    $.ui.log(`${why}; asked Claude to run the skill instead.`)
  } catch (error) {
    if (retry !== undefined) retry()
    else await dispatch($, { kind: 'launch-failed', id, why: `could not start the handoff skill: ${why}, and asking Claude failed too (${messageOf(error)})` })
  }
}

type WriteCall = { tool: 'Write' | 'Edit'; file_path: string; agentId?: string }
type ToolOutcome = { deny?: string; isError?: true; result?: unknown }

/** What the tool's result says the file held before an Edit (null when it does not say). */
function originalFileOf(outcome: ToolOutcome): string | null {
  const original = typeof outcome.result === 'object' && outcome.result !== null ? (outcome.result as { originalFile?: unknown }).originalFile : undefined
  return typeof original === 'string' ? original : null
}

/** Write/Edit, after the tool ran: remembers the handoff files the skill wrote,
 * and records every handoff or plan written as the person's own. */
export async function recordWrite($: $, call: WriteCall, outcome: ToolOutcome): Promise<void> {
  const isMainLoopSuccess = call.agentId === undefined && outcome.deny === undefined && outcome.isError !== true
  // Decided before any `$` call: Write/Edit is a hot path and most writes are not ours.
  if (!isMainLoopSuccess || !mayBeHandoffPath(call.file_path)) return
  // The run's files are its skill's writes: with no run under way there is none to note.
  if (isRunPossible()) await dispatch($, { kind: 'file-written', path: call.file_path, tool: call.tool })
  // In a run or not: the normal-mode skill's handoffs are the person's own too.
  await recordWrittenFile($, call.file_path, call.tool === 'Write' ? { tool: 'Write' } : { tool: 'Edit', originalFile: originalFileOf(outcome) })
}

/** The `tool.check` step for the skill's write of its own file (own-write.ts
 * decides): reads the run and looks at the target's path on disk by the one
 * rule for project files, in the spelling the call uses. */
export async function isRunOwnWrite($: $, path: string): Promise<boolean> {
  const phase = await readPhase($)
  const file = ownWriteTargetOf(phase, path)
  if (file === undefined || phase.kind !== 'writing') return false
  const { run } = phase
  // classifyHandoffPath names the folder as HANDOFF_DIRS spells it; the disk is looked at as the call spells it.
  const spelled = relativeToCwd(path, run.cwd, run.ignoresCase)
  if (spelled === undefined) return false
  return isOwnWrite(run, file, (await projectFileOnDisk($, run, spelled)).verdict)
}

/** With no run under way, idle, and nothing read. */
export async function phaseAtTurnEnd($: $, turnId: string, end: TurnEnd): Promise<Phase> {
  return isRunPossible() ? (await dispatch($, { kind: 'turn-ended', turnId, end })).found : IDLE
}

/** Only a turn tagged with a run's id can be the skill's: every other is passed by before any `$` call. */
export async function noteTurnStart($: $, start: { turnId: string; text: string }): Promise<void> {
  if (!start.text.includes('run=')) return
  await dispatch($, { kind: 'turn-started', turnId: start.turnId, text: start.text })
}

/** What the checks judge of one file (file-check.ts), read by the one rule
 * for project files: its stat first, never read unless a plain file within the cap. */
export async function fileInputOnDisk($: $, folder: ProjectFolder, file: HandoffPath): Promise<FileInput> {
  const { verdict, stat, text } = await readProjectFile($, folder, file.relPath, isReadable)
  return { file, stat, cwdRealPath: folder.cwdRealPath, ignoresCase: folder.ignoresCase, text, ...(verdict.kind === 'refused' ? { diskRefusal: verdict.why } : {}) }
}

/** The same check before a swap and before an apply; the handoff's text comes back too, for the stub's facts. */
export async function fileReportOnDisk($: $, run: Run, files: readonly HandoffPath[]): Promise<{ report: FileReport; handoffText: string }> {
  const inputs = await Promise.all(files.map((file) => fileInputOnDisk($, run, file)))
  const reports = inputs.map((f) => fileReportOf(f, run))
  return { report: { refusals: reports.flatMap((r) => r.refusals), fixes: reports.flatMap((r) => r.fixes) }, handoffText: inputs[0]?.text ?? '' }
}

export function handoffPathsOf(swap: SwapFiles): HandoffPath[] {
  return [
    { kind: 'handoff', relPath: swap.handoff },
    ...(swap.plan !== undefined ? [{ kind: 'plan' as const, relPath: swap.plan }] : []),
  ]
}

/** The check reads only: what it decides is applied to the phase found once it
 * is done. The stub's facts and parts are read now, while the run holds every
 * prompt typed (so none is recorded as words), and a swap compacts with no read between. */
async function checkFiles($: $, run: Run, chosen: Chosen): Promise<void> {
  const files = [chosen.handoff, ...(chosen.plan !== undefined ? [chosen.plan] : [])]
  const [{ report, handoffText }, work, review] = await Promise.all([fileReportOnDisk($, run, files), factsCaughtUp($).then(() => readWork($)), run.apply === 'review' ? stubPartsNow($) : undefined])
  const facts = stubFactsOf(work.facts, run.cwd, files.map((f) => f.relPath), handoffText)
  await dispatch($, { kind: 'checked', id: run.id, report, ...(review !== undefined ? { review } : {}), ...(facts !== undefined ? { facts } : {}) })
}

async function stubPartsNow($: $): Promise<StubParts> {
  const [words, context] = await Promise.all([readWords($), stubContextNow($).catch(() => ({}))])
  return { words, context }
}

/** The hidden go-command's hook: the go step, for the run at the go stage
 * named by its id, and only when compact-handoff itself queued the command.
 * Its compaction goes on a timer (refused inside this hook); raised from there
 * it never reaches this mod's own hooks, and compact-handoff-answer answers it. */
export async function answerGo($: $, args: string, origin: PromptOrigin): Promise<CommandRunResult> {
  if (!isOwnGo(origin)) return GO_REFUSED
  const { step } = await dispatch($, { kind: 'go', id: args.trim() })
  return step.isTaken ? {} : GO_REFUSED
}

// For the person alone: a go-command that finds nothing to do (typed, another
// plugin's, or run after its run was cancelled) stays in the conversation, and
// its answer would otherwise be sent to the model in every later request.
const GO_REFUSED: CommandRunResult = { text: GO_REFUSED_TEXT, isTextDisplayOnly: true }

/** Dropped with a word, rather than waiting out the stuck rule. */
export async function goFailed($: $, args: string, why: string | undefined): Promise<CommandRunResult> {
  await dispatch($, { kind: 'go-failed', id: args.trim(), why: `the swap's go-command failed${why ? ` (${why})` : ''}` })
  return {}
}

/** Timer: one compaction attempt; a refusal goes back to the go stage, a skip
 * aborts. The stub is built now, so it carries what runs in the background at
 * this moment. */
export async function compactNow($: $, id: string): Promise<void> {
  // Read beside the move into compacting (one hop less): a prompt typed while the run swaps is held, not recorded.
  const [{ step: begun }, { words, context }] = await Promise.all([dispatch($, { kind: 'compact-begin', id }), stubPartsNow($)])
  if (!begun.isTaken || begun.phase.kind !== 'swapping') return
  const { swap } = begun.phase
  const stub = buildStub(swap, words, swap.facts, context, begun.phase.run.writtenFrom)
  // Remembered before the compaction installs the row: its first drawing is already the one line.
  await rememberSwapRow($, begun.phase.run, swap.handoff, stub)
  let result, after
  try {
    // The meter's window is made ready beside it, to open the moment the conversation is replaced.
    ;[result, after] = await Promise.all([$.session.compact({ instructions: compactInstructionsOf(stub) }), afterOf($, begun.phase.run.cwd, 'swapped', swap.handoff)])
  } catch (error) {
    // The engine does not log a refused call; the retries are read from here.
    $.ui.log(`the swap's compaction was refused (${messageOf(error)}); the go step is retried`, { to: 'debug' })
    await dispatch($, { kind: 'compact-refused', id, error: messageOf(error) })
    return
  }
  if (result.skip !== undefined) {
    await dispatch($, { kind: 'compact-skipped', id, why: result.skip })
    return
  }
  // A new context window began. Begun before the run goes idle, so the old
  // window's context figure is never drawn in the new one once the stage is gone.
  await newWindowBegan($)
  await dispatch($, { kind: 'compacted', id, swap, isSummarized: result.usage !== undefined, after })
}

/** The swap's stub remembered with its handoff's size; a failure costs the row its one line, never the swap. */
async function rememberSwapRow($: $, run: Run, handoff: string, stub: string): Promise<void> {
  try {
    const { stat } = await projectFileOnDisk($, run, handoff)
    if (stat !== undefined) await rememberStubRow($, 'swap', stub, handoff, stat.size)
  } catch (error) {
    $.ui.log(`the swap's row could not be remembered (${messageOf(error)}); it is drawn whole`, { to: 'debug' })
  }
}

/** Everything the run held goes out with the continue-prompt. The meter's
 * window opens first, so the new context's first tool call is counted; then
 * the prompt, not awaited (it resolves when its turn starts); the rest of the
 * bookkeeping once that turn has started, off the way to its request. */
async function finishSwap($: $, run: Run, swap: Swap, isSummarized: boolean, after: After): Promise<void> {
  const prompt = continuePromptWithHeld(swap.continuePrompt, run.held)
  // Started before the prompt: the turn it starts must not ask about a summary.
  const disarmed = disarmAfterSwap($)
  const closed = await startWatching($, after).catch(() => undefined)
  void $.prompt
    .submit({ text: prompt, asUser: true })
    .catch(async (error: unknown) => showToast($, TOASTS.continuePromptNotSent(messageOf(error), swap.handoff, await giveToBox($, [prompt])), LONG_TOAST_MS))
    .then(() => afterSwap($, run, swap, isSummarized, disarmed, closed))
    .catch(() => undefined)
}

async function afterSwap($: $, run: Run, swap: Swap, isSummarized: boolean, disarmed: Promise<void>, closed: Watched | undefined): Promise<void> {
  await Promise.all([
    disarmed,
    setLastHandoff($, { kind: 'handoff', handoff: swap.handoff, ...(swap.plan !== undefined ? { plan: swap.plan } : {}) }),
    // Held prompts reach the model inside the continue-prompt, so they count as said.
    updateWords($, (words) => run.held.reduce(withUserMessage, words)),
  ])
  if (isSummarized) showToast($, TOASTS.answerModMissing(), LONG_TOAST_MS)
  if (run.heldCommands.length > 0) {
    // A command typed against the old conversation is the person's to run again, not ours.
    await giveToBox($, [run.heldCommands.join('\n')])
    showToast($, TOASTS.heldCommands(run.heldCommands), LONG_TOAST_MS)
  }
  if (run.held.length + run.heldCommands.length > 0) await forgetHeld($, run.cwd)
  await appendSwapLog($, run.cwd, { ...runLogOf(run), outcome: isSummarized ? 'engine-summarized' : 'swapped', files: handoffPathsOf(swap).map((f) => f.relPath), reason: writtenFromLogNoteOf(run) })
  await markUsed($, run.cwd, swap.handoff)
  await logClosed($, run.cwd, closed)
}
