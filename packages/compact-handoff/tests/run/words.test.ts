import { describe, expect } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { HANDOFF, world, swapLogEntries } from '../support/world.js'
import { ANSWER_STAND_IN } from '../support/answer-stand-in.js'
import { submitPrompt, typeCommand, skillRunsOf } from '../support/engine-calls.js'
import { handoffText, readyAnswer } from '../support/texts.js'
import { finishSkill, skillWritesHandoff, startSession, typeAndLaunch } from '../support/flow.js'

async function swapOnce($: Parameters<typeof startSession>[0], w: ReturnType<typeof world>) {
  await typeAndLaunch($, w, 'compact-handoff', '')
  await skillWritesHandoff($, w, readyAnswer([HANDOFF], 'Go on.'))
}

describe("the user's own words", () => {
  test('are recorded from the prompt box, the SDK and remote control, and carried verbatim in the stub', async ($, on) => {
    const w = world(on)
    await startSession($)
    await submitPrompt($, 'Rewrite the parser; never touch parse() signatures.')
    await submitPrompt($, 'Also keep the old error codes.', 'sdk')
    await submitPrompt($, 'From my phone: ship it today.', 'bridge')
    await submitPrompt($, 'Background task finished.', 'task-notification')
    await swapOnce($, w)
    const stub = w.seen.compactions[0]?.instructions ?? ''
    expect(stub).toContain("They are the user's exact words and win over anything else")
    expect(stub).toContain('[user message 1]\nRewrite the parser; never touch parse() signatures.')
    expect(stub).toContain('[user message 2]\nAlso keep the old error codes.')
    expect(stub).toContain('[user message 3]\nFrom my phone: ship it today.')
    expect(stub, 'a task notification is not the user typing').not.toContain('Background task finished.')
  })

  test('survive a swap: the next stub still holds the first request', async ($, on) => {
    const w = world(on)
    await startSession($)
    await submitPrompt($, 'The first request: make the parser fast.')
    await swapOnce($, w)
    await submitPrompt($, 'After the swap: now add tests.')
    await swapOnce($, w)
    const second = w.seen.compactions[1]?.instructions ?? ''
    expect(second).toContain('[user message 1]\nThe first request: make the parser fast.')
    expect(second).toContain('[user message 2]\nAfter the swap: now add tests.')
  })

  test('are counted in /compact-handoff status', async ($, on) => {
    world(on)
    await startSession($)
    await submitPrompt($, 'twelve chars')
    const report = (await typeCommand($, 'compact-handoff', 'status')).text ?? ''
    expect(report).toContain('Your messages the next handoff will carry: 1 (12 characters).')
  })
})

describe('a message typed while a run is under way', () => {
  test('is held, not run, and delivered after the continue-prompt', { plugins: [ANSWER_STAND_IN] }, async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    const held = await submitPrompt($, 'Actually, rename the module first.')
    expect(held, 'the engine never runs it now').toEqual({ drop: 'held by compact-handoff until its swap is done' })
    expect(w.seen.toasts).toEqual(['your message is held until the swap is done; /compact-handoff cancel gives it back'])
    await skillWritesHandoff($, w, readyAnswer([HANDOFF], 'Go on.'))
    const sent = w.seen.submits.filter((s) => s.asUser)
    expect(sent.length).toBe(1)
    expect(sent[0]?.text).toMatch(/^Go on\.\n\nThe user wrote the following while the handoff was being written and applied\. It comes first if it changes the plan:\n\[held message 1\]\nActually, rename the module first\.$/)
  })

  test('goes back to the prompt box when the run aborts', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await submitPrompt($, 'one')
    await submitPrompt($, 'two')
    await finishSkill($, w, 'COMPACT-HANDOFF-FAILED: nothing to hand off')
    expect(w.seen.fills).toEqual(['one\n\ntwo'])
    expect(w.seen.logs).toContainEqual(expect.stringContaining('Your 2 held message(s) are back in the prompt box.'))
  })

  test('goes back to the prompt box when the run is cancelled', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await submitPrompt($, 'keep me')
    const cancelled = await typeCommand($, 'compact-handoff', 'cancel')
    expect(cancelled.text).toBe('Handoff run cancelled. The conversation is unchanged. Your 1 held message(s) are back in the prompt box.')
    expect(w.seen.fills).toEqual(['keep me'])
  })

  test('is not held when it comes from a plugin, nor when it is one of our own commands', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    const fromPlugin = await $.prompt.submit({ text: 'from a plugin', wait: false, origin: { kind: 'plugin', name: 'other' } })
    expect(fromPlugin).toEqual({ text: 'from a plugin' })
    const ours = await $.prompt.submit({ text: '/compact-handoff cancel', wait: false, origin: { kind: 'composer' }, command: { name: 'compact-handoff', args: 'cancel' } })
    expect(ours).toEqual({ text: '/compact-handoff cancel' })
  })

  test('a slash command typed during the run is held too, and put in the prompt box after the swap', { plugins: [ANSWER_STAND_IN] }, async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    const command = await $.prompt.submit({ text: '/review-pr 12', wait: false, origin: { kind: 'composer' }, command: { name: 'review-pr', args: '12' } })
    expect(command).toEqual({ drop: 'held by compact-handoff until its swap is done' })
    await skillWritesHandoff($, w, readyAnswer([HANDOFF], 'Go on.'))
    expect(w.seen.submits.filter((s) => s.asUser), 'a command is not sent as words').toEqual([{ text: 'Go on.', asUser: true }])
    expect(w.seen.fills.at(-1)).toBe('/review-pr 12')
    expect(w.seen.toasts.at(-1)).toContain('are in the prompt box: /review-pr 12')
  })
})

