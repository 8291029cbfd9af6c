// Every toast compact-handoff shows, in one table: each reads whole in the
// toast box, the most important words first, a path shortened from the left.
// What a toast cannot hold (a reason, an error's own words, the held
// messages) is its `detail`, drawn as a transcript line beside it
// (toast-steps.ts), so nothing the person needs to act on is cut.
//
// The toast box as the terminal draws it (2.1.332, seen live at 80 and at 160
// columns alike): 40 cells of text across, at most 3 lines, wrapped at spaces;
// a word that does not fit the line's rest starts the next line, one longer
// than a line is broken, and whatever is past the third line is cut with "…".
import { tailOf } from './text-clip.js'

export const TOAST_COLUMNS = 40
export const TOAST_LINES = 3

/** The lines the box wraps `text` into, all of them (the box shows the first {@link TOAST_LINES}). */
export function toastLinesOf(text: string): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (word === '') continue
    if (line !== '' && line.length + 1 + word.length <= TOAST_COLUMNS) {
      line += ` ${word}`
      continue
    }
    if (line !== '') lines.push(line)
    let rest = word
    while (rest.length > TOAST_COLUMNS) {
      lines.push(rest.slice(0, TOAST_COLUMNS))
      rest = rest.slice(TOAST_COLUMNS)
    }
    line = rest
  }
  if (line !== '') lines.push(line)
  return lines
}

/** Whether the box shows `text` whole. */
export function fitsToast(text: string): boolean {
  return toastLinesOf(text).length <= TOAST_LINES
}

/** A path never shortened below this: its file's date and extension. */
const MIN_PATH_CHARS = 16

/** `make(path)` with `path` as long as the box lets it be: whole, else
 * shortened from the left (tailOf) until the toast fits. Bounded: at most one
 * wrap of a short text per character the path loses. */
export function toastWithPath(make: (path: string) => string, path: string): string {
  const whole = make(path)
  if (fitsToast(whole)) return whole
  for (let chars = Math.min(path.length - 1, TOAST_COLUMNS); chars > MIN_PATH_CHARS; chars--) {
    const text = make(tailOf(path, chars))
    if (fitsToast(text)) return text
  }
  return make(tailOf(path, MIN_PATH_CHARS))
}

export type Toast = { text: string; detail?: string }

/** Where a dropped run's conversation stands (run-steps.ts droppedContextOf). */
export type DroppedContext = 'unchanged' | 'compaction-pending' | 'unsaid' | 'digest' | 'summary'

const DROPPED_TEXT: Record<DroppedContext, string> = {
  unchanged: 'handoff run stopped; the conversation is unchanged',
  digest: 'handoff run stopped; a digest had already replaced the conversation',
  summary: "handoff run stopped; Claude Code's summary had already replaced the conversation",
  'compaction-pending': 'handoff run stopped, but its compaction may still replace the conversation',
  unsaid: 'handoff run stopped',
}

/** A text that may not fit: the toast when it does, else `short` with it as the detail. */
function whole(text: string, short: string): Toast {
  return fitsToast(text) ? { text } : { text: short, detail: text }
}

