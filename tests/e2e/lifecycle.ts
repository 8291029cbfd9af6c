/**
 * Run-dir bookkeeping shared by the e2e files: sessions are stopped after each file, and
 * a run dir is removed only when every test of the file passed, so a failure leaves the
 * screen capture, debug log and mock log on disk for post-mortem.
 */
import { rmSync } from 'node:fs'
import { afterAll, afterEach } from 'vitest'
import type { RunDir } from '../harness/run-dir.js'
import type { Session } from '../harness/tmux-session.js'

/** Registers the hooks; call `track` on every run dir and session the file creates. */
export function trackRuns(): { track: (run: RunDir, session?: Session) => void } {
  const runs = new Set<RunDir>()
  const sessions = new Set<Session>()
  // Counted rather than flagged on failure: when a beforeAll throws, no test runs and no
  // afterEach sees a failure, yet that is the run dir most worth keeping.
  let ran = 0
  let passed = 0
  afterEach((ctx) => {
    ran++
    if (ctx.task.result?.state !== 'fail') passed++
  })
  afterAll(async () => {
    for (const s of sessions) await s.stop()
    const isClean = ran > 0 && passed === ran
    for (const run of runs) {
      if (isClean) rmSync(run.dir, { recursive: true, force: true })
      else console.error(`e2e: kept run dir for post-mortem: ${run.dir}`)
    }
  })
  return {
    track(run, session) {
      runs.add(run)
      if (session !== undefined) sessions.add(session)
    },
  }
}
