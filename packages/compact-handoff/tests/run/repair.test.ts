// Repair, don't abort: files that fail the format check are sent back to the
// skill with every problem and its fix, at most twice; safety refusals are not.
import { parseSkillArgs } from '../support/skill-protocol.js'
import { describe, expect } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'

import { EXACT_VALUES_RULE } from '../../hooks/protocol/protocol-contents.js'
import { HANDOFF, world, swapLogEntries } from '../support/world.js'
import { ANSWER_STAND_IN } from '../support/answer-stand-in.js'
import { skillWrite, submitPrompt, typeCommand } from '../support/engine-calls.js'
import { handoffText, readyAnswer } from '../support/texts.js'
import { finishSkill, repairTurn, skillWritesFile, startSession, typeAndLaunch } from '../support/flow.js'

const WITHOUT_TRIED = handoffText().replace(/## Tried and ruled out\n[^\n]*\n/, '')

describe('a handoff that fails the format check', () => {
  test('is sent back to the skill as the mod, naming each problem, and swaps once fixed', { plugins: [ANSWER_STAND_IN] }, async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesFile($, w, HANDOFF, WITHOUT_TRIED)
    await finishSkill($, w, readyAnswer([HANDOFF], 'Continue from the Next step.'))

    expect(w.seen.compactAttempts, 'nothing replaced yet').toBe(0)
    const asks = w.seen.submits.filter((s) => !s.asUser)
    expect(asks.length, 'one repair prompt, sent as the mod (not as the user)').toBe(1)
    const tag = parseSkillArgs(w.seen.commandRuns[0]?.args ?? '')?.values.run
    expect(asks[0]?.text).toContain(`compact-handoff run=${tag}, repair 1 of 2`)
    expect(asks[0]?.text).toContain(`${HANDOFF}:\n- missing section "## Tried and ruled out": add it after "## In progress"`)
    expect(asks[0]?.text).toContain(`COMPACT-HANDOFF-READY: ${HANDOFF}`)
    expect(asks[0]?.text, 'a fix keeps the exact values').toContain(`While you fix, keep to this rule: ${EXACT_VALUES_RULE}`)
    expect(w.seen.statusLines.at(-1)).toBe('handoff: the handoff skill is fixing its files (repair 1 of 2)')
    const report = (await typeCommand($, 'compact-handoff', 'status')).text ?? ''
    expect(report).toContain('Repair turns asked for: 1 of 2.')

    const held = await submitPrompt($, 'typed during the repair')
    expect(held, 'a repair turn is part of the run: prompts stay held').toEqual({ drop: 'held by compact-handoff until its swap is done' })

    await repairTurn($, w, 1, readyAnswer([HANDOFF], 'The repaired prompt.'), async () => {
      await skillWritesFile($, w, HANDOFF, handoffText())
    })
    const sent = w.seen.submits.filter((s) => s.asUser).map((s) => s.text)
    expect(sent.length, 'swapped').toBe(1)
    expect(sent[0], 'a prompt the repair turn prints replaces the first').toContain('The repaired prompt.')
    expect(sent[0]).toContain('typed during the repair')
    expect(swapLogEntries(w).at(-1)).toMatchObject({ outcome: 'swapped', repairs: 1 })
  })

  test('keeps the files and continue-prompt of the first answer when the repair turn names none', { plugins: [ANSWER_STAND_IN] }, async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesFile($, w, HANDOFF, WITHOUT_TRIED)
    await finishSkill($, w, readyAnswer([HANDOFF], 'The first prompt.'))
    await repairTurn($, w, 1, 'Fixed.', async () => {
      await skillWritesFile($, w, HANDOFF, handoffText())
    })
    expect(w.seen.submits.filter((s) => s.asUser).map((s) => s.text)).toEqual(['The first prompt.'])
  })

  test('is dropped by a cancel during the repair turn; the turn ending later changes nothing', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesFile($, w, HANDOFF, WITHOUT_TRIED)
    await finishSkill($, w, readyAnswer([HANDOFF]))
    expect((await typeCommand($, 'compact-handoff', 'cancel')).text).toMatch(/^Handoff run cancelled/)
    await repairTurn($, w, 1, readyAnswer([HANDOFF]), async () => {
      await skillWritesFile($, w, HANDOFF, handoffText())
    })
    expect(w.seen.compactAttempts).toBe(0)
    expect(w.seen.toasts).toEqual([])
  })

  test('aborts with every reason when the repair prompt cannot be sent', async ($, on) => {
    const w = world(on, { refuseSubmit: true })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesFile($, w, HANDOFF, WITHOUT_TRIED)
    await finishSkill($, w, readyAnswer([HANDOFF]))
    expect(w.seen.toasts).toEqual(['handoff run stopped; the conversation is unchanged'])
    expect(w.seen.logs).toContainEqual(expect.stringMatching(/^could not ask the skill to repair its files \(.*\)\. Context unchanged\.$/))
  })
})

