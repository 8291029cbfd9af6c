// The effects of a handoff run, one function per step. Each takes `$` from the
// wiring (a closure inside `register` may not receive `$`: the module would not
// load), reads the phase, asks the pure modules what to do, and applies it.
// Every step that runs later (a timer, the next turn) first checks that the
// phase still belongs to its run: a cancel may have come in between.
import type { CommandRunResult, EngineInterface } from 'claude-code'
import { IDLE, isAt, runOf, withFileRecorded, withRefusal, type Run, type Swap } from './run.js'
import { ARMED } from './nudge.js'
import { GO_COMMAND } from './command-intent.js'
import { SKILL_OF_MODE, classifyHandoffPath, inFolder, mayBeHandoffPath, type HandoffPath } from './protocol.js'
import { skillArgsOf, skillCommandOf, skillFallbackPromptOf } from './skill-command.js'
import { verdictOf, type TurnEnd } from './turn-verdict.js'
import { fileProblemsOf, isReadable, type FileFacts } from './file-check.js'
import { compactInstructionsOf, continuePromptWithHeld, reviewLinesOf, stubOf, type SwapFiles } from './swap-text.js'
import { withUserMessage } from './user-words.js'
import { advance, readPhase, readWords, setLastSwap, setNudge, setPhase, updatePhase, updateWords } from './state.js'
import { appendSwapLog } from './swap-log-steps.js'
import { nudgeIfDue } from './nudge-steps.js'

type $ = EngineInterface

/** The skill is launched from a timer: inside the command hook `$.command.run`
 * is refused (it would wait on the turn the hook holds), and a timer that fires
 * while its hook is still settling is held to the same rule. */
export const LAUNCH_DELAY_MS = 100
/** Compaction is refused while a turn runs; a refusal is retried this often... */
const COMPACT_RETRY_MS = 500
/** ...this many times in all, about 20 s, before the run gives up. */
const MAX_COMPACT_TRIES = 40
const LONG_TOAST_MS = 10_000

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** Gives held prompts back to the person, never silently lost: into the prompt
 * box, or, when that is refused, submitted as they were. Says which. */
async function returnHeld($: $, held: readonly string[]): Promise<string> {
  if (held.length === 0) return ''
  const filled = await $.prompt.fill({ text: held.join('\n\n'), mode: 'append' }).catch(() => undefined)
  if (filled?.isFilled === true) return ` Your ${held.length} held message(s) are back in the prompt box.`
  let sent = 0
  for (const text of held) if (await $.prompt.submit({ text, asUser: true }).then(() => true, () => false)) sent++
  return sent === held.length
    ? ` Your ${held.length} held message(s) were sent as you wrote them.`
    : ` ${held.length - sent} of your held message(s) could not be put back: ${held.join(' / ')}`
}

/** Drops `run` without touching the conversation: idle again, held prompts
 * given back, the abort logged. Returns what to tell the person of their held prompts. */
export async function dropRun($: $, run: Run, reason: string): Promise<string> {
  await setPhase($, IDLE)
  const heldNote = await returnHeld($, run.held)
  await appendSwapLog($, run, 'aborted', run.files.map((f) => f.relPath), reason)
  return heldNote
}

/** Ends run `id` without touching the conversation, and says why. */
async function abortRun($: $, id: string, why: string): Promise<void> {
  const run = runOf(await readPhase($))
  if (run?.id !== id) return
  const heldNote = await dropRun($, run, why)
  $.ui.toast(`compact-handoff: ${why}. Context unchanged.${heldNote}`, { timeoutMs: LONG_TOAST_MS })
}

