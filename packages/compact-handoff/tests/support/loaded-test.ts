// The kit's `test`, with a limit sized for a loaded machine. The kit fails a test that
// outlasts 5,000 ms; each test of this mod loads it afresh (a hundred modules) and most drive
// a run through its check to a swap, an abort or a repair: about 0.5 to 3 s of a quiet 2-core
// machine's work (the suite's 305 tests, two files at a time, took about 2.5 minutes), which
// three busy loops beside the suite stretched past 5 s. Nothing here waits on the real clock
// (mock.clock drives every timer), so the limit only has to cover the machine's own speed.
// A test that names its own timeoutMs keeps it.
import { test as kitTest, type TestBody, type TestOptions } from 'claude-code/testing'

/** About ten times the slowest swap-length test's quiet-machine time. */
export const LOADED_MACHINE_TIMEOUT_MS = 30_000

export function test(name: string, ...rest: readonly [body: TestBody] | readonly [options: TestOptions, body: TestBody]): void {
  const [options, body] = rest.length === 1 ? [{}, rest[0]] : rest
  kitTest(name, { timeoutMs: LOADED_MACHINE_TIMEOUT_MS, ...options }, body)
}
