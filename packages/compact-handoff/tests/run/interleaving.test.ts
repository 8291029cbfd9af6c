// A person types when they like: a prompt or a cancel that lands while the mod
// waits on the engine, at every await point of the turn-end check and of the
// swap, is never lost and never lets a cancelled run swap. Each case steps in
// at one engine call the mod makes (world.ts interjectAt).
import { describe, expect, test, type Engine } from 'claude-code/testing'
import { HANDOFF, world, type AwaitPoint, type World } from '../support/world.js'
import { submitPrompt, typeCommand, endTurn } from '../support/engine-calls.js'
import { handoffText, readyAnswer } from '../support/texts.js'
import { skillWritesFile, startSession, typeAndLaunch } from '../support/flow.js'

const TYPED = 'Typed at the worst moment.'

/** The engine calls from the skill turn's end to the continue-prompt, in order,
 * as [point, nth call since the turn ended]. */
const CHECK_POINTS: readonly [AwaitPoint, number][] = [
  ['fs.stat', 1], // the handoff, links resolved
  ['fs.read', 1], // the handoff's text
]
const SWAP_POINTS: readonly [AwaitPoint, number][] = [
  ['session.compact', 1], // the compaction in flight
  ['prompt.submit', 1], // the continue-prompt
]

/** Ends the skill's turn with a good handoff and lets the swap run to its end.
 * `meanwhile` runs once the turn's end has settled: the check, the compaction
 * and the continue-prompt all happen inside the skill turn's turn.complete. */
async function endSkillTurn($: Engine, w: World, meanwhile?: () => Promise<unknown>) {
  await skillWritesFile($, w, HANDOFF, handoffText())
  await endTurn($, readyAnswer([HANDOFF], 'Go on.'))
  if (meanwhile !== undefined) await meanwhile()
  for (let i = 0; i < 3; i++) {
    await w.clock.settle()
    await w.clock.advance(0)
  }
  await w.clock.settle()
}

describe('a prompt typed at an await point', () => {
  for (const [at, nth] of [...CHECK_POINTS, ...SWAP_POINTS]) {
    test(`during ${at} #${nth} is held and delivered, or passed, never lost`, async ($, on) => {
      const w = world(on)
      await startSession($)
      await typeAndLaunch($, w, 'compact-handoff', '')
      let answer: unknown
      w.interjectAt(at, nth, async () => {
        answer = await submitPrompt($, TYPED)
      })
      await endSkillTurn($, w)
      expect(answer, 'the interjection ran').toBeDefined()
      expect(w.seen.compactAttempts, 'the swap went ahead').toBe(1)
      const continuePrompt = w.seen.submits.filter((s) => s.asUser).map((s) => s.text)
      expect(continuePrompt.length, 'one continue-prompt').toBe(1)
      const isHeld = JSON.stringify(answer).includes('"drop"')
      if (isHeld) expect(continuePrompt[0], 'held, then delivered in the continue-prompt').toContain(TYPED)
      else expect(w.seen.submits.some((s) => !s.asUser && s.text === TYPED), 'passed to the engine as typed').toBe(true)
      // Only once the continue-prompt has been sent may a prompt pass.
      expect(isHeld, 'held unless the continue-prompt was already out').toBe(at !== 'prompt.submit')
    })
  }
})

describe("once the skill turn's end has settled", () => {
  // No gap is left between the check and the compaction: both run inside the
  // turn's turn.complete hook, so the swap is done by the time it settles.
  test('the swap is done: a typed prompt goes as typed, after the continue-prompt', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    let answer: unknown
    await endSkillTurn($, w, async () => {
      answer = await submitPrompt($, TYPED)
    })
    expect(answer).toEqual({ text: TYPED })
    expect(w.seen.submits).toEqual([{ text: 'Go on.', asUser: true }, { text: TYPED }])
  })

  test('a cancel finds no run: the conversation was already replaced', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    let said = ''
    await endSkillTurn($, w, async () => {
      said = (await typeCommand($, 'compact-handoff', 'cancel')).text ?? ''
    })
    expect(said).toBe('No handoff run to cancel.')
    expect(w.seen.compactAttempts).toBe(1)
    expect(w.seen.submits).toEqual([{ text: 'Go on.', asUser: true }])
  })
})

describe('a cancel typed at an await point', () => {
  for (const [at, nth] of CHECK_POINTS) {
    test(`during ${at} #${nth} stops the run: nothing is compacted or sent`, async ($, on) => {
      const w = world(on)
      await startSession($)
      await typeAndLaunch($, w, 'compact-handoff', '')
      const held = await submitPrompt($, 'held before the cancel')
      expect(held).toEqual({ drop: 'held by compact-handoff until its swap is done' })
      let said = ''
      w.interjectAt(at, nth, async () => {
        said = (await typeCommand($, 'compact-handoff', 'cancel')).text ?? ''
      })
      await endSkillTurn($, w)
      expect(said).toMatch(/^Handoff run cancelled\. The conversation is unchanged\./)
      expect(w.seen.compactAttempts, 'no compaction').toBe(0)
      expect(w.seen.submits.filter((s) => s.asUser), 'no continue-prompt').toEqual([])
      expect(w.seen.fills, 'the held prompt is back in the box').toEqual(['held before the cancel'])
    })
  }

  test('while the compaction is in flight is refused as too late, and the swap completes', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    let said = ''
    w.interjectAt('session.compact', 1, async () => {
      said = (await typeCommand($, 'compact-handoff', 'cancel')).text ?? ''
    })
    await endSkillTurn($, w)
    expect(said).toMatch(/^Too late to cancel: the conversation is being replaced right now\./)
    expect(w.seen.submits.filter((s) => s.asUser).map((s) => s.text)).toEqual(['Go on.'])
  })

  test('between two refused compaction attempts stops the retries', async ($, on) => {
    const w = world(on, { compactRefusals: 1 })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await endSkillTurn($, w)
    expect(w.seen.compactAttempts).toBe(1)
    expect((await typeCommand($, 'compact-handoff', 'cancel')).text).toMatch(/^Handoff run cancelled/)
    await w.clock.advance(5_000)
    await w.clock.settle()
    expect(w.seen.compactAttempts).toBe(1)
    expect(w.seen.submits).toEqual([])
  })
})
