// Nothing the person typed is lost: a slow compaction still finishes as a
// swap, text goes back into the prompt box after what is there, a prompt with
// attachments is let through and said so, and a session ending during a run
// gives back (or keeps) what it held and logs the run.
import { parseSkillArgs } from '../support/skill-protocol.js'
import { describe, expect, type Engine } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { CWD, HANDOFF, swapLogEntries, world, type World } from '../support/world.js'
import { endTurn, submitPrompt, typeCommand } from '../support/engine-calls.js'
import { handoffText, readyAnswer } from '../support/texts.js'
import { skillWritesFile, skillWritesHandoff, startSession, typeAndLaunch } from '../support/flow.js'

import { heldKeyOf } from '../../hooks/run/held-messages.js'

/** This session's entry's key in the store. */
const heldKey = () => heldKeyOf('session-1', CWD)

const MINUTE_MS = 60_000
const HELD = 'typed while the swap ran'

async function settle(w: World) {
  for (let i = 0; i < 3; i++) {
    await w.clock.settle()
    await w.clock.advance(0)
  }
  await w.clock.settle()
}

/** Holds the next compaction open until `release()`; `inFlight` resolves once it waits. */
function heldOpen(w: World) {
  let release = () => {}
  let isWaiting = () => {}
  const inFlight = new Promise<void>((resolve) => (isWaiting = resolve))
  const released = new Promise<void>((resolve) => (release = resolve))
  w.interjectAt('session.compact', 1, async () => {
    isWaiting()
    await released
  })
  return { inFlight, release }
}

/** Ends the skill's turn with a good handoff and lets the swap run. */
async function endSkillTurn($: Engine, w: World) {
  await skillWritesFile($, w, HANDOFF, handoffText())
  await endTurn($, readyAnswer([HANDOFF], 'Go on.'))
  await settle(w)
}

describe('a compaction slower than the stuck limit', () => {
  test('finishes as a swap: held messages delivered, logged as swapped, the next run chained to it', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    expect(await submitPrompt($, HELD)).toEqual({ drop: 'held by compact-handoff until its swap is done' })
    // Moved while the compaction is in flight, from outside its wait: inside
    // it the kit's clock moves only while no timer is due, and a run holding
    // a message beats on a timer.
    const compaction = heldOpen(w)
    const ended = endSkillTurn($, w)
    await compaction.inFlight
    await w.clock.advance(6 * MINUTE_MS)
    expect(w.clock.now(), 'the clock moved').toBeGreaterThan(1_000_000 + 6 * MINUTE_MS)
    compaction.release()
    await ended
    await settle(w)
    expect(w.seen.submits.filter((s) => s.asUser).map((s) => s.text)).toEqual([expect.stringContaining(HELD)])
    expect([...w.seen.toasts, ...w.seen.logs].filter((t) => /stuck|Context unchanged|handoff run stopped/.test(t)), 'never called stuck').toEqual([])
    expect(w.box(), 'nothing given back: it was delivered').toBe('')
    expect(swapLogEntries(w).at(-1)?.outcome).toBe('engine-summarized')
    await typeAndLaunch($, w, 'compact-handoff', '')
    expect(parseSkillArgs(w.seen.commandRuns.at(-1)?.args ?? '')?.values.parent, 'lastHandoff was set').toBe(HANDOFF)
  })

  test('dropped as stuck while it hangs, then returning: the continue-prompt goes after what the box holds', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    expect(await submitPrompt($, HELD)).toEqual({ drop: 'held by compact-handoff until its swap is done' })
    const compaction = heldOpen(w)
    const ended = endSkillTurn($, w)
    await compaction.inFlight
    await w.clock.advance(6 * MINUTE_MS)
    // The next event past the limit drops the run: the compaction may never return.
    expect((await typeCommand($, 'compact-handoff', 'status')).text).toContain('No handoff run under way')
    compaction.release()
    await ended
    await settle(w)
    expect(w.seen.toasts[1]).toBe('handoff run stopped, but its compaction may still replace the conversation')
    expect(w.seen.logs).toContainEqual(expect.stringMatching(/stuck at "replacing the conversation" for over 5 minutes.*The compaction had not returned: if it still does, the conversation is replaced/))
    expect(w.box()).toBe(`${HELD}\n\nGo on.`)
    expect(w.seen.toasts.at(-1)).toMatch(/^a dropped run's handoff replaced the conversation: /)
    expect(w.seen.logs).toContainEqual(expect.stringMatching(/replaced by .* after its run had been dropped\. The continue-prompt is in the prompt box; press Enter/))
  })
})

