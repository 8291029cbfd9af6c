// The records of the hot path (a Write's or an Edit's change, a typed prompt's words),
// held as data until a hook reads them, then written in one flush. Each `$`
// call is a round trip to the engine that costs CPU on every turn, and the
// model's next request waits on the hooks that record: held, a turn's records
// cost each distinct text one mask and each atom one read and one write
// (facts/work-steps.ts).
// A SIGKILL mid-turn loses the turn's unflushed records (the transcript still
// holds them). The rare records (carried/, the transcript's catch-up) run on the same
// chain at once, so two quick calls never race on one record. A `$` call made
// after its hook returned is the mod's own code's: our hooks skip it, and no
// record here raises one of them.

/** A record as the hook saw it, its text not yet masked: the path a Write or
 * an Edit changed, or the words typed. */
export type HeldRecord = { kind: 'change'; text: string } | { kind: 'words'; text: string }

/** Past this many held, they are flushed at once: a long turn keeps bounded memory and loses little. */
const MAX_HELD_RECORDS = 32

let held: HeldRecord[] = []
let chain: Promise<void> = Promise.resolve()

/** Queues `record` behind every record before it; its failure costs only its
 * own record, as a recording failure never cost the person a tool call. */
export function recordLater(record: () => Promise<void>): void {
  chain = chain.then(record).catch(() => undefined)
}

type Flush = (records: readonly HeldRecord[]) => Promise<void>

/** Holds `record` for the next flush (`flush` writes what was held, in order). */
export function holdRecord(record: HeldRecord, flush: Flush): void {
  held.push(record)
  if (held.length >= MAX_HELD_RECORDS) void flushHeld(flush)
}

/** Flushes what is held; resolves once every record queued so far is written (or failed). */
export function flushHeld(flush: Flush): Promise<void> {
  const records = held
  held = []
  if (records.length > 0) recordLater(() => flush(records))
  return chain
}
