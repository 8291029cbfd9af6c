/**
 * The one way the harness waits: poll a probe until it returns a value, with a deadline.
 * On a busy 2-core machine a fixed sleep is either too short or wasted.
 */
import { setTimeout as sleep } from 'node:timers/promises'

/** How often the tests poll; timed figures (demo, bench) pass a finer `everyMs`. */
export const POLL_MS = 100

/** Polls `probe` until it returns a value other than `undefined`; throws after `timeoutMs`. */
export async function pollUntil<T>(what: string, timeoutMs: number, probe: () => T | undefined, everyMs = POLL_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const hit = probe()
    if (hit !== undefined) return hit
    if (Date.now() > deadline) throw new Error(`harness: timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(everyMs)
  }
}
