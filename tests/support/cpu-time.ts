/**
 * How long a call works, in this process's CPU milliseconds (user and system), for the tests
 * that hold a call to linear time. Not the wall clock: on a busy machine other processes
 * stretch the wall clock by seconds while the call's own work stays what it was. vitest runs
 * each test file in a process of its own (its default pool, forks), so no other test's work
 * is counted here.
 */
export function cpuMsOf(call: () => unknown): number {
  const before = process.cpuUsage()
  call()
  const { user, system } = process.cpuUsage(before)
  return (user + system) / 1000
}