/** Timer: runs the skill for the run's mode, else asks Claude to, else aborts. */
export async function launchSkill($: $, id: string): Promise<void> {
  const phase = await readPhase($)
  if (!isAt(phase, 'launching', id)) return
  const { run } = phase
  const commands = await $.command.list().catch(() => [])
  const name = skillCommandOf(commands, run.mode)
  // Recording starts before the skill's turn can write anything.
  if (!(await advance($, id, 'launching', { kind: 'writing', run, skillCommand: name ?? SKILL_OF_MODE[run.mode] }))) return
  let why = `no command for the ${SKILL_OF_MODE[run.mode]} skill is installed`
  if (name !== undefined) {
    try {
      await $.command.run({ command: name, args: skillArgsOf(run.focus) })
      return
    } catch (error) {
      why = `running /${name} failed (${messageOf(error)})`
    }
  }
  try {
    await $.prompt.submit({ text: skillFallbackPromptOf(run.mode, name, run.focus) })
    $.ui.log(`${why}; asked Claude to run the skill instead.`)
  } catch (error) {
    await abortRun($, id, `could not start the handoff skill: ${why}, and asking Claude failed too (${messageOf(error)})`)
  }
}

type WriteCall = { file_path: string; agentId?: string }
type ToolOutcome = { deny?: string; isError?: true }

/** Write/Edit, after the tool ran: remembers the handoff files the skill wrote. */
export async function recordWrite($: $, call: WriteCall, outcome: ToolOutcome): Promise<void> {
  const isMainLoopSuccess = call.agentId === undefined && outcome.deny === undefined && outcome.isError !== true
  // Decided before any `$` call: Write/Edit is a hot path and most writes are not ours.
  if (!isMainLoopSuccess || !mayBeHandoffPath(call.file_path)) return
  const phase = await readPhase($)
  if (phase.kind !== 'writing') return
  const file = classifyHandoffPath(call.file_path, phase.run.cwd)
  if (file === undefined) return
  await updatePhase($, (p) => (isAt(p, 'writing', phase.run.id) ? withFileRecorded(p, file) : p))
}

/** Main-loop turn.complete: ends the skill's turn, or nudges when idle. */
export async function finishTurn($: $, end: TurnEnd, nudgePercent: number): Promise<void> {
  const phase = await readPhase($)
  if (phase.kind === 'writing') await checkSkillTurn($, phase.run, end)
  else if (phase.kind === 'idle') await nudgeIfDue($, nudgePercent)
}

async function factsOf($: $, file: HandoffPath, cwd: string, cwdRealPath: string): Promise<FileFacts> {
  const path = inFolder(cwd, file.relPath)
  const stat = await $.fs.stat(path, { resolve: true }).catch(() => undefined)
  const text = isReadable(stat) ? await $.fs.read(path).catch(() => undefined) : undefined
  return { file, stat, cwdRealPath, text: typeof text === 'string' ? text : undefined }
}

/** Every problem that keeps the files from replacing the conversation, read
 * from disk now: the same check before a swap and before an apply. */
export async function fileProblemsOnDisk($: $, run: Run, files: readonly HandoffPath[]): Promise<string[]> {
  const cwdStat = await $.fs.stat(run.cwd, { resolve: true }).catch(() => undefined)
  const cwdRealPath = cwdStat?.realPath ?? run.cwd
  const problems: string[] = []
  for (const file of files) problems.push(...fileProblemsOf(await factsOf($, file, run.cwd, cwdRealPath), run))
  return problems
}

export function handoffPathsOf(swap: SwapFiles): HandoffPath[] {
  return [
    { kind: 'handoff', relPath: swap.handoff },
    ...(swap.plan !== undefined ? [{ kind: 'plan' as const, relPath: swap.plan }] : []),
  ]
}

