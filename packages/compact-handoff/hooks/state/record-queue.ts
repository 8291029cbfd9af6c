// The records of the hot path, held as data until a hook reads them, then
// written in one flush: each `$` call is a round trip to the engine that costs
// CPU on every turn, and the model's request waits on prompt.submit. Held are
// the words typed (words/words-steps.ts); the rare records (carried/, the
// facts' catch-up from the conversation) run on the same chain at once, so two
// never race on one record. A SIGKILL mid-turn loses the turn's unflushed words
// (the transcript still holds them). A `$` call made after its hook returned is
// the mod's own code's: our hooks skip it, and no record here raises one of them.

/** Past this many held, they are flushed at once: a long turn keeps bounded memory and loses little. */
const MAX_HELD_RECORDS = 32

let held: string[] = []
let chain: Promise<void> = Promise.resolve()

/** Queues `record` behind every record before it; its failure costs only its
 * own record, as a recording failure never cost the person a tool call. */
export function recordLater(record: () => Promise<void>): void {
  chain = chain.then(record).catch(() => undefined)
}

type Flush = (held: readonly string[]) => Promise<void>

/** Holds `text` for the next flush (`flush` writes what was held, in order). */
export function holdRecord(text: string, flush: Flush): void {
  held.push(text)
  if (held.length >= MAX_HELD_RECORDS) void flushHeld(flush)
}

/** Flushes what is held; resolves once every record queued so far is written (or failed). */
export function flushHeld(flush: Flush): Promise<void> {
  const records = held
  held = []
  if (records.length > 0) recordLater(() => flush(records))
  return chain
}
