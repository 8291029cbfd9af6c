// /compact-handoff and /compact-handoffplan: start (now or for review), apply,
// cancel, status. This runs inside the command hook, where compaction, prompt
// submission and command runs are all refused, so a start only records the run
// and leaves the launch to a timer, and an apply leaves the compaction to one.
import type { CommandRunResult, EngineInterface } from 'claude-code'
import { IDLE, STAGE_TEXT, isStale, type Run } from './run.js'
import { intentOf } from './command-intent.js'
import { SKILL_OF_MODE } from './protocol.js'
import { statusTextOf } from './status-report.js'
import { wordsSizeOf } from './user-words.js'
import { advance, readPhase, readWords, setPhase } from './state.js'
import { LAUNCH_DELAY_MS, compactNow, dropRun, fileProblemsOnDisk, handoffPathsOf, launchSkill } from './run-steps.js'
import { recentSwapLog } from './swap-log-steps.js'

type $ = EngineInterface

const RECENT_LOG_LINES = 3

export async function answerCommand($: $, command: string, args: string, nudgePercent: number): Promise<CommandRunResult> {
  const intent = intentOf(command, args)
  const nowMs = await $.clock.now()
  let phase = await readPhase($)
  const lines: string[] = []
  if (isStale(phase, nowMs) && phase.kind !== 'idle') {
    const heldNote = await dropRun($, phase.run, 'stale')
    lines.push(`A handoff run left at "${STAGE_TEXT[phase.kind]}" for over 30 minutes was stale and has been cleared.${heldNote}`)
    phase = IDLE
  }

  if (intent.kind === 'status') {
    const usage = await $.session.usage().catch(() => undefined)
    const cwd = phase.kind === 'idle' ? await $.session.cwd() : phase.run.cwd
    lines.push(
      statusTextOf({
        phase,
        nowMs,
        contextPercent: usage?.context.percent,
        nudgePercent,
        words: wordsSizeOf(await readWords($)),
        recentLog: await recentSwapLog($, cwd, RECENT_LOG_LINES),
      }),
    )
  } else if (intent.kind === 'cancel') {
    if (phase.kind === 'idle') lines.push('No handoff run to cancel.')
    else {
      const heldNote = await dropRun($, phase.run, 'cancelled')
      lines.push(`Handoff run cancelled. The conversation is unchanged.${heldNote}`)
    }
  } else if (intent.kind === 'apply') {
    if (phase.kind !== 'reviewed') {
      lines.push('Nothing to apply: start one with /compact-handoff review [focus] or /compact-handoffplan review [focus].')
    } else {
      // The person may have edited the files: the same check as before any swap.
      const problems = await fileProblemsOnDisk($, phase.run, handoffPathsOf(phase.swap))
      if (problems.length > 0) {
        lines.push('Not applied; the conversation is unchanged. Fix these and run /compact-handoff apply again:', ...problems.map((p) => `- ${p}`))
      } else if (await advance($, phase.run.id, 'reviewed', { kind: 'swapping', run: phase.run, swap: phase.swap })) {
        const id = phase.run.id
        $.clock.after(LAUNCH_DELAY_MS, () => void compactNow($, id))
        lines.push('Files check out; replacing the conversation now.')
      }
    }
  } else if (phase.kind !== 'idle') {
    lines.push(`A handoff run is already under way (${STAGE_TEXT[phase.kind]}). Wait for it, or drop it with /compact-handoff cancel.`)
  } else {
    const usage = await $.session.usage().catch(() => undefined)
    const run: Run = {
      id: crypto.randomUUID(),
      mode: intent.mode,
      focus: intent.focus,
      startedAtMs: nowMs,
      cwd: await $.session.cwd(),
      files: [],
      apply: intent.apply,
      held: [],
      contextPercentBefore: usage?.context.percent ?? null,
    }
    await setPhase($, { kind: 'launching', run })
    $.clock.after(LAUNCH_DELAY_MS, () => void launchSkill($, run.id))
    const what = run.mode === 'plan' ? 'a handoff and a plan' : 'a handoff'
    const then = run.apply === 'review' ? 'you review them before anything is replaced' : 'the conversation is replaced once the files check out'
    lines.push(`Writing ${what} with the ${SKILL_OF_MODE[run.mode]} skill; ${then}. Messages you type meanwhile are held for after the swap. /compact-handoff cancel stops it.`)
  }
  return { text: lines.join('\n') }
}
