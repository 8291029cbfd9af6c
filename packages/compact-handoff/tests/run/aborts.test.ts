import { describe, expect, type Engine } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { CWD, HANDOFF, PLAN, world, type DiskFile } from '../support/world.js'
import { endTurn, skillWrite, skillRunsOf } from '../support/engine-calls.js'
import { handoffText, readyAnswer } from '../support/texts.js'
import { finishSkill, repairTurn, skillWritesHandoff, startSession, typeAndLaunch } from '../support/flow.js'
import { LAUNCH_RETRY_MS, MAX_LAUNCH_TRIES } from '../../hooks/run/run-steps.js'
import { TOASTS } from '../../hooks/text/toasts.js'

/** Every abort says why, leaves the conversation alone and sends nothing. */
function expectAborted(w: ReturnType<typeof world>, why: RegExp) {
  expect(w.seen.toasts.length, `one toast: ${w.seen.toasts.join(' / ')}`).toBe(1)
  expect(w.seen.toasts[0]).toBe('handoff run stopped; the conversation is unchanged')
  const detail = w.seen.logs.find((l) => l.endsWith('. Context unchanged.'))
  expect(detail).toMatch(/^(?!compact-handoff:).*\. Context unchanged\.$/)
  expect(detail).toMatch(why)
  expect(w.seen.compactions, 'nothing compacted').toEqual([])
  expect(w.seen.compactAttempts, 'no compaction attempted').toBe(0)
  expect(w.seen.submits.filter((s) => s.asUser), 'no continue-prompt').toEqual([])
  expect(w.seen.statusLines.at(-1), 'status line cleared').toBeUndefined()
}

describe('the skill turn', () => {
  for (const [reason, why] of [
    ['aborted', /interrupted/],
    ['error', /ended with an error/],
  ] as const) {
    test(`aborts when it ends ${reason}`, async ($, on) => {
      const w = world(on)
      await startSession($)
      await typeAndLaunch($, w, 'compact-handoff', '')
      await skillWritesHandoff($, w, readyAnswer([HANDOFF]), reason)
      expectAborted(w, why)
    })
  }

  test('aborts with the reason the skill gave in a FAILED sentinel', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await finishSkill($, w, 'I could not.\n`COMPACT-HANDOFF-FAILED: the session has no work to hand off`')
    expectAborted(w, /reported failure: the session has no work to hand off/)
  })

  test('aborts when no handoff was written and none was named', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await finishSkill($, w, 'All done, I think.')
    expectAborted(w, /no handoff file was written/)
  })

  test('aborts a plan run that wrote no plan', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoffplan', '')
    await skillWritesHandoff($, w)
    expectAborted(w, /a plan run, but no plan file was written/)
  })

  test('aborts when the sentinel names a file outside the handoff folders', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    w.writeFile('notes/HANDOFF_parser_2026-11-29.md', handoffText())
    await finishSkill($, w, readyAnswer(['notes/HANDOFF_parser_2026-11-29.md']))
    expectAborted(w, /not a HANDOFF_\*\.md or PLAN_\*\.md file directly under/)
  })
})