async function checkSkillTurn($: $, run: Run, end: TurnEnd): Promise<void> {
  const verdict = verdictOf(end, run)
  if (verdict.kind === 'abort') return abortRun($, run.id, verdict.why)
  if (!(await advance($, run.id, 'writing', { kind: 'checking', run }))) return
  const names = { handoff: verdict.handoff.relPath, ...(verdict.plan ? { plan: verdict.plan.relPath } : {}) }
  const problems = await fileProblemsOnDisk($, run, handoffPathsOf(names))
  if (problems.length > 0) return abortRun($, run.id, problems.join('; '))
  const swap: Swap = { ...names, continuePrompt: verdict.continuePrompt, refusals: 0 }
  const isReview = run.apply === 'review'
  if (!(await advance($, run.id, 'checking', { kind: isReview ? 'reviewed' : 'swapping', run, swap }))) return
  for (const notice of verdict.notices) $.ui.log(notice)
  if (isReview) return showReview($, swap)
  // Not awaited: a queued command runs once the session is idle, after this hook.
  $.command.run({ command: GO_COMMAND, args: run.id }).catch((error: unknown) =>
    abortRun($, run.id, `could not queue the swap (${messageOf(error)})`),
  )
}

/** `$.ui.log` draws one transcript line per call (a newline shows as a stray
 * glyph), so the review goes out line by line. */
async function showReview($: $, swap: Swap): Promise<void> {
  for (const line of reviewLinesOf(swap, stubOf(swap, await readWords($)))) $.ui.log(line)
}

/** The hidden go-command: by the time a queued command runs the session is
 * idle, so the compaction is scheduled now, on a timer (never inside the
 * command hook, where it is refused). */
export async function answerGo($: $, args: string): Promise<CommandRunResult> {
  const phase = await readPhase($)
  if (!isAt(phase, 'swapping', args.trim())) return { text: 'No checked handoff is waiting to be applied.' }
  $.clock.after(0, () => void compactNow($, phase.run.id))
  return {}
}

/** Timer: one compaction attempt; refusals are retried, a skip aborts. The stub
 * is built now, so it carries every word the person typed up to the swap. */
export async function compactNow($: $, id: string): Promise<void> {
  const phase = await readPhase($)
  if (!isAt(phase, 'swapping', id)) return
  const { run, swap } = phase
  let result
  try {
    result = await $.session.compact({ instructions: compactInstructionsOf(stubOf(swap, await readWords($))) })
  } catch (error) {
    const refusals = swap.refusals + 1
    if (refusals >= MAX_COMPACT_TRIES) {
      return abortRun($, id, `compaction was refused ${refusals} times (last: ${messageOf(error)})`)
    }
    await updatePhase($, (p) => (isAt(p, 'swapping', id) ? withRefusal(p) : p))
    $.clock.after(COMPACT_RETRY_MS, () => void compactNow($, id))
    return
  }
  if (result.skip !== undefined) return abortRun($, id, `the compaction was skipped (${result.skip})`)
  await setPhase($, IDLE)
  await setNudge($, ARMED)
  await setLastSwap($, ({ kind: 'swapped' as const, handoff: swap.handoff, ...(swap.plan !== undefined ? { plan: swap.plan } : {}) }))
  // Held prompts reach the model inside the continue-prompt, so they count as said.
  await updateWords($, (words) => run.held.reduce(withUserMessage, words))
  const isSummarized = result.usage !== undefined
  if (isSummarized) {
    $.ui.toast(
      'compact-handoff: compact-handoff-answer did not answer, so the engine summarized the conversation instead (one summariser request). Install or enable compact-handoff-answer.',
      { timeoutMs: LONG_TOAST_MS },
    )
  }
  const prompt = continuePromptWithHeld(swap.continuePrompt, run.held)
  try {
    await $.prompt.submit({ text: prompt, asUser: true })
  } catch (error) {
    await $.prompt.fill({ text: prompt, mode: 'replace' }).catch(() => undefined)
    $.ui.toast(
      `compact-handoff: the conversation was replaced, but the continue-prompt could not be sent (${messageOf(error)}). It is in the prompt box; press Enter, or ask Claude to read ${swap.handoff}.`,
      { timeoutMs: LONG_TOAST_MS },
    )
  }
  await appendSwapLog($, run, isSummarized ? 'engine-summarized' : 'swapped', handoffPathsOf(swap).map((f) => f.relPath))
}