export const TOASTS = {
  /** The meter: the first turn after a swap did not read its handoff. */
  unreadHandoff: (handoff: string): Toast => ({ text: toastWithPath((p) => `Claude did not read the handoff after the swap; ask it to read ${p}`, handoff) }),
  /** A resume of a file not the person's own, answered no. */
  notResumed: (handoff: string): Toast => ({ text: toastWithPath((p) => `not resumed, nothing was sent: ${p}`, handoff) }),
  /** The offer at session start. */
  offer: (handoff: string, ageMs: number): Toast => ({
    text: toastWithPath((p) => `/compact-handoff resume picks up your handoff of ${Math.max(1, Math.round(ageMs / 3_600_000))} h ago: ${p}`, handoff),
  }),
  /** A compaction of the engine's answered with a fork's handoff. */
  forkHandoff: (by: 'auto' | 'manual', handoff: string): Toast => ({
    text: toastWithPath((p) => `${by === 'auto' ? 'the automatic compaction' : 'your /compact'} became a checked handoff: ${p}`, handoff),
  }),
  /** The turn was stopped while a fork wrote the handoff. */
  compactionKept: (why: string): Toast => ({
    text: 'no handoff was written, so nothing was compacted: the conversation is kept',
    detail: `no handoff was written at this compaction: ${why}. Claude Code compacts again when the context fills.`,
  }),
  /** No handoff was written: the engine's summary replaced the conversation (said once it had). */
  compactionSummarized: (why: string): Toast => ({
    text: "no handoff was written; Claude Code's own summary replaced the conversation",
    detail: `no handoff was written at this compaction: ${why}. The summary was told to keep your words, the work's facts and a handoff's sections.`,
  }),
  /** The handoff skill's turn did not fit the window: a digest replaced the conversation, and the turn went on from it. */
  runEdgeDigest: (shownEntries: number, leftOutEntries: number): Toast => ({
    text: 'the handoff skill did not fit the window: a digest replaced the conversation; the skill writes from it',
    detail: `The conversation was too long for the handoff skill's own turn, so compact-handoff replaced it with a digest built by code (${shownEntries} entries shown, ${leftOutEntries} left out; the recall tool brings those back). The skill's turn went on from the digest; the run checks its handoff and swaps as usual.`,
  }),
  /** A compaction too long for a fork, answered with a handoff written from the conversation's digest. */
  digestHandoff: (by: 'auto' | 'manual', handoff: string): Toast => ({
    text: toastWithPath((p) => `${by === 'auto' ? 'the automatic compaction' : 'your /compact'} became a handoff written from a digest: ${p}`, handoff),
    detail: `the conversation was too long for one more request, so the handoff ${handoff} was written from a digest of it and checked. Claude is told to look up what it lacks with the recall tool.`,
  }),
  /** No handoff and no summary: the conversation's digest itself replaced it. */
  compactionDigest: (why: string): Toast => ({
    text: "no handoff or summary could be written; compact-handoff's digest replaced the conversation",
    detail: `nothing could be written at this compaction: ${why}. The digest, built by code from the session's records, replaced the conversation; Claude looks up the rest with the recall tool.`,
  }),
  /** Nothing could replace the conversation: it stands as it was. */
  compactionNothing: (why: string): Toast => ({
    text: 'nothing replaced the conversation: it is kept as it was. /clear starts a fresh one',
    detail: `nothing could replace the conversation at this compaction: ${why}. It is kept as it was. /clear starts a fresh conversation; your handoffs stay on disk (/compact-handoff resume picks one up).`,
  }),
  /** The nudge, once per context window. */
  nudge: (percent: number): Toast => ({ text: `context at ${Math.round(percent)}%. /compact-handoff is recommended.` }),
  /** Held messages another session left, back in the prompt box; `detail` says when they were held. */
  restored: (count: number, detail: string): Toast => ({ text: `${count} message(s) you typed during a handoff run are back in the prompt box`, detail }),
  /** A run dropped: where the conversation stands; `detail` says why and where its held messages went. */
  runDropped: (detail: string, context: DroppedContext): Toast => ({ text: DROPPED_TEXT[context], detail }),
  /** A held message the store refused: the run still delivers it, but a crash or an
   * exit before then loses it, so it is said at once, the loss first. */
  notKept: (): Toast => ({ text: 'Held message not saved: it is lost if this session ends before the swap. Copy it to keep it.' }),
  /** A resume of an own handoff left out the plan its chain names: not the person's
   * own; `detail` says why and what to do. */
  planLeftOut: (plan: string, detail: string): Toast => ({ text: toastWithPath((p) => `plan not named to Claude, not yours: ${p}`, plan), detail }),
  /** A prompt typed during a run, held. */
  held: (): Toast => ({ text: 'your message is held until the swap is done; /compact-handoff cancel gives it back' }),
  /** A prompt with attachments went through during a run; `detail` says what happens to them. */
  letThrough: (detail: string): Toast => ({ text: 'your message went to Claude now: a swap cannot hold its attachment', detail }),
  /** The continue-prompt could not be sent after a swap. */
  continuePromptNotSent: (why: string, handoff: string, isInBox: boolean): Toast => ({
    text: isInBox ? 'swapped, but the continue-prompt was not sent: it is in the prompt box, press Enter' : toastWithPath((p) => `swapped, but the continue-prompt was not sent: ask Claude to read ${p}`, handoff),
    detail: `the conversation was replaced, but the continue-prompt could not be sent (${why}). ${isInBox ? 'It is in the prompt box; press Enter, or' : 'Nor could it be put in the prompt box:'} ask Claude to read ${handoff}.`,
  }),
  /** compact-handoff-answer did not answer the swap. */
  answerModMissing: (): Toast => ({
    text: 'compact-handoff-answer did not answer: the engine summarized instead. Enable it',
    detail: 'compact-handoff-answer did not answer, so the engine summarized the conversation instead (one summariser request). Install or enable compact-handoff-answer.',
  }),
  /** Commands typed during the swap, put back in the prompt box. */
  heldCommands: (commands: readonly string[]): Toast =>
    whole(`the command(s) you typed during the swap are in the prompt box: ${commands.join(', ')}`, 'the command(s) you typed during the swap are in the prompt box'),
  /** A compaction that returned after its run was dropped. */
  lateSwap: (handoff: string, isInBox: boolean): Toast => ({
    text: toastWithPath((p) => `a dropped run's handoff replaced the conversation: ${p}`, handoff),
    detail: `the conversation was replaced by ${handoff} after its run had been dropped. ${isInBox ? 'The continue-prompt is in the prompt box; press Enter' : 'Ask Claude to read it'} to go on from the handoff.`,
  }),
  /** The auto handoff started. */
  autoHandoffStarted: (percent: number): Toast => ({ text: `context at ${Math.round(percent)}%: a handoff started on its own. /compact-handoff cancel stops it` }),
} as const

export type ToastName = keyof typeof TOASTS
