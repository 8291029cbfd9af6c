// The effects of a handoff run, one function per step. Each takes `$` from the
// wiring (a closure inside `register` may not receive `$`: the module would not
// load), reads the phase, asks the pure modules what to do, and applies it.
// Every step that runs later (a timer, the next turn) first checks that the
// phase still belongs to its run: a cancel may have come in between.
import { atom, read, update, type CommandRunResult, type EngineInterface } from 'claude-code'
import { IDLE, STAGE_TEXT, isAt, isStale, runOf, withFileRecorded, withRefusal, type Phase, type Run, type Stage } from './run.js'
import { ARMED, nudgeDueAt, nudgeTextOf, type Nudge } from './nudge.js'
import { GO_COMMAND, intentOf } from './command-intent.js'
import { SKILL_OF_MODE, classifyHandoffPath, mayBeHandoffPath, type HandoffPath } from './protocol.js'
import { skillArgsOf, skillCommandOf, skillFallbackPromptOf } from './skill-command.js'
import { verdictOf, type TurnEnd } from './turn-verdict.js'
import { fileProblemsOf, isReadable, type FileFacts } from './file-check.js'
import { compactInstructionsOf, stubOf } from './swap-text.js'
import { statusTextOf } from './status-report.js'

type $ = EngineInterface

const phaseAtom = atom({ plugin: 'compact-handoff', key: 'run' } as const, IDLE)
const nudgeAtom = atom({ plugin: 'compact-handoff', key: 'nudge' } as const, ARMED)

/** The skill is launched from a timer: inside the command hook `$.command.run`
 * is refused (it would wait on the turn the hook holds), and a timer that fires
 * while its hook is still settling is held to the same rule. */
export const LAUNCH_DELAY_MS = 100
/** Compaction is refused while a turn runs; a refusal is retried this often... */
export const COMPACT_RETRY_MS = 500
/** ...this many times in all, about 20 s, before the run gives up. */
export const MAX_COMPACT_TRIES = 40
const ABORT_TOAST_MS = 10_000

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

async function setPhase($: $, phase: Phase): Promise<void> {
  await update($, phaseAtom, () => phase)
  $.ui.status(phase.kind === 'idle' ? undefined : `handoff: ${STAGE_TEXT[phase.kind]}`)
}

/** Moves run `id` from `from` to `next` only while it is still at `from`, in one
 * compare-and-set: a queued `/compact-handoff cancel` typed during the skill's
 * turn runs right as that turn ends, while the checks are under way, and a plain
 * write here would overwrite its idle phase and swap anyway. Whether it moved. */
async function advance($: $, id: string, from: Stage, next: Phase): Promise<boolean> {
  let moved = false
  await update($, phaseAtom, (p) => {
    moved = isAt(p, from, id)
    return moved ? next : p
  })
  if (moved) $.ui.status(next.kind === 'idle' ? undefined : `handoff: ${STAGE_TEXT[next.kind]}`)
  return moved
}

/** Ends run `id` without touching the conversation, and says why. */
export async function abortRun($: $, id: string, why: string): Promise<void> {
  const phase = await read($, phaseAtom)
  if (runOf(phase)?.id !== id) return
  await setPhase($, IDLE)
  $.ui.toast(`compact-handoff: ${why}. Context unchanged.`, { timeoutMs: ABORT_TOAST_MS })
}

/** /compact-handoff and /compact-handoffplan. This runs inside the command hook,
 * where compaction, prompt submission and command runs are all refused, so a
 * start only records the run and leaves the launch to a timer. */
export async function answerCommand($: $, command: string, args: string, nudgePercent: number): Promise<CommandRunResult> {
  const intent = intentOf(command, args)
  const nowMs = await $.clock.now()
  let phase = await read($, phaseAtom)
  const lines: string[] = []
  if (isStale(phase, nowMs) && phase.kind !== 'idle') {
    lines.push(`A handoff run left at "${STAGE_TEXT[phase.kind]}" for over 30 minutes was stale and has been cleared.`)
    await setPhase($, IDLE)
    phase = IDLE
  }
  if (intent.kind === 'status') {
    const usage = await $.session.usage().catch(() => undefined)
    lines.push(statusTextOf({ phase, nowMs, contextPercent: usage?.context.percent, nudgePercent }))
  } else if (intent.kind === 'cancel') {
    if (phase.kind === 'idle') lines.push('No handoff run to cancel.')
    else {
      await setPhase($, IDLE)
      lines.push('Handoff run cancelled. The conversation is unchanged.')
    }
  } else if (phase.kind !== 'idle') {
    lines.push(`A handoff run is already under way (${STAGE_TEXT[phase.kind]}). Wait for it, or drop it with /compact-handoff cancel.`)
  } else {
    const run: Run = { id: crypto.randomUUID(), mode: intent.mode, focus: intent.focus, startedAtMs: nowMs, cwd: await $.session.cwd(), files: [] }
    await setPhase($, { kind: 'launching', run })
    $.clock.after(LAUNCH_DELAY_MS, () => void launchSkill($, run.id))
    const what = run.mode === 'plan' ? 'a handoff and a plan' : 'a handoff'
    lines.push(`Writing ${what} with the ${SKILL_OF_MODE[run.mode]} skill; the conversation is replaced once the files check out. /compact-handoff cancel stops it.`)
  }
  return { text: lines.join('\n') }
}

/** Timer: runs the skill for the run's mode, else asks Claude to, else aborts. */
export async function launchSkill($: $, id: string): Promise<void> {
  const phase = await read($, phaseAtom)
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
    $.ui.log(`compact-handoff: ${why}; asked Claude to run the skill instead.`)
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
  const phase = await read($, phaseAtom)
  if (phase.kind !== 'writing') return
  const file = classifyHandoffPath(call.file_path, phase.run.cwd)
  if (file === undefined) return
  await update($, phaseAtom, (p) => (isAt(p, 'writing', phase.run.id) ? withFileRecorded(p, file) : p))
}

