// A person types when they like: a prompt or a cancel that lands while the mod
// waits on the engine, at every await point of the turn-end check and of the
// swap, is never lost and never lets a cancelled run swap. Each case steps in
// at one engine call the mod makes (world.ts interjectAt).
import { describe, expect, type Engine } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
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
 * `meanwhile` runs once the turn's end has settled: the check has queued the
 * go-command, whose hook has set the compaction's timer, not yet fired. */
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

const SWAPPING = 'handoff: replacing the conversation'

/** Ends the skill's turn, and runs `meanwhile` once its end has settled: the
 * go-command the turn's end queued has taken the go step, and the compaction's
 * 0 ms timer has not fired. (The go stage before it, and after a refusal, is
 * held by 'between two refused compaction attempts' below.) */
async function endSkillTurnAtGo($: Engine, w: World, meanwhile: () => Promise<unknown>) {
  await skillWritesFile($, w, HANDOFF, handoffText())
  await endTurn($, readyAnswer([HANDOFF], 'Go on.'))
  expect(w.seen.statusLines, 'through the go stage').toContain('handoff: swap queued (the go-command runs once the session is idle)')
  expect(w.seen.statusLines.at(-1), 'the go step taken, its compaction waiting on its timer').toBe(SWAPPING)
  await meanwhile()
  for (let i = 0; i < 3; i++) {
    await w.clock.settle()
    await w.clock.advance(0)
  }
  await w.clock.settle()
}

describe("after the go step, before its compaction's timer fires", () => {
  test('a typed prompt is held and delivered after the continue-prompt', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    let answer: unknown
    await endSkillTurnAtGo($, w, async () => {
      answer = await submitPrompt($, TYPED)
    })
    expect(answer).toEqual({ drop: 'held by compact-handoff until its swap is done' })
    expect(w.seen.compactAttempts).toBe(1)
    expect(w.seen.submits.map((s) => s.asUser)).toEqual([true])
    expect(w.seen.submits[0]?.text, 'delivered inside the continue-prompt').toMatch(new RegExp(`^Go on\\.\\n[^]*\\[held message 1\\]\\n${TYPED}$`))
  })

  test('a cancel stops the run: nothing is compacted or sent', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    let said = ''
    await endSkillTurnAtGo($, w, async () => {
      said = (await typeCommand($, 'compact-handoff', 'cancel')).text ?? ''
    })
    expect(said).toMatch(/^Handoff run cancelled\. The conversation is unchanged\./)
    expect(w.seen.compactAttempts).toBe(0)
    expect(w.seen.submits.filter((s) => s.asUser)).toEqual([])
    expect(w.seen.statusLines.at(-1), 'the status line is cleared').toBeUndefined()
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
    expect(w.seen.statusLines.at(-1), 'back at the go stage').toBe('handoff: swap queued (the go-command runs once the session is idle)')
    expect((await typeCommand($, 'compact-handoff', 'cancel')).text).toMatch(/^Handoff run cancelled/)
    await w.clock.advance(5_000)
    await w.clock.settle()
    expect(w.seen.compactAttempts).toBe(1)
    expect(w.seen.submits).toEqual([])
  })
})
