import { describe, expect, type Engine } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import type { On } from 'claude-code'
import { GO_REFUSED_TEXT } from '../../hooks/run/run.js'
import { HANDOFF, PLAN, swapLogEntries, world, type World } from '../support/world.js'
import { ANSWER_STAND_IN } from '../support/answer-stand-in.js'
import { endTurn, skillWrite, skillRunsOf, startTurn, typeCommand } from '../support/engine-calls.js'
import { handoffText, planText, readyAnswer } from '../support/texts.js'
import { finishSkill, skillWritesHandoff, startSession, typeAndLaunch } from '../support/flow.js'
import { ownRecordsIn } from '../support/records.js'

const WITH_ANSWER = { plugins: [ANSWER_STAND_IN] }

/** Settles until `isDone` holds, for at most ten rounds: a digest (crypto.subtle)
 * is no engine call, so one settle may return before the step after it. */
async function settleUntil(w: World, isDone: () => boolean) {
  for (let i = 0; i < 10 && !isDone(); i++) {
    await w.clock.advance(0)
    await w.clock.settle()
  }
}
const GOING = 'handoff: swap queued (the go-command runs once the session is idle)'
const SWAPPING = 'handoff: replacing the conversation'

/** Another plugin that reads compact-handoff's run (any plugin may) and runs
 * its hidden go-command with that run's id, at a turn whose answer asks it to. */
const OTHER_PLUGIN = {
  name: 'other-plugin',
  register(on: On) {
    on('turn.complete', async ($, e, next) => {
      const done = await next(e)
      if (e.answer !== 'RUN-GO') return done
      const run = (await $.state.get({ plugin: 'compact-handoff', key: 'run' } as const)).value
      const id = run !== undefined && run.kind !== 'idle' ? run.run.id : ''
      $.ui.toast(`id:${id}`)
      const answer = await $.command.run({ command: 'compact-handoff-go', args: id })
      $.ui.toast(`answer:${answer.text ?? ''}`)
      return done
    })
  },
}

describe('a handoff run', () => {
  test('runs the skill in compact mode, checks the handoff, swaps and submits the continue-prompt', WITH_ANSWER, async ($, on) => {
    const w = world(on)
    await startSession($)
    const started = await typeAndLaunch($, w, 'compact-handoff', 'finish the parser')
    expect(started.text).toContain('Writing a handoff')
    expect(skillRunsOf(w)).toEqual([{ command: 'compact-handoff-skills:handoff', focus: 'finish the parser' }])

    await skillWritesHandoff($, w, readyAnswer([HANDOFF], 'Read the handoff and go on.'))

    expect(w.seen.toasts, 'no abort toast').toEqual([])
    expect(w.seen.compactions.length, 'the answer mod answers; the engine must not summarize').toBe(0)
    expect(w.seen.submits).toEqual([{ text: 'Read the handoff and go on.', asUser: true }])
    expect(w.seen.statusLines.at(-1), 'the status line is cleared').toBeUndefined()
  })

  test('passes the marker line and a stub naming the handoff to the compaction', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    expect(skillRunsOf(w)[0]?.focus, 'an empty focus leaves only the mode').toBe('')
    await skillWritesHandoff($, w)

    const instructions = w.seen.compactions[0]?.instructions ?? ''
    const [marker, ...stub] = instructions.split('\n')
    expect(marker).toBe('compact-handoff:v1')
    expect(stub.join('\n')).toContain(`Handoff file: ${HANDOFF}`)
    expect(stub.join('\n')).toContain('The next message says what to do.')
  })

  test('builds a continue-prompt when the skill printed none', WITH_ANSWER, async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w, `Done.\nCOMPACT-HANDOFF-READY: ${HANDOFF}`)
    const prompt = w.seen.submits[0]?.text ?? ''
    expect(prompt).toContain(`Read the handoff ${HANDOFF}`)
    expect(prompt).toContain('wait for my go-ahead')
  })
})

