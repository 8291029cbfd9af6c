// /compact-handoff and /compact-handoffplan. This runs inside the command hook,
// where compaction, prompt submission and command runs are all refused, so a
// start only records the run (the machine launches it from a timer).
import type { CommandRunResult, EngineInterface } from 'claude-code'
import { GO_COMMAND, replacedNoteOf, stageTextOf, type Run } from '../run/run.js'
import { NOT_INTERACTIVE_TEXT, PLAN_COMMAND, HANDOFF_COMMAND, intentOf, type Intent } from './command-intent.js'
import { SKILL_OF_MODE } from '../protocol/protocol.js'
import { folderInputOf } from '../disk/disk-steps.js'
import { MAX_REPORT_LOG_LINES, statusReportOf } from './status-report.js'
import { wordsSizeOf } from '../words/user-words.js'
import { chainValuesOf, createdValueOf } from '../run/frontmatter-values.js'
import { problemLinesOf } from '../run/file-check.js'
import { shownPath } from '../facts/facts.js'
import { readInteractive, readPhase } from '../run/run-state.js'
import { readWords } from '../words/words-state.js'
import { messageOf, redactableOf } from '../text/text-clip.js'
import { dispatch, fileReportOnDisk, handoffPathsOf } from '../run/run-steps.js'
import { recentSwapLog } from '../swap-log/swap-log-steps.js'
import type { Options } from '../options/options.js'
import { closeMeter } from '../facts/work-steps.js'
import { answerResume } from '../resume/resume-steps.js'

type $ = EngineInterface

/** Together: each is a hop to the engine, and the session's start waits on them. */
export async function registerCommands($: $): Promise<void> {
  await Promise.all([
    $.command.register({
      name: HANDOFF_COMMAND,
      description: 'Write a handoff, check it, and replace the conversation with it',
      argumentHint: '[review] [focus] | apply | cancel | status | resume [path]',
    }),
    $.command.register({
      name: PLAN_COMMAND,
      description: 'Write a handoff and a phased plan, then continue from Phase 1 in a fresh context',
      argumentHint: '[review] [focus]',
    }),
    $.command.register({ name: GO_COMMAND, description: "compact-handoff's own step of a swap (queued by the mod)", isHidden: true }),
  ])
}

/** Long enough to tell runs apart in a prompt line, short enough to read. */
const RUN_TAG_CHARS = 8

type Start = Extract<Intent, { kind: 'start' }>

/** The focus as the skill gets it (and copies into the file's `focus:`):
 * masked by the engine's rules, as a fork's focus is, since the words after
 * the command can hold a token. Masking that fails starts no run. */
async function maskedFocusOf($: $, focus: string): Promise<string> {
  if (focus === '') return ''
  try {
    return await $.session.redact(redactableOf(focus))
  } catch (error) {
    throw new Error(`your focus words could not be masked, so no run started (${messageOf(error)}); run it again, or without them`)
  }
}

async function newRun($: $, intent: Start, trigger: Run['trigger'], nowMs: number): Promise<Run> {
  const [usage, cwd, focus] = await Promise.all([$.session.usage().catch(() => undefined), $.session.cwd(), maskedFocusOf($, intent.focus)])
  // Resolved once, here: every check compares a file's real path with it.
  const folder = await folderInputOf($, cwd)
  const id = crypto.randomUUID()
  return {
    id,
    mode: intent.mode,
    focus,
    startedAtMs: nowMs,
    ...folder,
    // The chain is read again when the skill is launched (run-steps.ts launchSkill).
    values: { run: id.replace(/-/g, '').slice(0, RUN_TAG_CHARS), created: createdValueOf(nowMs), ...chainValuesOf({ kind: 'none' }) },
    files: [],
    apply: intent.apply,
    trigger,
    held: [],
    heldCommands: [],
    repairs: 0,
    contextPercentBefore: usage?.context.percent ?? null,
  }
}

