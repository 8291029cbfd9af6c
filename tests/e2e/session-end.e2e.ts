/**
 * A session that ends while a run holds a message the person typed: `/clear` puts it
 * back in the prompt box; an exit keeps it in the mod's store and the next session in
 * the project puts it back there. Either way the run is logged as aborted. A session
 * killed with SIGKILL (no session.end runs) leaves it in the store as well, kept there
 * since it was held: the next session in the project puts it back the same way.
 */
import { describe, expect, it } from 'vitest'
import { startSession } from '../harness/tmux-session.js'
import { swapLogEntriesOf } from '../harness/swap-logs.js'
import { trackRuns } from './lifecycle.js'
import { HANDOFF_MOD, ANSWER_MOD, PLUGIN_DIRS, ordinaryTurn, pollUntil, promptBoxOf, reviewRunHolding, startFlow, type Flow } from './flow-support.js'

/** The swap log's newest entry; undefined until the log exists. */
function lastLogEntry(flow: Flow): Record<string, unknown> | undefined {
  return swapLogEntriesOf(flow.run.proj).at(-1)
}

describe('a session ending during a run', () => {
  const { track } = trackRuns()

  it('/clear: the held message is back in the prompt box, with a toast, and the run is logged as aborted', async () => {
    const flow = await startFlow('end-clear', track)
    await ordinaryTurn(flow, 'CLEAR-ONE')
    const held = 'Also rename parseExpr while you are at it.'
    await reviewRunHolding(flow, 'end-clear', held)
    const mark = flow.session.logMark()
    await flow.session.type('/clear')
    await flow.session.waitForToast(/^handoff run stopped$/, { mod: 'compact-handoff', since: mark, timeoutMs: 30_000 })
    await flow.session.waitForTranscriptLine(/the session ended \(clear\), and the handoff run with it\. Your 1 held message\(s\) are back in the prompt box\./, { plugin: 'compact-handoff', since: mark, timeoutMs: 30_000 })
    await pollUntil('the held text back in the prompt box', 15_000, () => (promptBoxOf(flow.session.screen()) === held ? true : undefined))
    expect(lastLogEntry(flow)).toMatchObject({ outcome: 'aborted', reason: 'the session ended (clear); 1 held message(s) given back in the prompt box' })
  })

  it('exit: the held message is kept, and the next session in the project puts it back in the prompt box', async () => {
    const flow = await startFlow('end-exit', track)
    await ordinaryTurn(flow, 'EXIT-ONE')
    const held = 'Keep the deprecated alias for one release.'
    await reviewRunHolding(flow, 'end-exit', held)
    await flow.session.type('/exit')
    await pollUntil('the run logged as aborted', 15_000, () => (lastLogEntry(flow)?.outcome === 'aborted' ? true : undefined))
    expect(String(lastLogEntry(flow)?.reason)).toMatch(/^the session ended \(prompt_input_exit\); 1 held message\(s\) kept in compact-handoff's store/)
    await flow.session.stop()

    const next = await startSession({ run: flow.run, plugins: [PLUGIN_DIRS.handoff, PLUGIN_DIRS.answer, PLUGIN_DIRS.skills], mock: flow.mock })
    track(flow.run, next)
    await next.waitForReady({ mods: [HANDOFF_MOD, ANSWER_MOD] })
    await next.waitForToast(/^1 message\(s\) you typed during a handoff run are back in the prompt box$/, { mod: 'compact-handoff', timeoutMs: 30_000 })
    await next.waitForTranscriptLine(/^1 message\(s\) you typed during a handoff run, held when the session here ended .*, are back in the prompt box\.$/, { plugin: 'compact-handoff', timeoutMs: 30_000 })
    await pollUntil('the kept text in the prompt box', 15_000, () => (promptBoxOf(next.screen()) === held ? true : undefined))
  })

  it('killed (SIGKILL, no session.end): the held message is still kept, and the next session in the project puts it back in the prompt box', async () => {
    const flow = await startFlow('end-kill', track)
    await ordinaryTurn(flow, 'KILL-ONE')
    const held = 'Do not touch the lexer in this change.'
    await reviewRunHolding(flow, 'end-kill', held)
    const mark = flow.session.logMark()
    await flow.session.crash()
    expect(flow.session.debugLog().slice(mark), 'no session.end ran').not.toMatch(/session\.end/)
    expect(lastLogEntry(flow)?.outcome, 'the run never got to log its end').not.toBe('aborted')

    const next = await startSession({ run: flow.run, plugins: [PLUGIN_DIRS.handoff, PLUGIN_DIRS.answer, PLUGIN_DIRS.skills], mock: flow.mock })
    track(flow.run, next)
    await next.waitForReady({ mods: [HANDOFF_MOD, ANSWER_MOD] })
    // Taken once the killed session's heartbeat is ORPHANED_AFTER_MS old.
    await next.waitForToast(/^1 message\(s\) you typed during a handoff run are back in the prompt box$/, { mod: 'compact-handoff', timeoutMs: 90_000 })
    await next.waitForTranscriptLine(/^1 message\(s\) you typed during a handoff run, held by a session here that stopped before it could deliver them \(last held .*\), are back in the prompt box\.$/, {
      plugin: 'compact-handoff',
      timeoutMs: 30_000,
    })
    await pollUntil('the kept text in the prompt box', 15_000, () => (promptBoxOf(next.screen()) === held ? true : undefined))
    await next.stop()

    // Taken once: a third session here finds nothing to put back.
    const third = await startSession({ run: flow.run, plugins: [PLUGIN_DIRS.handoff, PLUGIN_DIRS.answer, PLUGIN_DIRS.skills], mock: flow.mock })
    track(flow.run, third)
    await third.waitForReady({ mods: [HANDOFF_MOD, ANSWER_MOD] })
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    expect(third.toasts().filter((t) => /you typed during a handoff run/.test(t.text))).toEqual([])
    expect(promptBoxOf(third.screen())).toBe('')
  })
})
