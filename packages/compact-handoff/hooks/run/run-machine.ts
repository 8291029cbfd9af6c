// The run as one state machine: `transition(phase, event, nowMs)` gives the
// next phase and the effects to perform. run-state.ts applies it in one
// compare-and-set, so every move is computed from the phase it finds, never
// from a copy read before an `await`: a prompt held or a cancel typed between
// two steps of a check or a swap is never overwritten. Pure: no `$`.
import { IDLE, MAX_REPAIRS, isAt, isHoldingPrompts, stageTextOf, type Chosen, type Phase, type Replaced, type Run, type Swap } from './run.js'
import { classifyHandoffPath } from '../protocol/protocol-paths.js'
import { repairPromptOf, verdictOf, type TurnEnd } from './turn-verdict.js'
import { problemLinesOf, type FileReport } from './file-check.js'
import type { UserWords } from '../words/user-words.js'
import type { StubContext } from '../stub/swap-text.js'
import type { ChainValues } from './frontmatter-values.js'
import type { After } from '../meter/meter.js'

export type RunEvent =
  | { kind: 'start'; run: Run }
  | { kind: 'cancel' }
  /** The launch timer runs the skill now, with its handoff's place in its
   * chain read at this moment (a fork that answered a compaction since the
   * start may have set the last handoff). */
  | { kind: 'launch'; id: string; chain: ChainValues }
  | { kind: 'launch-failed'; id: string; why: string }
  | { kind: 'turn-started'; turnId: string; text: string }
  | { kind: 'file-written'; path: string; tool: 'Write' | 'Edit' }
  | { kind: 'turn-ended'; turnId: string; end: TurnEnd }
  /** A run stopping for review also gets the stub's other parts, read beside the files. */
  | { kind: 'checked'; id: string; report: FileReport; facts?: string; review?: StubParts }
  | { kind: 'repair-failed'; id: string; why: string }
  /** The go step: the hidden go-command's hook ran (queued from the skill
   * turn's turn.complete, it runs once the session is idle), or a refused
   * compaction's retry timer fired. */
  | { kind: 'go'; id: string }
  | { kind: 'go-failed'; id: string; why: string }
  /** /compact-handoff apply found the reviewed files still good: its own hook
   * takes the go step (a command hook may not queue a command). */
  | { kind: 'applied'; id: string }
  | { kind: 'compact-begin'; id: string }
  | { kind: 'compact-refused'; id: string; error: string }
  | { kind: 'compact-skipped'; id: string; why: string }
  /** `after`, taken beside the compaction: the meter's window opens before the continue-prompt goes out. */
  | { kind: 'compacted'; id: string; swap: Swap; isSummarized: boolean; after: After }
  /** A prompt the person typed; `attachments` are the kinds of the items it carries. */
  | { kind: 'hold'; text: string; isCommand: boolean; attachments?: readonly string[] }
  /** An automatic compaction the engine raised mid-run replaced the
   * conversation (with a digest, for run `id` whose skill turn did not fit,
   * or with the engine's summary). */
  | { kind: 'conversation-replaced'; by: Replaced; id?: string }
  /** session.end's `reason`: /clear, /resume (another conversation), an exit. */
  | { kind: 'session-ended'; reason: string }
  /** Changes nothing itself: the stuck-run rule still applies. */
  | { kind: 'tick' }

/** Where a dropped run's held messages go: the prompt box (else sent as
 * typed), the prompt box of a session going on after /clear or /resume (else
 * kept), or kept for the next session in the project, when there is no box. */
export type GiveBack = 'box' | 'box-or-keep' | 'keep'

/** What a stub carries beside the handoff: the person's words and what still runs. */
export type StubParts = { words: UserWords; context: StubContext }

