// A handoff run's data: the run itself and the phase it is in (kept in
// `$.state` by run-state.ts); run-machine.ts decides every move between phases.
import type { Mode, SkillValues } from '../protocol/protocol.js'
import type { HandoffPath } from '../protocol/protocol-paths.js'
import { OWN_PLUGIN } from '../stub/swap-text.js'

export type Run = {
  /** Timers carry it, so one that fires after a cancel or a newer run finds nothing to do. */
  id: string
  mode: Mode
  focus: string
  startedAtMs: number
  /** The session's folder when the run started; handoff paths are relative to it. */
  cwd: string
  /** That folder with its links resolved, as `$.fs.stat` reports a file's real path. */
  cwdRealPath: string
  /** Whether that folder's file system ignores letter case (protocol-paths.ts
   * folderIgnoresCase): every comparison of a path with it folds case then. */
  ignoresCase: boolean
  /** What the skill is told to copy into the frontmatter; `values.run` tags its turns. */
  values: SkillValues
  files: RunFile[]
  /** `now` swaps as soon as the checks pass; `review` stops there for /compact-handoff apply. */
  apply: 'now' | 'review'
  trigger: 'command' | 'auto-handoff'
  /** Prompts the person typed while the run was under way, held for the continue-prompt. */
  held: string[]
  /** Slash commands (skills, prompt commands) typed meanwhile, held for the prompt box. */
  heldCommands: string[]
  repairs: number
  /** Context use when the run started, for the swap log; null when unknown. */
  contextPercentBefore: number | null
  /** What replaced the conversation while the run was under way, by a
   * compaction the engine raised (the newest, when there were several):
   * absent while the conversation is the one the run started from. */
  replacedBy?: Replaced
  /** What the skill wrote the handoff from, when a replacement came before its
   * turn ended (launching, writing): the swap's stub says so. One that came
   * later (the go stage waiting behind another turn) leaves the handoff
   * written from the whole conversation. */
  writtenFrom?: Replaced
}

/** What an automatic compaction in the middle of a run replaced the
 * conversation with: a digest this mod builds when the skill's own turn does
 * not fit the window (compaction/compaction-steps.ts), or the engine's summary.
 * From then on no failure may say the conversation is unchanged. */
export type Replaced = 'digest' | 'summary'

/** A file the skill's turns wrote, and how: `whole` once a Write put its
 * whole text there, `edited` while only Edits changed it. An Edit keeps what
 * was there around its change, which may be a stranger's (a cloned handoff),
 * so only a file this run wrote whole is swapped in (file-check.ts). */
export type RunFile = HandoffPath & { wrote: 'whole' | 'edited' }

export type Swap = {
  handoff: string
  plan?: string
  /** From the skill's block, or the fallback; held prompts are added when it is sent. */
  continuePrompt: string
  refusals: number
  /** The work's facts for the stub (facts.ts), taken when the files were checked. */
  facts?: string
}

/** Every phase but idle says since when (`sinceMs`) it has been at its stage,
 * which is what the stuck-run rule measures. */
export type Phase =
  | { kind: 'idle' }
  /** Started; a timer is about to run the skill (never from the command hook: refused there). */
  | { kind: 'launching'; run: Run; sinceMs: number }
  /** The skill's turn (or a repair turn) is asked for or running; `turnId` once
   * its turn.start was seen, so no other turn is taken for it. A repair turn
   * keeps what the turn before it chose, for an answer that names nothing. */
  | { kind: 'writing'; run: Run; sinceMs: number; turnId?: string; previous?: Chosen }
  /** The skill's turn ended; the files are being checked on disk. */
  | { kind: 'checking'; run: Run; sinceMs: number; chosen: Chosen }
  /** Checked, and stopped for the person to review and edit the files. */
  | { kind: 'reviewed'; run: Run; sinceMs: number; swap: Swap }
  /** Checked; the hidden go-command is queued (from the skill turn's
   * turn.complete) and runs once the session is idle, the one moment the
   * engine lets a compaction through. After a refused compaction the go step
   * waits here for its retry timer. */
  | { kind: 'going'; run: Run; sinceMs: number; swap: Swap }
  /** The go step ran (the go-command's hook, a retry, or an apply): the
   * compaction waits on its timer, then is asked (`isCompacting` while the
   * engine call is in flight: too late to cancel). */
  | { kind: 'swapping'; run: Run; sinceMs: number; swap: Swap; isCompacting: boolean }