/** From the person's command or the auto handoff. */
export async function startRun($: $, intent: Start, trigger: Run['trigger']): Promise<{ text: string; isStarted: boolean }> {
  const run = await newRun($, intent, trigger, await $.clock.now())
  const { step } = await dispatch($, { kind: 'start', run })
  if (!step.isTaken && step.met.kind !== 'idle') return { text: `A handoff run is already under way (${stageTextOf(step.met)}). Wait for it, or drop it with /compact-handoff cancel.`, isStarted: false }
  // The meter counts what the context after a swap re-does, up to the next run.
  await closeMeter($, run.cwd)
  const what = run.mode === 'plan' ? 'a handoff and a plan' : 'a handoff'
  const then = run.apply === 'review' ? 'you review them before anything is replaced' : 'the conversation is replaced once the files check out'
  return { text: `Writing ${what} with the ${SKILL_OF_MODE[run.mode]} skill; ${then}. Messages you type meanwhile are held for after the swap. /compact-handoff cancel stops it.`, isStarted: true }
}

async function cancel($: $): Promise<string> {
  const { step, heldNote } = await dispatch($, { kind: 'cancel' })
  if (step.met.kind === 'idle') return 'No handoff run to cancel.'
  if (!step.isTaken) return 'Too late to cancel: the conversation is being replaced right now. /compact-handoff status shows when it is done.'
  return `Handoff run cancelled. ${replacedNoteOf(step.met.run) ?? 'The conversation is unchanged.'}${heldNote}`
}

async function apply($: $): Promise<string> {
  const phase = await readPhase($)
  if (phase.kind !== 'reviewed') return 'Nothing to apply: start one with /compact-handoff review [focus] or /compact-handoffplan review [focus].'
  // The person may have edited the files: the same check as before any swap.
  const problems = problemLinesOf((await fileReportOnDisk($, phase.run, handoffPathsOf(phase.swap))).report)
  if (problems.length > 0) {
    // Nothing changes here, but a conversation replaced during the run is no longer the one it started from.
    const now = phase.run.replacedBy === undefined ? 'the conversation is unchanged' : `the conversation is still the ${phase.run.replacedBy} that replaced it during the run`
    return [`Not applied; ${now}. Fix these and run /compact-handoff apply again:`, ...problems.map((p) => `- ${p}`)].join('\n')
  }
  const { step } = await dispatch($, { kind: 'applied', id: phase.run.id })
  return step.isTaken ? 'Files check out; replacing the conversation now.' : 'Nothing to apply: the reviewed run was cancelled meanwhile.'
}

async function statusReport($: $, nudgePercent: number, autoHandoffPercent: number): Promise<string> {
  // Through the machine, so a stuck run is dropped and reported here too.
  const { step } = await dispatch($, { kind: 'tick' })
  const phase = step.phase
  const usage = await $.session.usage().catch(() => undefined)
  const cwd = phase.kind === 'idle' ? await $.session.cwd() : phase.run.cwd
  // Asked for now, the meter's window closes here and its line is logged.
  const meter = await closeMeter($, cwd)
  const log = await recentSwapLog($, cwd, MAX_REPORT_LOG_LINES).catch(() => ({ lines: [], notes: [] }))
  return statusReportOf({
    ...(meter !== undefined ? { meter: { ...meter, handoff: meter.after.kind === 'compacted' ? undefined : shownPath(meter.after.handoff, cwd) } } : {}),
    phase,
    nowMs: await $.clock.now(),
    contextPercent: usage?.context.percent,
    nudgePercent,
    autoHandoffPercent,
    words: wordsSizeOf(await readWords($)),
    recentLog: log.lines,
    logNotes: log.notes,
  })
}

/** `originKind` is the command's `origin.kind`: 'sdk' when a -p or SDK
 * session sent it, whatever the state says (the state's flag is put back a
 * moment after /clear, and a command can come first). */
export async function answerCommand($: $, command: string, args: string, originKind: string, options: Options): Promise<CommandRunResult> {
  const intent = intentOf(command, args)
  switch (intent.kind) {
    case 'status':
      // For the person alone: the report quotes files a clone may have put
      // in the project (a log's reason, a path), and a command's text goes
      // into the next request unless it is display only.
      return { text: await statusReport($, options.nudgePercent, options.autoHandoffPercent), isTextDisplayOnly: true }
    case 'cancel':
      return { text: await cancel($) }
    case 'apply':
      return { text: await apply($) }
    case 'start':
      if (originKind === 'sdk' || !(await readInteractive($))) return { text: NOT_INTERACTIVE_TEXT, exitCode: 1 }
      return { text: (await startRun($, intent, 'command')).text }
    case 'resume':
      return { text: await answerResume($, intent.path) }
  }
}
