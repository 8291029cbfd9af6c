// The rediscovery meter: after a swap (or a resume), what the new context does
// again that the old one had done: Reads of files already read before, and
// shell commands already run. Both are signs that the handoff left something
// out. Watched for METER_TURNS main-loop turns, or until the next run. Calls of
// the recall tool are counted apart: a detail brought back from the transcript
// instead of found again by reading or running.
// Paths and commands compare as recorded: masked (work-steps.ts).

export const METER_TURNS = 10

/** What a window follows: a swap or a resume of a handoff, or a compaction that
 * was not ours (the person's /compact, the engine's own), measured the same way. */
export type After = { kind: 'swapped' | 'resumed'; handoff: string } | { kind: 'compacted' }

export type Watched = {
  after: After
  turnsLeft: number
  readBefore: string[]
  commandsBefore: string[]
  reReads: string[]
  repeatedCommands: string[]
  /** Calls of the recall tool. */
  recalls: number
  /** Whether the handoff itself was read since, and whether the first turn ended. */
  handoffRead: boolean
  firstTurnEnded: boolean
}

export type Meter = { kind: 'none' } | ({ kind: 'watching' } & Watched)

export const NOT_WATCHING: Meter = { kind: 'none' }

/** `facts`: the work's facts as recorded when the window began (facts.ts Facts). */
export function watchingAfter(after: Watched['after'], facts: { read: readonly string[]; commands: readonly { line: string }[] }): Meter {
  return {
    kind: 'watching',
    after,
    turnsLeft: METER_TURNS,
    readBefore: [...facts.read],
    commandsBefore: facts.commands.map((c) => c.line),
    reReads: [],
    repeatedCommands: [],
    recalls: 0,
    handoffRead: false,
    firstTurnEnded: false,
  }
}

export function meterWithRead(meter: Meter, path: string): Meter {
  if (meter.kind !== 'watching') return meter
  if (meter.after.kind !== 'compacted' && path === meter.after.handoff) return meter.handoffRead ? meter : { ...meter, handoffRead: true }
  const isReRead = meter.readBefore.includes(path) && !meter.reReads.includes(path)
  return isReRead ? { ...meter, reReads: [...meter.reReads, path] } : meter
}

export function meterWithCommand(meter: Meter, line: string): Meter {
  if (meter.kind !== 'watching') return meter
  const isRepeat = meter.commandsBefore.includes(line) && !meter.repeatedCommands.includes(line)
  return isRepeat ? { ...meter, repeatedCommands: [...meter.repeatedCommands, line] } : meter
}

export function meterWithRecall(meter: Meter): Meter {
  if (meter.kind !== 'watching') return meter
  return { ...meter, recalls: meter.recalls + 1 }
}

/** What a main-loop turn's end does to the window: counts it down, and says
 * whether the first turn went by without reading the handoff and whether the
 * window closes now (with its counts). */
export function meterAfterTurn(meter: Meter): { meter: Meter; isUnread: boolean; closed?: Watched } {
  if (meter.kind !== 'watching') return { meter, isUnread: false }
  const isUnread = meter.after.kind !== 'compacted' && !meter.firstTurnEnded && !meter.handoffRead
  const next = { ...meter, turnsLeft: meter.turnsLeft - 1, firstTurnEnded: true }
  if (next.turnsLeft <= 0) return { meter: NOT_WATCHING, isUnread, closed: next }
  return { meter: next, isUnread }
}
