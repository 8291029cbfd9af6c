import { describe, expect } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { HANDOFF, world } from '../support/world.js'
import { typeCommand } from '../support/engine-calls.js'
import { handoffText, readyAnswer } from '../support/texts.js'
import { finishSkill, skillWritesFile, skillWritesHandoff, startSession, typeAndLaunch } from '../support/flow.js'

const MINUTE_MS = 60_000

describe('/compact-handoff cancel', () => {
  test('before the skill starts: the launch timer finds nothing to do', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeCommand($, 'compact-handoff', '')
    const cancelled = await typeCommand($, 'compact-handoff', 'cancel')
    expect(cancelled.text).toBe('Handoff run cancelled. The conversation is unchanged.')
    await w.clock.advance(1000)
    await w.clock.settle()
    expect(w.seen.commandRuns, 'the skill never runs').toEqual([])
  })

  test('while the skill writes: its turn ending swaps nothing', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesFile($, w, HANDOFF, handoffText())
    await typeCommand($, 'compact-handoff', 'cancel')
    await finishSkill($, w, readyAnswer([HANDOFF]))
    expect(w.seen.compactAttempts).toBe(0)
    expect(w.seen.submits).toEqual([])
    expect(w.seen.toasts).toEqual([])
  })

  test('while compaction is being retried: the next retry finds nothing to do', async ($, on) => {
    const w = world(on, { compactRefusals: 1000 })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    expect(w.seen.compactAttempts).toBe(1)
    await typeCommand($, 'compact-handoff', 'cancel')
    await w.clock.advance(5000)
    await w.clock.settle()
    expect(w.seen.compactAttempts).toBe(1)
    expect(w.seen.toasts).toEqual([])
  })

  test('with nothing running says so', async ($, on) => {
    world(on)
    await startSession($)
    expect((await typeCommand($, 'compact-handoff', 'cancel')).text).toBe('No handoff run to cancel.')
  })
})

describe('a second run', () => {
  test('is refused while one is under way, naming the cancel command', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    const second = await typeCommand($, 'compact-handoffplan', '')
    expect(second.text).toBe('A handoff run is already under way (the handoff skill is writing). Wait for it, or drop it with /compact-handoff cancel.')
    expect(w.seen.commandRuns.length, 'only the first skill ran').toBe(1)
  })

  test('starts after a skill turn that ran for over 20 minutes is dropped as stuck, with a toast', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await w.clock.advance(21 * MINUTE_MS)
    const next = await typeCommand($, 'compact-handoffplan', '')
    expect(w.seen.toasts).toEqual(['handoff run stopped; the conversation is unchanged'])
    expect(w.seen.logs).toContain('the handoff run was stuck at "the handoff skill is writing" for over 20 minutes and has been dropped. Context unchanged.')
    expect(next.text).toContain('Writing a handoff and a plan')
  })

  test('is still refused while the skill turn runs at 19 minutes', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await w.clock.advance(19 * MINUTE_MS)
    expect((await typeCommand($, 'compact-handoff', '')).text).toContain('already under way')
  })
})

describe('/compact-handoff status', () => {
  test('reports the stage, mode, files, elapsed time, context and threshold', async ($, on) => {
    const w = world(on, { contextPercent: 64 })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', 'the parser')
    await skillWritesFile($, w, HANDOFF, handoffText())
    await w.clock.advance(65_000)
    const report = (await typeCommand($, 'compact-handoff', 'status')).text ?? ''
    expect(report).toContain('Handoff run under way for 1 min 5 s.\nNow: the handoff skill is writing.\nFocus: “the parser”.')
    expect(report).toContain(`Files so far: “${HANDOFF}”.`)
    expect(report).toContain('Context 64% used · nudge at 70% · auto handoff off.')
  })

  test('says when nothing runs', async ($, on) => {
    world(on)
    await startSession($)
    expect((await typeCommand($, 'compact-handoff', 'status')).text).toBe(
      'No handoff run under way.\nContext use not known yet · nudge at 70% · auto handoff off.\nYour messages the next handoff will carry: 0 (0 characters).',
    )
  })
})

describe('a command whose own hook fails', () => {
  test('says so, and nothing starts', async ($, on) => {
    const w = world(on, { refuseCwd: true })
    await startSession($)
    const answer = (await typeCommand($, 'compact-handoff', '')).text ?? ''
    expect(answer).toMatch(/^the command failed \(.*session\.cwd refused.*\)\. The conversation is unchanged;/)
    await w.clock.advance(1000)
    expect(w.seen.commandRuns).toEqual([])
  })
})

describe('the commands', () => {
  test('are the two a person types, and the hidden go-command, kept out of the / menu', async ($, on) => {
    const w = world(on)
    await startSession($)
    expect(w.seen.registered.sort()).toEqual(['compact-handoff', 'compact-handoff-go', 'compact-handoffplan'])
    expect(w.seen.hidden).toEqual(['compact-handoff-go'])
  })
})