describe('review before apply', () => {
  test('stops after the checks, shows the stub and continue-prompt, and swaps on apply', async ($, on) => {
    const w = world(on)
    await startSession($)
    const started = await typeAndLaunch($, w, 'compact-handoff', 'review the parser')
    expect(skillRunsOf(w)).toEqual([{ command: 'compact-handoff-skills:handoff', focus: 'the parser' }])
    expect(started.text).toContain('you review them before anything is replaced')
    await skillWritesHandoff($, w, readyAnswer([HANDOFF], 'Go on.'))
    expect(w.seen.compactAttempts, 'nothing replaced before apply').toBe(0)
    expect(w.seen.logs.filter((line) => line.includes('\n')), 'one transcript line per log call').toEqual([])
    const review = w.seen.logs.join('\n')
    expect(review).toContain(`Files: ${HANDOFF}`)
    expect(review).toContain(`Handoff file: ${HANDOFF}`)
    expect(review).toContain('Go on.')
    expect(review).toContain('/compact-handoff apply')

    const applied = await typeCommand($, 'compact-handoff', 'apply')
    expect(applied.text).toBe('Files check out; replacing the conversation now.')
    await w.clock.advance(100)
    await w.clock.settle()
    expect(w.seen.compactions.length).toBe(1)
    expect(w.seen.submits.filter((s) => s.asUser)).toEqual([{ text: 'Go on.', asUser: true }])
  })

  test('the focus reaches the skill masked by the engine, as a fork\'s is, and the status report shows it masked', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', 'review deploy with --password=hunter2 to staging')
    expect(skillRunsOf(w)).toEqual([{ command: 'compact-handoff-skills:handoff', focus: 'deploy with --password=[REDACTED] to staging' }])
    const report = (await typeCommand($, 'compact-handoff', 'status')).text ?? ''
    expect(report).toContain('Focus: “deploy with --password=[REDACTED] to staging”.')
    expect(JSON.stringify([w.seen.commandRuns, report]), 'the secret went nowhere').not.toContain('hunter2')
  })

  test('a focus the engine cannot mask starts no run, and says so', async ($, on) => {
    const w = world(on, { refuseRedact: true })
    await startSession($)
    const said = (await typeAndLaunch($, w, 'compact-handoff', 'deploy with --password=hunter2')).text ?? ''
    expect(said).toContain('your focus words could not be masked, so no run started')
    expect(said).toContain('The conversation is unchanged')
    expect(w.seen.commandRuns).toEqual([])
  })

  test('a plan review run that wrote no plan aborts before the review', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoffplan', 'review')
    expect(skillRunsOf(w)[0]?.focus).toBe('')
    await skillWritesHandoff($, w, `COMPACT-HANDOFF-READY: ${HANDOFF}`)
    expect(w.seen.toasts, 'a plan run without a plan aborts before review').toEqual(['handoff run stopped; the conversation is unchanged'])
    expect(w.seen.logs, 'the detail line says why').toContainEqual(expect.stringContaining('a plan run, but no plan file was written'))
  })

  test('apply refuses an edited handoff that lost a section, and cancel drops the reviewed run', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', 'review')
    await skillWritesHandoff($, w)
    w.writeFile(HANDOFF, handoffText().replace(/## Decisions\n[^\n]*\n/, ''))
    const applied = (await typeCommand($, 'compact-handoff', 'apply')).text ?? ''
    expect(applied).toContain('Not applied; the conversation is unchanged.')
    expect(applied).toContain('missing section "## Decisions"')
    await w.clock.advance(1000)
    expect(w.seen.compactAttempts).toBe(0)
    expect((await typeCommand($, 'compact-handoff', 'cancel')).text).toBe('Handoff run cancelled. The conversation is unchanged.')
    expect((await typeCommand($, 'compact-handoff', 'apply')).text).toContain('Nothing to apply')
  })

  test('a reviewed run left for over 30 minutes is dropped by the next command', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', 'review')
    await skillWritesHandoff($, w)
    await w.clock.advance(31 * 60_000)
    const next = (await typeCommand($, 'compact-handoff', 'apply')).text ?? ''
    expect(w.seen.logs).toContainEqual(expect.stringContaining('stuck at "waiting for /compact-handoff apply" for over 30 minutes and has been dropped'))
    expect(next).toContain('Nothing to apply')
  })
})

describe('the swap log', () => {
  test('gets one line per outcome: swapped, engine summarized, aborted', async ($, on) => {
    const w = world(on, { contextPercent: 81 })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await finishSkill($, w, 'COMPACT-HANDOFF-FAILED: not enough to say')
    await swapOnce($, w)
    const entries = swapLogEntries(w)
    expect(entries.map((e) => e.outcome)).toEqual(['aborted', 'engine-summarized'])
    expect(entries[0]).toMatchObject({ trigger: 'command', reason: 'the handoff skill reported failure: not enough to say', sessionId: 'session-1' })
    expect(entries[1]).toMatchObject({ contextPercentBefore: 81, files: [HANDOFF] })
    const report = (await typeCommand($, 'compact-handoff', 'status')).text ?? ''
    expect(report).toContain('Swap log, newest last (as its files say):')
    expect(report).toMatch(/ engine-summarized: “[^”]*\.md”\n/)
  })

  test('records a swap the answer mod answered as swapped', { plugins: [ANSWER_STAND_IN] }, async ($, on) => {
    const w = world(on)
    await startSession($)
    await swapOnce($, w)
    expect(swapLogEntries(w).map((e) => e.outcome)).toEqual(['swapped'])
  })
})