/** Main-loop turn.complete: ends the skill's turn, or nudges when idle. */
export async function finishTurn($: $, end: TurnEnd, nudgePercent: number): Promise<void> {
  const phase = await read($, phaseAtom)
  if (phase.kind === 'writing') await checkSkillTurn($, phase.run, end)
  else if (phase.kind === 'idle') await nudgeIfDue($, nudgePercent)
}

async function factsOf($: $, file: HandoffPath, cwd: string, cwdRealPath: string): Promise<FileFacts> {
  const path = `${cwd.replace(/[\\/]+$/, '')}/${file.relPath}`
  const stat = await $.fs.stat(path, { resolve: true }).catch(() => undefined)
  const text = isReadable(stat) ? await $.fs.read(path).catch(() => undefined) : undefined
  return { file, stat, cwdRealPath, text: typeof text === 'string' ? text : undefined }
}

async function checkSkillTurn($: $, run: Run, end: TurnEnd): Promise<void> {
  const verdict = verdictOf(end, run)
  if (verdict.kind === 'abort') return abortRun($, run.id, verdict.why)
  if (!(await advance($, run.id, 'writing', { kind: 'checking', run }))) return
  const cwdStat = await $.fs.stat(run.cwd, { resolve: true }).catch(() => undefined)
  const cwdRealPath = cwdStat?.realPath ?? run.cwd
  const files = verdict.plan ? [verdict.handoff, verdict.plan] : [verdict.handoff]
  const problems: string[] = []
  for (const file of files) problems.push(...fileProblemsOf(await factsOf($, file, run.cwd, cwdRealPath), run))
  if (problems.length > 0) return abortRun($, run.id, problems.join('; '))
  const names = { handoff: verdict.handoff.relPath, ...(verdict.plan ? { plan: verdict.plan.relPath } : {}) }
  const swap = { ...names, instructions: compactInstructionsOf(stubOf(names)), continuePrompt: verdict.continuePrompt, refusals: 0 }
  if (!(await advance($, run.id, 'checking', { kind: 'swapping', run, swap }))) return
  for (const notice of verdict.notices) $.ui.log(`compact-handoff: ${notice}`)
  // Not awaited: a queued command runs once the session is idle, after this hook.
  $.command.run({ command: GO_COMMAND, args: run.id }).catch((error: unknown) =>
    abortRun($, run.id, `could not queue the swap (${messageOf(error)})`),
  )
}

/** The hidden go-command: by the time a queued command runs the session is
 * idle, so the compaction is scheduled now, on a timer (never inside the
 * command hook, where it is refused). */
export async function answerGo($: $, args: string): Promise<CommandRunResult> {
  const phase = await read($, phaseAtom)
  if (!isAt(phase, 'swapping', args.trim())) return { text: 'No checked handoff is waiting to be applied.' }
  $.clock.after(0, () => void compactNow($, phase.run.id))
  return {}
}

/** Timer: one compaction attempt; refusals are retried, a skip aborts. */
export async function compactNow($: $, id: string): Promise<void> {
  const phase = await read($, phaseAtom)
  if (!isAt(phase, 'swapping', id)) return
  const { swap } = phase
  let result
  try {
    result = await $.session.compact({ instructions: swap.instructions })
  } catch (error) {
    const refusals = swap.refusals + 1
    if (refusals >= MAX_COMPACT_TRIES) {
      return abortRun($, id, `compaction was refused ${refusals} times (last: ${messageOf(error)})`)
    }
    await update($, phaseAtom, (p) => (isAt(p, 'swapping', id) ? withRefusal(p) : p))
    $.clock.after(COMPACT_RETRY_MS, () => void compactNow($, id))
    return
  }
  if (result.skip !== undefined) return abortRun($, id, `the compaction was skipped (${result.skip})`)
  await setPhase($, IDLE)
  await update($, nudgeAtom, () => ARMED)
  if (result.usage !== undefined) {
    $.ui.toast(
      'compact-handoff: compact-handoff-answer did not answer, so the engine summarized the conversation instead (one summariser request). Install or enable compact-handoff-answer.',
      { timeoutMs: ABORT_TOAST_MS },
    )
  }
  try {
    await $.prompt.submit({ text: swap.continuePrompt, asUser: true })
  } catch (error) {
    await $.prompt.fill({ text: swap.continuePrompt, mode: 'replace' }).catch(() => undefined)
    $.ui.toast(
      `compact-handoff: the conversation was replaced, but the continue-prompt could not be sent (${messageOf(error)}). It is in the prompt box; press Enter, or ask Claude to read ${swap.handoff}.`,
      { timeoutMs: ABORT_TOAST_MS },
    )
  }
}

async function nudgeIfDue($: $, thresholdPercent: number): Promise<void> {
  const nudge = await read($, nudgeAtom)
  if (nudge.kind !== 'armed') return
  const usage = await $.session.usage().catch(() => undefined)
  const percent = nudgeDueAt(nudge, usage?.context.percent, thresholdPercent)
  if (percent === undefined) return
  await update($, nudgeAtom, (): Nudge => ({ kind: 'fired', percent }))
  $.ui.toast(nudgeTextOf(percent), { timeoutMs: ABORT_TOAST_MS })
}

/** Any compaction starts a new context window, so the nudge may speak again. */
export async function rearmNudge($: $): Promise<void> {
  await update($, nudgeAtom, () => ARMED)
}