describe('a safety refusal', () => {
  test('is never sent back for repair: a link out of the project ends the run at once', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    w.writeFile(HANDOFF, WITHOUT_TRIED, { realPath: '/home/else/HANDOFF_parser_2026-11-29.md' })
    await skillWrite($, HANDOFF, WITHOUT_TRIED)
    await finishSkill($, w, readyAnswer([HANDOFF]))
    expect(w.seen.submits, 'no repair prompt').toEqual([])
    expect(w.seen.toasts).toEqual(['handoff run stopped; the conversation is unchanged'])
    expect(w.seen.logs).toContainEqual(expect.stringMatching(/^\S+ is a symbolic link, and compact-handoff never writes or reads through one\. Context unchanged\.$/))
  })
})

describe("the skill's turn", () => {
  test('is known by its run tag: another turn ending meanwhile neither ends the run nor is read as its answer', { plugins: [ANSWER_STAND_IN] }, async ($, on) => {
    const w = world(on)
    await startSession($)
    await $.command.run({ command: 'compact-handoff', args: '', origin: { kind: 'composer' }, presentation: { isFullscreen: false, columns: 80 } })
    await w.clock.advance(100)
    await w.clock.settle()
    // A task notification's turn runs first and ends with an answer naming a handoff.
    await $.turn.start({ text: 'Background task finished.', turnId: 't-other' })
    await $.turn.complete({ answer: 'COMPACT-HANDOFF-FAILED: not me', durationMs: 5, isAborted: false, turnId: 't-other', reason: 'answer' })
    await w.clock.settle()
    expect(w.seen.toasts, 'the run goes on').toEqual([])
    await $.turn.start({ text: `<command-args>${w.seen.commandRuns[0]?.args}</command-args>`, turnId: 't-skill' })
    await skillWritesFile($, w, HANDOFF, handoffText())
    await finishSkill($, w, readyAnswer([HANDOFF], 'Go on.'))
    expect(w.seen.submits).toEqual([{ text: 'Go on.', asUser: true }])
  })

  test('that never starts leaves the run stuck; the next prompt after 2 minutes drops it and gets through', async ($, on) => {
    const w = world(on)
    await startSession($)
    await $.command.run({ command: 'compact-handoff', args: '', origin: { kind: 'composer' }, presentation: { isFullscreen: false, columns: 80 } })
    await w.clock.advance(100)
    await w.clock.settle()
    expect(await submitPrompt($, 'first, held')).toEqual({ drop: 'held by compact-handoff until its swap is done' })
    await w.clock.advance(2 * 60_000 + 1)
    expect(await submitPrompt($, 'second, passes')).toEqual({ text: 'second, passes' })
    expect(w.seen.fills, 'the held prompt is given back').toEqual(['first, held'])
    expect(w.seen.toasts.at(-1)).toBe('handoff run stopped; the conversation is unchanged')
    expect(w.seen.logs).toContain(
      'the handoff run was stuck at "the handoff skill is writing" for over 2 minutes and has been dropped. Context unchanged. Your 1 held message(s) are back in the prompt box.',
    )
  })
})

describe('what the skill is told', () => {
  test('the time, and after a swap the parent, its chain and the next seq', { plugins: [ANSWER_STAND_IN] }, async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    const first = parseSkillArgs(w.seen.commandRuns[0]?.args ?? '')?.values
    expect(first).toMatchObject({ created: '1970-01-01T00:16:40Z', chain: 'new', seq: 1, parent: 'none' })
    await skillWritesFile($, w, HANDOFF, handoffText())
    await finishSkill($, w, readyAnswer([HANDOFF]))
    expect(w.seen.compactions.length + w.seen.submits.filter((s) => s.asUser).length).toBeGreaterThan(0)

    await typeAndLaunch($, w, 'compact-handoff', 'next part')
    const second = parseSkillArgs(w.seen.commandRuns[1]?.args ?? '')
    expect(second?.values).toMatchObject({ chain: 'HANDOFF_parser_2026-11-29', seq: 2, parent: HANDOFF })
    expect(second?.focus).toBe('next part')
  })
})