describe('a plan run', () => {
  test('runs handoffplan, requires both files, names both in the stub and starts Phase 1', async ($, on) => {
    const w = world(on)
    await startSession($)
    const started = await typeAndLaunch($, w, 'compact-handoffplan', 'finish the parser')
    expect(started.text).toContain('a handoff and a plan')
    expect(skillRunsOf(w)).toEqual([{ command: 'compact-handoff-skills:handoffplan', focus: 'finish the parser' }])
    w.writeFile(HANDOFF, handoffText())
    w.writeFile(PLAN, planText())
    await skillWrite($, HANDOFF, handoffText())
    await skillWrite($, PLAN, planText())
    await finishSkill($, w, `Both written.\nCOMPACT-HANDOFF-READY: ${HANDOFF} | ${PLAN}`)

    const instructions = w.seen.compactions[0]?.instructions ?? ''
    expect(instructions).toContain(`Handoff file: ${HANDOFF}`)
    expect(instructions).toContain(`Plan file: ${PLAN}`)
    expect(w.seen.submits[0]?.text, 'the fallback continue-prompt starts the plan').toContain('start Phase 1')
  })
})

describe('applying the compaction', () => {
  // Without the answer stand-in: the refusals are played beneath every plugin.
  test('retries a refused compaction every 500 ms until the engine takes it', async ($, on) => {
    const w = world(on, { compactRefusals: 3 })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    expect(w.seen.compactAttempts).toBe(1)
    await w.clock.advance(499)
    expect(w.seen.compactAttempts, 'no retry before 500 ms').toBe(1)
    for (let i = 0; i < 3; i++) {
      await w.clock.advance(500)
      await w.clock.settle()
    }
    expect(w.seen.compactAttempts, 'three refusals, then the fourth attempt is taken').toBe(4)
    expect(w.seen.compactions.length).toBe(1)
    expect(w.seen.submits.length).toBe(1)
    // Each refusal goes back to the go stage; each retry takes the go step again.
    expect(w.seen.statusLines.filter((t) => t === GOING).length, 'the go stage: first, then after each refusal').toBe(4)
    expect(w.seen.statusLines.filter((t) => t === SWAPPING).length, 'the go step: the go-command, then each retry').toBe(4)
  })

  test('the go-command swaps only for compact-handoff itself: typed by the person or run by another plugin, it changes nothing', { plugins: [OTHER_PLUGIN] }, async ($, on) => {
    // One refusal holds the run at the go stage for the retry's 500 ms.
    const w = world(on, { compactRefusals: 1 })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    expect(w.seen.statusLines.at(-1)).toBe(GOING)
    await endTurn($, 'RUN-GO', 'answer', undefined, 't-other')
    await w.clock.settle()
    const id = w.seen.toasts.find((t) => t.startsWith('id:'))?.slice(3) ?? ''
    expect(id, 'the other plugin read the run id').not.toBe('')
    expect(w.seen.toasts.filter((t) => t.startsWith('answer:'))).toEqual([`answer:${GO_REFUSED_TEXT}`])
    const typed = await typeCommand($, 'compact-handoff-go', id)
    expect(typed.text, 'typed by the person').toBe(GO_REFUSED_TEXT)
    expect(typed.isTextDisplayOnly, 'the answer is for the person alone: no request carries it').toBe(true)
    expect(w.seen.compactAttempts, 'neither set a compaction off').toBe(1)
    expect(w.seen.statusLines.at(-1), 'still at the go stage').toBe(GOING)
    await w.clock.advance(500)
    await w.clock.settle()
    expect(w.seen.compactAttempts, 'the retry swaps').toBe(2)
    expect(w.seen.submits.filter((s) => s.asUser).length).toBe(1)
  })

  test('gives up after 40 refused attempts and leaves the conversation alone', async ($, on) => {
    const w = world(on, { compactRefusals: 1000 })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    for (let i = 0; i < 45; i++) {
      await w.clock.advance(500)
      await w.clock.settle()
    }
    expect(w.seen.compactAttempts).toBe(40)
    expect(w.seen.toasts).toEqual(['handoff run stopped; the conversation is unchanged'])
    expect(w.seen.logs).toContainEqual(expect.stringMatching(/^compaction was refused 40 times .*\. Context unchanged\.$/))
    expect(w.seen.submits).toEqual([])
  })

  test('aborts when the compaction is skipped', async ($, on) => {
    const w = world(on, { engineCompact: 'skip' })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    expect(w.seen.toasts).toEqual(['handoff run stopped; the conversation is unchanged'])
    expect(w.seen.logs).toContain('the compaction was skipped (a PreCompact hook blocked it). Context unchanged.')
    expect(w.seen.submits).toEqual([])
  })

  test('says so when the engine summarized because the answer mod is missing', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w, readyAnswer([HANDOFF], 'Go on.'))
    expect(w.seen.compactions.length).toBe(1)
    expect(w.seen.toasts).toEqual(['compact-handoff-answer did not answer: the engine summarized instead. Enable it'])
    expect(w.seen.logs).toContainEqual(expect.stringContaining('compact-handoff-answer did not answer, so the engine summarized'))
    expect(w.seen.submits, 'the continue-prompt still follows').toEqual([{ text: 'Go on.', asUser: true }])
  })

  test('puts the continue-prompt in the prompt box when it cannot be submitted', WITH_ANSWER, async ($, on) => {
    const w = world(on, { refuseSubmit: true })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w, readyAnswer([HANDOFF], 'Go on.'))
    expect(w.seen.fills).toEqual(['Go on.'])
    expect(w.seen.toasts).toEqual([expect.stringContaining('swapped, but the continue-prompt was not sent')])
    expect(w.seen.logs).toContainEqual(expect.stringContaining('the continue-prompt could not be sent'))
  })
})