export type Chosen = {
  handoff: HandoffPath
  plan?: HandoffPath
  continuePrompt: string
  /** Said to the person, but not a reason to stop. */
  notices: string[]
}

export const IDLE: Phase = { kind: 'idle' }

export type Stage = Exclude<Phase['kind'], 'idle'>

export const STAGE_TEXT: Readonly<Record<Stage, string>> = {
  launching: 'starting the handoff skill',
  writing: 'the handoff skill is writing',
  checking: 'checking the handoff files',
  reviewed: 'waiting for /compact-handoff apply',
  going: 'swap queued (the go-command runs once the session is idle)',
  swapping: 'replacing the conversation',
}

export function stageTextOf(phase: Exclude<Phase, { kind: 'idle' }>): string {
  if (phase.kind === 'writing' && phase.run.repairs === 0 && phase.run.writtenFrom === 'digest') return 'the handoff skill is writing from a digest'
  if (phase.kind === 'writing' && phase.run.repairs > 0) return `the handoff skill is fixing its files (repair ${phase.run.repairs} of ${MAX_REPAIRS})`
  return STAGE_TEXT[phase.kind]
}

export const MAX_REPAIRS = 2

/** What every timer and late hook asks before it acts: a cancel may have come in between. */
export function isAt<S extends Stage>(phase: Phase, stage: S, id: string): phase is Extract<Phase, { kind: S }> {
  return phase.kind === stage && phase.run.id === id
}

/** Whether a prompt the person types now must be held rather than run: from the
 * start of a run until its continue-prompt is sent, a prompt would be answered
 * and then erased by the swap (seen live in 2.1.332). A reviewed run waits for
 * the person, who may talk to Claude meanwhile. */
export function isHoldingPrompts(phase: Phase): phase is Exclude<Phase, { kind: 'idle' | 'reviewed' }> {
  return phase.kind !== 'idle' && phase.kind !== 'reviewed'
}

/** What a run that stops says of a conversation an automatic compaction
 * replaced mid-run, which now stands, and what to do; undefined while the
 * conversation is the one the run started from (the caller says unchanged). */
export function replacedNoteOf(run: Pick<Run, 'replacedBy'>): string | undefined {
  return run.replacedBy && REPLACED_NOTE[run.replacedBy]
}

const REPLACED_NOTE: Readonly<Record<Replaced, string>> = {
  digest:
    "The conversation had already been replaced by a digest of it at the window's edge (the handoff skill's turn did not fit the context window), and the digest stands as the conversation: carry on from it (the recall tool brings back what it left out), or run /compact-handoff again for a handoff written from it.",
  summary: "The conversation had already been replaced by Claude Code's own summary during the run (an automatic compaction), and the summary stands as the conversation: carry on from it, or run /compact-handoff again.",
}

/** The run's own hidden step (commands/, above, registers it), queued once the
 * checks pass: a queued command runs once the session is idle, the one moment
 * the engine lets a compaction through; its hook takes the go step. */
export const GO_COMMAND = 'compact-handoff-go'

/** Whether the go-command was queued by compact-handoff itself: the host sets
 * `origin`, so neither another plugin nor the person typing it passes. */
export function isOwnGo(origin: { kind: string; name?: string }): boolean {
  return origin.kind === 'plugin' && origin.name === OWN_PLUGIN
}

export const GO_REFUSED_TEXT = `/${GO_COMMAND} is compact-handoff's own step of a swap it queued itself; nothing is waiting on it here, so nothing changed.`
