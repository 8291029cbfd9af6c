/**
 * Held messages in a project whose path is 230 characters: the engine refuses a
 * `$.store` key over 256 characters, so a key that holds the path keeps nothing from
 * a path of about 215 characters on. After a SIGKILL and after an `/exit` the next
 * session in the project puts the held message back in its prompt box.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startSession } from '../harness/tmux-session.js'
import type { RunDir } from '../harness/run-dir.js'
import { trackRuns } from './lifecycle.js'
import { ANSWER_MOD, HANDOFF_MOD, PLUGIN_DIRS, logEntries, ordinaryTurn, pollUntil, promptBoxOf, reviewRunHolding, startFlow, type Flow } from './flow-support.js'

const PROJECT_PATH_CHARS = 230

/** Moves the run's project into folders under it until its path is PROJECT_PATH_CHARS long. */
function deepProject(run: RunDir): void {
  const segment = 'a-project-folder-whose-name-is-long-enough'
  let proj = run.proj
  while (proj.length + 1 + segment.length < PROJECT_PATH_CHARS) proj = join(proj, segment)
  proj = join(proj, 'p'.repeat(PROJECT_PATH_CHARS - proj.length - 1))
  mkdirSync(proj, { recursive: true })
  run.proj = proj
}

/** The next session in the project, ready; its toast and prompt box are what the test reads. */
async function nextSession(flow: Flow, track: (run: RunDir, session?: Awaited<ReturnType<typeof startSession>>) => void) {
  const next = await startSession({ run: flow.run, plugins: [PLUGIN_DIRS.handoff, PLUGIN_DIRS.answer, PLUGIN_DIRS.skills], mock: flow.mock })
  track(flow.run, next)
  await next.waitForReady({ mods: [HANDOFF_MOD, ANSWER_MOD] })
  return next
}

describe(`held messages in a project whose path is ${PROJECT_PATH_CHARS} characters`, () => {
  const { track } = trackRuns()

  it('survive a SIGKILL: the next session puts them back in the prompt box', async () => {
    const flow = await startFlow('held-long-kill', track, { prepare: deepProject })
    expect(flow.run.proj.length).toBe(PROJECT_PATH_CHARS)
    await ordinaryTurn(flow, 'LONG-KILL')
    const held = 'Keep the old flag working until the next release.'
    await reviewRunHolding(flow, 'long-kill', held)
    expect(flow.session.toasts().filter((t) => /not kept|could not be kept/.test(t.text)), 'no failure was shown').toEqual([])
    await flow.session.crash()

    const next = await nextSession(flow, track)
    await next.waitForToast(/^1 message\(s\) you typed during a handoff run are back in the prompt box$/, { mod: 'compact-handoff', timeoutMs: 90_000 }) // once the killed session's heartbeat is ORPHANED_AFTER_MS old
    // What the box cannot hold, when they were held, is its detail line.
    await next.waitForTranscriptLine(/^1 message\(s\) you typed during a handoff run, held by a session here that stopped before it could deliver them \(last held [^)]+\), are back in the prompt box\.$/, { plugin: 'compact-handoff', timeoutMs: 30_000 })
    await pollUntil('the kept text in the prompt box', 15_000, () => (promptBoxOf(next.screen()) === held ? true : undefined))
  })

  it('survive an /exit: kept, logged as kept, and put back by the next session', async () => {
    const flow = await startFlow('held-long-exit', track, { prepare: deepProject })
    expect(flow.run.proj.length).toBe(PROJECT_PATH_CHARS)
    await ordinaryTurn(flow, 'LONG-EXIT')
    const held = 'Leave the migration script alone.'
    await reviewRunHolding(flow, 'long-exit', held)
    await flow.session.type('/exit')
    await pollUntil('the run logged as aborted', 15_000, () => (logEntries(flow).at(-1)?.outcome === 'aborted' ? true : undefined))
    expect(logEntries(flow).at(-1)?.reason, 'kept, not lost').toMatch(/^the session ended \(prompt_input_exit\); 1 held message\(s\) kept in compact-handoff's store/)
    await flow.session.stop()

    const next = await nextSession(flow, track)
    await next.waitForToast(/^1 message\(s\) you typed during a handoff run are back in the prompt box$/, { mod: 'compact-handoff', timeoutMs: 30_000 })
    await next.waitForTranscriptLine(/^1 message\(s\) you typed during a handoff run, held when the session here ended \([^)]+\), are back in the prompt box\.$/, { plugin: 'compact-handoff', timeoutMs: 30_000 })
    await pollUntil('the kept text in the prompt box', 15_000, () => (promptBoxOf(next.screen()) === held ? true : undefined))
  })
})