export type Effect =
  /** Back to idle without touching the conversation: give back what was held,
   * log it, and, with `toast`, tell the person why. `isCompactionPending`: the
   * engine's compaction had not returned, so the conversation may still change. */
  | { kind: 'drop'; run: Run; reason: string; toast?: string; giveBack: GiveBack; isCompactionPending?: true }
  | { kind: 'launch-later'; id: string }
  /** Carries what the move into checking decided, so the check reads no phase. */
  | { kind: 'check-files'; run: Run; chosen: Chosen }
  | { kind: 'send-repair'; id: string; text: string }
  /** From the hook the check ran in (the skill turn's turn.complete): a
   * command queued from a hook reaches this mod's own command.run hook; one
   * queued from a timer never does. */
  | { kind: 'queue-go'; id: string }
  /** The go step again, from a timer, after a refused compaction. */
  | { kind: 'go-later'; id: string; delayMs: number }
  /** From a timer: never inside the go-command's hook, where the engine refuses it. */
  | { kind: 'compact-later'; id: string; delayMs: number }
  | { kind: 'show-review'; swap: Swap; review: StubParts; writtenFrom?: Replaced }
  | { kind: 'log'; text: string }
  | { kind: 'finish-swap'; run: Run; swap: Swap; isSummarized: boolean; after: After }
  /** The compaction returned for a run that is gone (dropped as stuck while
   * the engine call hung): the conversation was replaced all the same. */
  | { kind: 'late-swap'; swap: Swap }
  | { kind: 'held'; text: string }
  /** A prompt with attachments went through instead of being held (see 'hold'). */
  | { kind: 'let-through'; attachments: readonly string[] }

export type Step = {
  phase: Phase
  effects: Effect[]
  /** The phase the event met, after the stuck-run rule: callers word their
   * answer from it (a cancel that came too late, a second run refused). */
  met: Phase
  /** Whether the event moved the run or changed it. */
  isTaken: boolean
}

/** The skill is launched from a timer: inside the command hook `$.command.run`
 * is refused (it would wait on the turn the hook holds), and a timer that fires
 * while its hook is still settling is held to the same rule. */
export const FROM_COMMAND_HOOK_DELAY_MS = 100
/** The go step's compaction timer: it fires once the go-command's (or the
 * apply's) hook has returned; one that fires before is refused and retried. */
export const GO_COMPACT_DELAY_MS = 0
/** Compaction is refused while a turn runs; the go step is retried this often... */
export const COMPACT_RETRY_MS = 500
/** ...this many times in all, about 20 s, before the run gives up. */
export const MAX_COMPACT_TRIES = 40

const MINUTE_MS = 60_000

/** How long a run may sit at one stage before the next event drops it: a lost
 * timer (a worker restart) or a skill command that never starts a turn would
 * otherwise hold the person's prompts for good. A running skill turn gets long
 * (a real model may write for minutes; the person can cancel); what a
 * compaction returns is never judged stuck (`isCompactionResult`). */
export function stuckAfterMs(phase: Exclude<Phase, { kind: 'idle' }>): number {
  switch (phase.kind) {
    case 'launching':
    case 'checking':
    case 'going':
      return MINUTE_MS
    case 'writing':
      return phase.turnId === undefined ? 2 * MINUTE_MS : 20 * MINUTE_MS
    case 'swapping':
      return phase.isCompacting ? 5 * MINUTE_MS : 3 * MINUTE_MS
    case 'reviewed':
      return 30 * MINUTE_MS
  }
}

function minutesText(ms: number): string {
  const minutes = Math.round(ms / MINUTE_MS)
  return `${minutes} minute${minutes === 1 ? '' : 's'}`
}

/** Leaves the run as it was: `effects` say only what the event itself set off. */
const unchanged = (phase: Phase, effects: Effect[] = []): Step => ({ phase, effects, met: phase, isTaken: false })

/** A run dropped while the engine's compaction is in flight (stuck, or its
 * session ending) is told apart: that compaction may still replace the conversation. */