describe('the files on disk', () => {
  async function runNaming($: Engine, w: ReturnType<typeof world>, file: DiskFile | undefined, recorded = true) {
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    if (file) w.files.set(`${CWD}/${HANDOFF}`, file)
    if (recorded) await skillWrite($, HANDOFF, file?.text ?? '')
    await finishSkill($, w, readyAnswer([HANDOFF]))
  }

  /** Two repair turns in which the skill fixes nothing; the run then gives up. */
  async function repairsFixNothing($: Engine, w: ReturnType<typeof world>) {
    await repairTurn($, w, 1, readyAnswer([HANDOFF]))
    await repairTurn($, w, 2, readyAnswer([HANDOFF]))
  }

  test('aborts when the named handoff does not exist, after two repair turns that do not write it', async ($, on) => {
    const w = world(on)
    await runNaming($, w, undefined)
    await repairsFixNothing($, w)
    expectAborted(w, /after 2 repair turns the files still fail the check: plans\/handoffs\/HANDOFF_parser_2026-11-29\.md: does not exist/)
  })

  test('aborts on an empty handoff, after two repair turns', async ($, on) => {
    const w = world(on)
    await runNaming($, w, { text: '', mtimeMs: 1_000_050 })
    await repairsFixNothing($, w)
    expectAborted(w, /non-blank characters/)
  })

  test('aborts on a handoff over the size cap', async ($, on) => {
    const w = world(on)
    await runNaming($, w, { text: handoffText() + 'x'.repeat(300 * 1024), mtimeMs: 1_000_050 })
    expectAborted(w, /over the 262144-byte cap/)
  })

  test('aborts on a handoff that is a symlink leading out of the project', async ($, on) => {
    const w = world(on)
    await runNaming($, w, { text: handoffText(), mtimeMs: 1_000_050, realPath: '/home/someone/HANDOFF_parser_2026-11-29.md' })
    expectAborted(w, /is a symbolic link, and compact-handoff never writes or reads through one/)
  })

  test('aborts on an old handoff from before the run that this run never wrote', async ($, on) => {
    const w = world(on)
    await runNaming($, w, { text: handoffText(), mtimeMs: 10 }, false)
    expectAborted(w, /was not written during this run/)
  })

  test('aborts on a handoff missing its required sections, after two repair turns', async ($, on) => {
    const w = world(on)
    const text = handoffText().replace(/## Tried and ruled out\n[^\n]*\n/, '')
    await runNaming($, w, { text, mtimeMs: 1_000_050 })
    await repairsFixNothing($, w)
    expectAborted(w, /missing section "## Tried and ruled out"/)
  })

  test('never swaps in a fresh named file the skill did not write with Write or Edit; a repair may write it', async ($, on) => {
    const w = world(on)
    await runNaming($, w, { text: handoffText(), mtimeMs: 1_000_050 }, false)
    expect(w.seen.compactAttempts, 'not swapped in as it is').toBe(0)
    const ask = w.seen.submits.at(-1)?.text ?? ''
    expect(ask).toContain(`${HANDOFF}:\n- was not written with the Write tool in this run: write the whole file again with the Write tool`)
    await repairTurn($, w, 1, readyAnswer([HANDOFF]), () => skillWrite($, HANDOFF, handoffText()))
    expect(w.seen.compactions.length).toBe(1)
  })

  test('uses the recorded handoff when the skill printed no sentinel, with a notice', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w, 'Written.')
    // No answer mod here, so the engine's summary is said too: its toast's detail line (toasts.ts answerModMissing).
    expect(w.seen.logs).toEqual(['the skill printed no sentinel line; using the files it wrote', TOASTS.answerModMissing().detail])
    expect(w.seen.compactions[0]?.instructions).toContain(HANDOFF)
  })
})

describe('recording', () => {
  test("ignores a subagent's write of a handoff file", async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    w.writeFile(HANDOFF, handoffText())
    await skillWrite($, HANDOFF, handoffText(), 'agent-7')
    await finishSkill($, w, 'Written.')
    expectAborted(w, /no handoff file was written/)
  })

  test("ignores a subagent's turn ending while the skill's turn runs", async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await endTurn($, 'subagent done', 'answer', 'agent-7')
    await w.clock.settle()
    expect(w.seen.toasts, 'the run goes on').toEqual([])
    await skillWritesHandoff($, w)
    expect(w.seen.compactions.length).toBe(1)
  })

  test('ignores writes of other files and of files outside the handoff folders', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWrite($, 'src/parser.ts', 'code')
    await skillWrite($, 'plans/handoffs/old/HANDOFF_x_2026-11-29.md', handoffText())
    await skillWrite($, PLAN.replace('plans/', 'docs/'), handoffText())
    await finishSkill($, w, 'Written.')
    expectAborted(w, /no handoff file was written/)
  })
})

describe('launching the skill', () => {
  test('asks Claude to run the skill when no skill command is listed', async ($, on) => {
    const w = world(on, { commands: [] })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', 'the parser')
    expect(w.seen.commandRuns).toEqual([])
    expect(w.seen.submits).toEqual([{ text: expect.stringMatching(/with the arguments "compact-mode run=\S+ created=\S+ chain=new seq=1 parent=none the parser"/) }])
    expect(w.seen.logs).toEqual([expect.stringContaining('asked Claude to run the skill instead')])
  })

  test('finds the skill offered by another plugin', async ($, on) => {
    const w = world(on, { commands: [{ name: 'my-pack:handoff', description: 'x', source: 'plugin', plugin: 'my-pack' }] })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    expect(skillRunsOf(w)).toEqual([{ command: 'my-pack:handoff', focus: '' }])
  })

  test('falls back to a prompt when running the command fails, and aborts when that fails too', async ($, on) => {
    const w = world(on, { refuseCommandRun: true, refuseSubmit: true })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    // Each refused launch is tried again before the run gives up.
    await w.clock.advance(MAX_LAUNCH_TRIES * LAUNCH_RETRY_MS)
    await w.clock.settle()
    expectAborted(w, /could not start the handoff skill: running \/compact-handoff-skills:handoff failed .* asking Claude failed too/)
  })

  test('tries again when the launch is refused because the command hook is still settling', async ($, on) => {
    const w = world(on, { refusalsWhileSettling: 1, refuseSubmit: true })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    expect(w.seen.commandRuns, 'refused the first time').toEqual([])
    await w.clock.advance(LAUNCH_RETRY_MS)
    await w.clock.settle()
    expect(skillRunsOf(w).map((r) => r.command)).toEqual(['compact-handoff-skills:handoff'])
    expect(w.seen.toasts).toEqual([])
  })
})