describe('a Windows session folder', () => {
  // The Write tool takes absolute paths: on Windows the skill writes `C:\…` with
  // backslashes, the drive letter in whichever case the model spelled it. The
  // fake disk is Windows': one separator either way, letter case ignored.
  const WINDOWS = { cwd: 'C:\\Users\\me\\proj', platform: 'windows', caseInsensitive: true } as const
  const WRITTEN = `c:\\Users\\me\\proj\\${HANDOFF.split('/').join('\\')}`

  async function skillWritesWindowsHandoff($: Engine, w: World) {
    await startSession($, { cwd: w.cwd })
    await typeAndLaunch($, w, 'compact-handoff', 'finish the parser')
    w.files.set(WRITTEN, { text: handoffText(), mtimeMs: w.clock.now() })
    await $.tool.call({ tool: 'Write', tool_use_id: 'tu-windows', file_path: WRITTEN, content: handoffText() })
    await finishSkill($, w, readyAnswer([WRITTEN], 'Go on.'))
  }

  test('swaps, with a stub naming the handoff, when the skill writes an absolute backslash path with the drive letter in the other case', async ($, on) => {
    const w = world(on, WINDOWS)
    await skillWritesWindowsHandoff($, w)
    const instructions = w.seen.compactions[0]?.instructions ?? ''
    expect(instructions.split('\n')[0]).toBe('compact-handoff:v1')
    expect(instructions).toContain(`Handoff file: ${HANDOFF}`)
    expect(w.seen.submits, 'the continue-prompt follows').toEqual([{ text: 'Go on.', asUser: true }])
  })

  test('with the answer mod: swapped, logged in the project folder, and the handoff read back by its Windows path counts as read', WITH_ANSWER, async ($, on) => {
    const w = world(on, WINDOWS)
    await skillWritesWindowsHandoff($, w)
    expect(w.seen.toasts, 'no abort').toEqual([])
    expect(w.seen.submits).toEqual([{ text: 'Go on.', asUser: true }])
    expect(swapLogEntries(w).at(-1)).toMatchObject({ outcome: 'swapped' })
    await startTurn($, 'Go on.', 't-next')
    await $.tool.call({ tool: 'Read', tool_use_id: 'tu-read-windows', file_path: `C:\\Users\\me\\proj\\${HANDOFF.split('/').join('\\')}` })
    await endTurn($, 'done', 'answer', undefined, 't-next')
    expect(w.seen.toasts, 'the first turn read the handoff').toEqual([])
  })

  // The READY line names the handoff as the model spelled it, and the Write
  // recorded it: the swap marks the one record both are keyed by.
  const IN_FOLDER = HANDOFF.split('/').join('\\')
  const SPELLINGS = [
    ['backslashes', WINDOWS.cwd, `C:\\Users\\me\\proj\\${IN_FOLDER}`],
    ['forward slashes', WINDOWS.cwd, `C:/Users/me/proj/${HANDOFF}`],
    ['the drive letter and a folder in the other case', WINDOWS.cwd, `c:\\users\\me\\proj\\${IN_FOLDER}`],
    ['backslashes, in a session folder that ends in one', `${WINDOWS.cwd}\\`, `C:\\Users\\me\\proj\\${IN_FOLDER}`],
  ] as const
  for (const [spelling, cwd, named] of SPELLINGS) {
    test(`marks the handoff's record used when the READY line names it by its absolute path with ${spelling}`, async ($, on) => {
      const w = world(on, { ...WINDOWS, cwd })
      await startSession($, { cwd })
      await typeAndLaunch($, w, 'compact-handoff', 'finish the parser')
      w.files.set(named, { text: handoffText(), mtimeMs: w.clock.now() })
      await $.tool.call({ tool: 'Write', tool_use_id: 'tu-absolute', file_path: named, content: handoffText() })
      await finishSkill($, w, readyAnswer([named], 'Go on.'))
      expect(w.seen.submits, 'swapped').toEqual([{ text: 'Go on.', asUser: true }])
      await settleUntil(w, () => ownRecordsIn(w.store).some((r) => r.usedAtMs !== undefined))
      expect(ownRecordsIn(w.store).map((r) => [r.path, r.usedAtMs !== undefined])).toEqual([[`C:\\Users\\me\\proj\\${IN_FOLDER}`, true]])
    })
  }

  // An editor's terminal may report the folder as `c:\…` where a shell reports
  // `C:\…`: one folder, and one record of each handoff in it.
  test('a handoff written in a session whose folder is reported `c:\\…` is own in one where it is `C:\\…`: resumed with no question, and marked used', async ($, on) => {
    const lower = `c${WINDOWS.cwd.slice(1)}`
    const w = world(on, { ...WINDOWS, cwd: lower })
    await startSession($, { cwd: lower })
    const written = `${lower}\\${IN_FOLDER}`
    w.files.set(written, { text: handoffText(), mtimeMs: w.clock.now() })
    await $.tool.call({ tool: 'Write', tool_use_id: 'tu-lower', file_path: written, content: handoffText() })
    await settleUntil(w, () => ownRecordsIn(w.store).length > 0)
    expect(ownRecordsIn(w.store).map((r) => r.path), 'recorded').toEqual([written])

    w.setSessionId('session-2')
    w.setReportedCwd(WINDOWS.cwd)
    await startSession($, { cwd: WINDOWS.cwd })
    const said = (await typeCommand($, 'compact-handoff', `resume ${WINDOWS.cwd}\\${IN_FOLDER}`)).text ?? ''
    expect(said).toBe(`Resuming from ${HANDOFF}.`)
    await settleUntil(w, () => ownRecordsIn(w.store).some((r) => r.usedAtMs !== undefined))
    expect(w.seen.asks, 'nothing asked').toEqual([])
    expect(w.seen.submits.filter((s) => s.asUser).length, 'the continue-prompt sent').toBe(1)
    expect(ownRecordsIn(w.store).map((r) => r.usedAtMs !== undefined), 'one record, marked used').toEqual([true])
  })
})