function dropped(met: Phase, run: Run, reason: string, how: { toast?: string; giveBack?: GiveBack } = {}): Step {
  const isCompactionPending = met.kind === 'swapping' && met.isCompacting
  const drop: Effect = { kind: 'drop', run, reason, ...how, giveBack: how.giveBack ?? 'box', ...(isCompactionPending ? { isCompactionPending } : {}) }
  return { phase: { kind: 'idle' }, effects: [drop], met, isTaken: true }
}

/** Ends the run on what an event reported, the compaction's own result included. */
function aborted(met: Phase, run: Run, why: string): Step {
  return { ...dropped(IDLE, run, why, { toast: why }), met }
}

function moved(met: Phase, phase: Phase, effects: Effect[] = []): Step {
  return { phase, effects, met, isTaken: true }
}

function afterCheck(phase: Extract<Phase, { kind: 'checking' }>, checked: Extract<RunEvent, { kind: 'checked' }>, nowMs: number): Step {
  const { run, chosen } = phase
  const { report, facts, review } = checked
  const problems = problemLinesOf(report)
  if (report.refusals.length > 0) return aborted(phase, run, problems.join('; '))
  if (report.fixes.length > 0) {
    if (run.repairs >= MAX_REPAIRS) return aborted(phase, run, `after ${MAX_REPAIRS} repair turns the files still fail the check: ${problems.join('; ')}`)
    const repaired: Run = { ...run, repairs: run.repairs + 1 }
    return moved(phase, { kind: 'writing', run: repaired, sinceMs: nowMs, previous: chosen }, [
      { kind: 'log', text: `the handoff files need fixes; asking the skill to repair them in place (repair ${repaired.repairs} of ${MAX_REPAIRS}): ${problems.join('; ')}` },
      { kind: 'send-repair', id: run.id, text: repairPromptOf(repaired, chosen, report.fixes) },
    ])
  }
  const swap: Swap = {
    handoff: chosen.handoff.relPath,
    ...(chosen.plan !== undefined ? { plan: chosen.plan.relPath } : {}),
    continuePrompt: chosen.continuePrompt,
    refusals: 0,
    ...(facts !== undefined ? { facts } : {}),
  }
  const notices: Effect[] = chosen.notices.map((text) => ({ kind: 'log', text }))
  if (run.apply === 'review') {
    const shown: Effect[] = review !== undefined ? [{ kind: 'show-review', swap, review, ...(run.writtenFrom !== undefined ? { writtenFrom: run.writtenFrom } : {}) }] : []
    return moved(phase, { kind: 'reviewed', run, sinceMs: nowMs, swap }, [...notices, ...shown])
  }
  return moved(phase, { kind: 'going', run, sinceMs: nowMs, swap }, [...notices, { kind: 'queue-go', id: run.id }])
}

/** The go step, the one way into swapping, whoever takes it (the go-command's
 * hook, a retry, an apply): the compaction goes on a timer. */
function went(met: Phase, run: Run, swap: Swap, nowMs: number): Step {
  return moved(met, { kind: 'swapping', run, sinceMs: nowMs, swap, isCompacting: false }, [{ kind: 'compact-later', id: run.id, delayMs: GO_COMPACT_DELAY_MS }])
}

function afterTurn(phase: Extract<Phase, { kind: 'writing' }>, end: TurnEnd, nowMs: number): Step {
  const verdict = verdictOf(end, phase.run, phase.previous)
  if (verdict.kind === 'abort') return aborted(phase, phase.run, verdict.why)
  const { kind: _, ...chosen } = verdict
  return moved(phase, { kind: 'checking', run: phase.run, sinceMs: nowMs, chosen }, [{ kind: 'check-files', run: phase.run, chosen }])
}

/** The event applied to a phase already past the stuck-run rule. One case per
 * event, kept in one switch on purpose: the whole table of moves reads in one
 * place, and each case is a line or two. */
