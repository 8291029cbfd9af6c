// The records of the hot path (a tool call's facts, what a stub carries, a
// shell started; a typed prompt's words), written after the tool's outcome or
// the prompt went on: the model's next request waits on those hooks, and each
// awaited `$` call is a round trip from the mods' worker to the engine. One
// chain, so two quick calls never race on one record; a hook that reads those
// records awaits it first (register.ts). A `$` call made after its hook
// returned is the mod's own code's: our hooks skip it, and no record here
// raises one of them.

let chain: Promise<void> = Promise.resolve()

/** Queues `record` behind every record before it; its failure costs only its
 * own record, as a recording failure never cost the person a tool call. */
export function recordLater(record: () => Promise<void>): void {
  chain = chain.then(record).catch(() => undefined)
}

/** Resolves once every record queued so far is written (or failed). */
export function recordsWritten(): Promise<void> {
  return chain
}
