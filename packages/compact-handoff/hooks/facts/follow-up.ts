// The rediscovery meter: after a swap (or a resume), what the new context does
// again that the old one had done: Reads of files already read before, and
// shell commands already run. Both are signs that the handoff left something
// out. Watched for FOLLOW_UP_TURNS main-loop turns, or until the next run.
// Paths and commands compare as recorded: masked (work-steps.ts).
import type { Facts } from './facts.js'

export const FOLLOW_UP_TURNS = 10

/** What a window follows: a swap or a resume of a handoff, or a compaction that
 * was not ours (the person's /compact, the engine's own), measured the same way. */
export type After = { kind: 'swapped' | 'resumed'; handoff: string; time: string } | { kind: 'compacted'; time: string }

export type Watched = {
  after: After
  turnsLeft: number
  readBefore: string[]
  commandsBefore: string[]
  reReads: string[]
  repeatedCommands: string[]
  /** Whether the handoff itself was read since, and whether the first turn ended. */
  handoffRead: boolean
  firstTurnEnded: boolean
}

export type FollowUp = { kind: 'none' } | ({ kind: 'watching' } & Watched)

export const NOT_WATCHING: FollowUp = { kind: 'none' }

export function watchingAfter(after: Watched['after'], facts: Facts): FollowUp {
  return {
    kind: 'watching',
    after,
    turnsLeft: FOLLOW_UP_TURNS,
    readBefore: [...facts.read],
    commandsBefore: facts.commands.map((c) => c.line),
    reReads: [],
    repeatedCommands: [],
    handoffRead: false,
    firstTurnEnded: false,
  }
}

export function followUpWithRead(followUp: FollowUp, path: string): FollowUp {
  if (followUp.kind !== 'watching') return followUp
  if (followUp.after.kind !== 'compacted' && path === followUp.after.handoff) return followUp.handoffRead ? followUp : { ...followUp, handoffRead: true }
  const isReRead = followUp.readBefore.includes(path) && !followUp.reReads.includes(path)
  return isReRead ? { ...followUp, reReads: [...followUp.reReads, path] } : followUp
}

export function followUpWithCommand(followUp: FollowUp, line: string): FollowUp {
  if (followUp.kind !== 'watching') return followUp
  const isRepeat = followUp.commandsBefore.includes(line) && !followUp.repeatedCommands.includes(line)
  return isRepeat ? { ...followUp, repeatedCommands: [...followUp.repeatedCommands, line] } : followUp
}

/** What a main-loop turn's end does to the window: counts it down, and says
 * whether the first turn went by without reading the handoff and whether the
 * window closes now (with its counts). */
export function followUpAfterTurn(followUp: FollowUp): { followUp: FollowUp; isUnread: boolean; closed?: Watched } {
  if (followUp.kind !== 'watching') return { followUp, isUnread: false }
  const isUnread = followUp.after.kind !== 'compacted' && !followUp.firstTurnEnded && !followUp.handoffRead
  const next = { ...followUp, turnsLeft: followUp.turnsLeft - 1, firstTurnEnded: true }
  if (next.turnsLeft <= 0) return { followUp: NOT_WATCHING, isUnread, closed: next }
  return { followUp: next, isUnread }
}

export function followUpTextOf(watched: { reReads: readonly string[]; repeatedCommands: readonly string[] }): string {
  return `${watched.reReads.length} file(s) read again, ${watched.repeatedCommands.length} command(s) run again`
}
