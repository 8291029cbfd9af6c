// Whether a fork is writing the handoff that answers a compaction right now:
// the fork sets the session's last handoff only once it is done, so a run
// launched meanwhile would read the one before and start a second chain.
// A module variable: a hot reload starts it over (then the old copy's fork is not waited for).
let forksAnswering = 0

/** Runs `fork` (the whole answer, the last handoff set included), counted. */
export async function whileForkAnswers<T>(fork: () => Promise<T>): Promise<T> {
  forksAnswering++
  try {
    return await fork()
  } finally {
    forksAnswering--
  }
}

export function isForkAnswering(): boolean {
  return forksAnswering > 0
}