function take(phase: Phase, event: RunEvent, nowMs: number): Step {
  switch (event.kind) {
    case 'start':
      return phase.kind === 'idle' ? moved(phase, { kind: 'launching', run: event.run, sinceMs: nowMs }, [{ kind: 'launch-later', id: event.run.id }]) : unchanged(phase)
    case 'cancel':
      if (phase.kind === 'idle' || (phase.kind === 'swapping' && phase.isCompacting)) return unchanged(phase)
      // The log names the stage the cancel met: the go stage, a swap not yet compacting, or earlier.
      return dropped(phase, phase.run, `cancelled at "${stageTextOf(phase)}"`)
    case 'launch':
      return isAt(phase, 'launching', event.id)
        ? moved(phase, { kind: 'writing', run: { ...phase.run, values: { ...phase.run.values, ...event.chain } }, sinceMs: nowMs })
        : unchanged(phase)
    case 'launch-failed':
    case 'repair-failed':
      return isAt(phase, 'writing', event.id) ? aborted(phase, phase.run, event.why) : unchanged(phase)
    case 'turn-started': {
      // Only the turn that carries this run's tag is the skill's (or a repair's):
      // a prompt from another plugin or a task notification may come first.
      const isOurs = phase.kind === 'writing' && phase.turnId === undefined && event.text.includes(`run=${phase.run.values.run}`)
      return isOurs ? moved(phase, { ...phase, sinceMs: nowMs, turnId: event.turnId }) : unchanged(phase)
    }
    case 'file-written': {
      // Only the skill's (or a repair's) own turn writes the run's files.
      if (phase.kind !== 'writing' || phase.turnId === undefined) return unchanged(phase)
      const file = classifyHandoffPath(event.path, phase.run.cwd, phase.run.ignoresCase)
      if (file === undefined) return unchanged(phase)
      const found = phase.run.files.find((f) => f.relPath === file.relPath)
      // A file stays written whole once a Write wrote it; an Edit of it after that changes only the run's own text.
      if (found !== undefined && (found.wrote === 'whole' || event.tool === 'Edit')) return unchanged(phase)
      const files =
        found === undefined ? [...phase.run.files, { ...file, wrote: event.tool === 'Write' ? ('whole' as const) : ('edited' as const) }] : phase.run.files.map((f) => (f === found ? { ...f, wrote: 'whole' as const } : f))
      return moved(phase, { ...phase, run: { ...phase.run, files } })
    }
    case 'turn-ended':
      return phase.kind === 'writing' && phase.turnId === event.turnId ? afterTurn(phase, event.end, nowMs) : unchanged(phase)
    case 'checked':
      return isAt(phase, 'checking', event.id) ? afterCheck(phase, event, nowMs) : unchanged(phase)
    case 'go':
      return isAt(phase, 'going', event.id) ? went(phase, phase.run, phase.swap, nowMs) : unchanged(phase)
    case 'go-failed':
      return isAt(phase, 'going', event.id) ? aborted(phase, phase.run, event.why) : unchanged(phase)
    case 'applied':
      return isAt(phase, 'reviewed', event.id) ? went(phase, phase.run, phase.swap, nowMs) : unchanged(phase)
    case 'compact-begin':
      // The stuck clock restarts here: the compaction's own time is its limit.
      return isAt(phase, 'swapping', event.id) && !phase.isCompacting ? moved(phase, { ...phase, sinceMs: nowMs, isCompacting: true }) : unchanged(phase)
    case 'compact-refused': {
      if (!isAt(phase, 'swapping', event.id)) return unchanged(phase)
      const refusals = phase.swap.refusals + 1
      if (refusals >= MAX_COMPACT_TRIES) return aborted(phase, phase.run, `compaction was refused ${refusals} times (last: ${event.error})`)
      // Back to the go stage: the go step is taken again from a timer (a mod
      // cannot queue its own command from one: its hook would never hear it).
      return moved(phase, { kind: 'going', run: phase.run, sinceMs: nowMs, swap: { ...phase.swap, refusals } }, [
        { kind: 'go-later', id: event.id, delayMs: COMPACT_RETRY_MS },
      ])
    }
    case 'compact-skipped':
      return isAt(phase, 'swapping', event.id) ? aborted(phase, phase.run, `the compaction was skipped (${event.why})`) : unchanged(phase)
    case 'compacted':
      // Finished only by the run that asked for it, with what it holds now.
      if (isAt(phase, 'swapping', event.id)) {
        return moved(phase, { kind: 'idle' }, [{ kind: 'finish-swap', run: phase.run, swap: phase.swap, isSummarized: event.isSummarized, after: event.after }])
      }
      return unchanged(phase, [{ kind: 'late-swap', swap: event.swap }])
    case 'tick':
      return unchanged(phase)
    case 'conversation-replaced': {
      // Our own swap's compaction never reaches the engine's route; a run
      // named by id is recorded only while it is the one under way.
      if (phase.kind === 'idle' || (phase.kind === 'swapping' && phase.isCompacting) || (event.id !== undefined && phase.run.id !== event.id)) return unchanged(phase)
      // Before the skill's turn has ended, the handoff is written from what replaced the conversation.
      const isBeforeWritten = phase.kind === 'launching' || phase.kind === 'writing'
      const run: Run = { ...phase.run, replacedBy: event.by, ...(isBeforeWritten ? { writtenFrom: event.by } : {}) }
      return run.replacedBy !== phase.run.replacedBy || run.writtenFrom !== phase.run.writtenFrom ? moved(phase, { ...phase, run }) : unchanged(phase)
    }
    case 'session-ended': {
      if (phase.kind === 'idle') return unchanged(phase)
      // After /clear or /resume the process goes on with a prompt box; after
      // an exit (or a -p run's end) there is none to give anything back to.
      const isGoingOn = event.reason === 'clear' || event.reason === 'resume'
      const why = `the session ended (${event.reason})`
      return dropped(phase, phase.run, why, isGoingOn ? { giveBack: 'box-or-keep', toast: `${why}, and the handoff run with it` } : { giveBack: 'keep' })
    }
    case 'hold': {
      if (!isHoldingPrompts(phase)) return unchanged(phase)
      // Attachments are readable only while their prompt.submit is in flight,
      // a plugin's prompt never carries any (its `attachments` are the
      // engine's to set, and pasted images are not expanded for it), and
      // `$.fs.write` writes text only: a held prompt would lose them. So it
      // goes through now, whole, and the person is told.
      if (event.attachments !== undefined && event.attachments.length > 0) return unchanged(phase, [{ kind: 'let-through', attachments: event.attachments }])
      const run: Run = event.isCommand
        ? { ...phase.run, heldCommands: [...phase.run.heldCommands, event.text] }
        : { ...phase.run, held: [...phase.run.held, event.text] }
      return moved(phase, { ...phase, run }, [{ kind: 'held', text: event.text }])
    }
  }
}

/** Whether `event` is what the run's compaction call returned: progress,
 * however long the engine took, never a reason to call the run stuck. */
function isCompactionResult(phase: Phase, event: RunEvent): boolean {
  const isResult = event.kind === 'compacted' || event.kind === 'compact-refused' || event.kind === 'compact-skipped'
  return isResult && isAt(phase, 'swapping', event.id) && phase.isCompacting
}

export function transition(phase: Phase, event: RunEvent, nowMs: number): Step {
  if (phase.kind !== 'idle' && !isCompactionResult(phase, event) && nowMs - phase.sinceMs > stuckAfterMs(phase)) {
    const why = `the handoff run was stuck at "${stageTextOf(phase)}" for over ${minutesText(stuckAfterMs(phase))} and has been dropped`
    const drop = dropped(phase, phase.run, `stuck: ${stageTextOf(phase)}`, { toast: why })
    const next = take(drop.phase, event, nowMs)
    return { ...next, effects: [...drop.effects, ...next.effects] }
  }
  return take(phase, event, nowMs)
}