describe('text given back to the prompt box', () => {
  test('a continue-prompt that cannot be sent goes after the draft, not over it', async ($, on) => {
    const w = world(on, { refuseSubmit: true, draft: 'my half-typed thought' })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    expect(w.box()).toBe('my half-typed thought\n\nRead the handoff and continue from its Next step.')
  })
})

describe('a prompt with attachments typed during a run', () => {
  test('goes through whole, is not held, and the person is told', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    const answer = await $.prompt.submit({ text: 'what is wrong in this screenshot?', wait: false, origin: { kind: 'composer' }, attachments: [{ type: 'image', mediaType: 'image/png', id: 'img-1' }] })
    expect(answer).toEqual({ text: 'what is wrong in this screenshot?' })
    expect(w.seen.toasts).toEqual(['your message went to Claude now: a swap cannot hold its attachment'])
    expect(w.seen.logs).toContainEqual(expect.stringMatching(/^your message carries an image, which a plugin cannot hold and send again, so it went to Claude now/))
    await endSkillTurn($, w)
    expect(w.seen.submits.filter((s) => s.asUser).map((s) => s.text), 'not delivered twice').toEqual(['Go on.'])
  })
})

describe('the session ending during a run', () => {
  for (const reason of ['clear', 'resume'] as const) {
    test(`by ${reason}: held messages back in the prompt box, the run logged as aborted, its turn ending later changes nothing`, async ($, on) => {
      const w = world(on, { draft: 'draft' })
      await startSession($)
      await typeAndLaunch($, w, 'compact-handoff', '')
      await submitPrompt($, HELD)
      await $.session.end({ reason, sessionId: 'session-1', resume: { id: 'session-1' } })
      await w.clock.settle()
      expect(w.box()).toBe(`draft\n\n${HELD}`)
      expect(w.seen.toasts.at(-1)).toBe('handoff run stopped')
      expect(w.seen.logs).toContain(`the session ended (${reason}), and the handoff run with it. Your 1 held message(s) are back in the prompt box.`)
      expect(swapLogEntries(w).at(-1)).toMatchObject({ outcome: 'aborted', reason: `the session ended (${reason}); 1 held message(s) given back in the prompt box` })
      await endSkillTurn($, w)
      expect(w.seen.compactAttempts).toBe(0)
      expect(w.seen.submits.filter((s) => s.asUser)).toEqual([])
    })
  }

  test('by an exit: held messages kept in the store, logged with where, and put back by the next interactive session here', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await submitPrompt($, HELD)
    await submitPrompt($, 'and a second thought')
    await $.session.end({ reason: 'prompt_input_exit', sessionId: 'session-1', resume: { id: 'session-1' } })
    expect(w.seen.fills, 'no prompt box to give them to').toEqual([])
    const kept = { cwd: CWD, messages: [HELD, 'and a second thought'], heldAt: expect.any(String), endedAt: expect.any(String) }
    expect(w.store.get(await heldKey())).toEqual(kept)
    expect(swapLogEntries(w).at(-1)).toMatchObject({ outcome: 'aborted', reason: expect.stringMatching(/^the session ended \(prompt_input_exit\); 2 held message\(s\) kept in compact-handoff's store/) })
    // A -p session in this folder has no prompt box: they wait for an interactive one.
    w.setSessionId('session-2')
    await startSession($, { isInteractive: false })
    await settle(w)
    expect(w.box()).toBe('')
    expect(w.store.get(await heldKey())).toEqual(kept)
    w.setSessionId('session-3')
    await startSession($)
    await settle(w)
    expect(w.box()).toBe(`${HELD}\n\nand a second thought`)
    expect(w.seen.toasts.at(-1)).toBe('2 message(s) you typed during a handoff run are back in the prompt box')
    expect(w.seen.logs).toContainEqual(expect.stringMatching(/^2 message\(s\) you typed during a handoff run, held when the session here ended .*, are back in the prompt box\.$/))
    expect(w.store.has(await heldKey())).toBe(false)
  })
})
