// A `$.state` value read with its version beside another engine call (one hop
// for both, not two), then written back with a compare-and-set. The engine
// lists a module's state access only from the literal refs it spells
// (`$.state.get` and `.set` with a non-literal ref do not load), so the reads
// and writes stay in each owner's state file; this is what they share.

/** A value as read, with the version a write back must meet. */
export type Held<T> = { value: T; version: number }

/** `read` (a `$.state.get` answer) with `initial` for a value never written. */
export function heldOf<T>(read: { value: T | undefined; version: number }, initial: T): Held<T> {
  return { value: read.value ?? initial, version: read.version }
}

/** Writes `change` of the value as held through `set` (the owner's
 * `$.state.set` with `ifVersion`); a change that keeps the value writes
 * nothing. A miss means another write landed since the read: `again` applies
 * the change to the value that stands now, never to this copy. */
export async function changeHeld<T>(held: Held<T>, change: (value: T) => T, set: (value: T, ifVersion: number) => Promise<{ isSet: boolean }>, again: () => Promise<unknown>): Promise<void> {
  const value = change(held.value)
  if (value !== held.value && !(await set(value, held.version)).isSet) await again()
}
