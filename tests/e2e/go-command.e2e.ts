/**
 * The swap through compact-handoff's hidden go-command, in a real session with the
 * scripted model: after the check, the skill turn's turn.complete queues
 * /compact-handoff-go, its hook takes the go step and compacts from a 0 ms timer, the
 * answer mod answers with the stub, and the continue-prompt follows. The go-command is
 * not in the `/` menu, and typed by the person it changes nothing. The meter counts
 * from the swap: ten swaps in a row whose new context re-reads a file and reruns a
 * command as its very first calls each get both in their follow-up line. A review run
 * applied by /compact-handoff apply takes the same go step.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { isSkillTurnFor, skillTurn } from '../harness/handoff-script.js'
import { GO_COMMAND, GO_REFUSED_TEXT } from '../../packages/compact-handoff/hooks/run/run.js'
import { trackRuns } from './lifecycle.js'
import { expectSwapped, ordinaryTurn, pollUntil, requestAfter, startFlow, turnSettled, type Flow, logEntries, toolTurn } from './flow-support.js'

const SWAPS = 10
describe("the swap goes through the hidden go-command, and the meter counts from the swap", () => {
  const { track } = trackRuns()
  let flow: Flow

  beforeAll(async () => {
    flow = await startFlow('go-command', track)
    mkdirSync(join(flow.run.proj, 'src'), { recursive: true })
    writeFileSync(join(flow.run.proj, 'src', 'notes.txt'), 'the parser keeps positions\n')
  })

  it(`${SWAPS} swaps in a row: each through the go-command, and each follow-up line holds the new context's very first Read and command`, { timeout: 300_000 }, async () => {
    const { proj } = flow.run
    const notes = join(proj, 'src', 'notes.txt')
    const firstCalls = [
      { name: 'Read', input: { file_path: notes } },
      { name: 'Bash', input: { command: 'echo built', description: 'build' } },
    ]
    flow.mock.script(...toolTurn('ask GO-WORK', firstCalls, 'REPLY-GO-WORK'))
    await flow.session.type('ask GO-WORK')
    await flow.session.waitForScreen(/REPLY-GO-WORK/, 30_000)

    for (let i = 1; i <= SWAPS; i++) {
      const turn = skillTurn({ proj, doc: { slug: `go-${i}`, date: '2026-11-30', focus: `go ${i}` }, continuePrompt: `Continue from the go-${i} handoff.` })
      // The new context's very first calls, answered at once: the file read before, the command run before.
      flow.mock.script(...turn.replies, ...toolTurn(turn.continuePrompt, firstCalls, `REPLY-AFTER-GO-${i}`))
      const mark = flow.session.logMark()
      const before = flow.mock.requests.length
      await flow.session.type(`/compact-handoff go ${i}`)
      const skill = await flow.mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, `go ${i}`), 30_000)
      const next = await requestAfter(flow.mock, skill.seq, turn.continuePrompt)
      const afterMark = flow.session.logMark()
      expectSwapped(next, turn.continuePrompt, [`Handoff file: ${turn.handoffPath}`])
      await flow.session.waitForScreen(new RegExp(`REPLY-AFTER-GO-${i}`), 30_000)
      await turnSettled(flow.session, afterMark)

      // The stages in the debug log: the go stage, the go-command queued, its hook
      // taking the go step, then the compaction the answer mod answered.
      const log = flow.session.debugLog().slice(mark)
      const going = log.search(/\$\.ui\.status \(compact-handoff\): handoff: swap queued/)
      const queued = log.indexOf('$.command.run (compact-handoff)', going)
      const ran = log.indexOf('compact-handoff@inline: command.run nested in', queued)
      const swapping = log.indexOf('$.ui.status (compact-handoff): handoff: replacing the conversation', ran)
      const stood = log.slice(swapping).search(/session\.compact \(plugin\)[^\n]*core never ran/)
      expect(going, `swap ${i}: the go stage`).toBeGreaterThan(-1)
      expect(queued, `swap ${i}: the go-command queued`).toBeGreaterThan(going)
      expect(ran, `swap ${i}: compact-handoff's own command.run hook ran it`).toBeGreaterThan(queued)
      expect(swapping, `swap ${i}: the go step taken`).toBeGreaterThan(ran)
      expect(stood, `swap ${i}: then the compaction the answer mod answered`).toBeGreaterThan(-1)
      expect(flow.mock.requests.some((r) => r.kind === 'summary'), 'no summariser request').toBe(false)
      // The engine echoes a command a plugin runs as a typed line (2.1.332); README says so.
      if (i === 1) {
        const scrollback = flow.session.tmux('capture-pane', '-p', '-S', '-5000', '-t', 'cc')
        writeFileSync(join(flow.run.dir, 'scrollback-swap-1.txt'), scrollback)
        console.log(`e2e go-command: the go-command echoed as a typed line: ${/❯[\u00a0 ]\/compact-handoff-go/.test(scrollback)}`)
        expect(scrollback, 'the engine echoes the go-command as a typed line').toMatch(/❯[\u00a0 ]\/compact-handoff-go/)
      }
    }

    // The status report closes the last window; every swap's window is then logged.
    await flow.session.type('/compact-handoff status')
    await flow.session.waitForScreen(/1 file re-read, 1 command re-run/, 30_000)
    const meterLines = await pollUntil('ten follow-up lines', 10_000, () => {
      const lines = logEntries(flow).filter((e) => e.outcome === 'meter')
      return lines.length >= SWAPS ? lines : undefined
    })
    for (const [n, entry] of meterLines.entries()) {
      expect(entry, `the follow-up line of swap ${n + 1}`).toMatchObject({
        reReads: ['src/notes.txt'],
        repeatedCommands: ['echo built'],
        files: [expect.stringMatching(new RegExp(`HANDOFF_go-${n + 1}_2026-11-30\\.md$`))],
      })
    }
  })

  it('a review run, applied, takes the same go step', async () => {
    const { proj } = flow.run
    const turn = skillTurn({ proj, doc: { slug: 'go-review', date: '2026-11-30', focus: 'go review' }, continuePrompt: 'Continue from the reviewed handoff.' })
    flow.mock.script(...turn.replies, { when: turn.continuePrompt, text: 'REPLY-AFTER-APPLY' })
    const before = flow.mock.requests.length
    await flow.session.type('/compact-handoff review go review')
    await flow.mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'go review'), 30_000)
    await flow.session.waitForScreen(/\/compact-handoff apply/, 30_000)
    const mark = flow.session.logMark()
    const seq = flow.mock.requests.length
    await flow.session.type('/compact-handoff apply')
    const next = await requestAfter(flow.mock, seq, turn.continuePrompt)
    expectSwapped(next, turn.continuePrompt, [`Handoff file: ${turn.handoffPath}`])
    await flow.session.waitForScreen(/REPLY-AFTER-APPLY/, 30_000)
    const log = flow.session.debugLog().slice(mark)
    expect(log, 'the apply queues no command: its own hook takes the go step').not.toMatch(/\$\.command\.run \(compact-handoff\)/)
    // The go step: into swapping, then the compaction the answer mod answered.
    const swapping = log.indexOf('$.ui.status (compact-handoff): handoff: replacing the conversation')
    expect(swapping, 'the go step taken').toBeGreaterThan(-1)
    expect(log.slice(swapping).search(/session\.compact \(plugin\)[^\n]*core never ran/), 'then the compaction the answer mod answered').toBeGreaterThan(-1)
    const line = await pollUntil('the apply\'s swap log line', 10_000, () => logEntries(flow).find((e) => e.outcome === 'swapped' && e.trigger === 'apply'))
    expect(line.files).toEqual([turn.handoffPath])
  })

  it('typed by the person, the go-command changes nothing, and the / menu does not list it', async () => {
    const before = flow.mock.requests.length
    const mark = flow.session.logMark()
    await flow.session.type(`/${GO_COMMAND} anything`)
    await flow.session.waitForScreen(new RegExp(GO_REFUSED_TEXT.slice(0, 40).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')), 15_000)
    expect(flow.session.debugLog().slice(mark), 'no compaction').not.toMatch(/\$\.session\.compact \(compact-handoff\)/)
    await ordinaryTurn(flow, 'AFTER-GO-TYPED')
    expect(flow.mock.requests.slice(before).every((r) => r.kind === 'main')).toBe(true)

    await flow.session.type('/compact-handoff', { enter: false })
    // The menu's rows: a command and its description; the transcript above holds the typed go-command.
    const screen = await flow.session.waitForScreen(/^ +(?:❯[\u00a0 ])?\/compact-handoffplan {2,}Write a handoff and a phased plan/m, 15_000)
    const menu = screen.split('\n').filter((line) => /^ +(?:❯[\u00a0 ])? *\/[\w:-]+ {2,}\S/.test(line))
    console.log(`e2e go-command: the / menu for "/compact-handoff":\n${menu.join('\n')}`)
    writeFileSync(join(flow.run.dir, 'screen-menu.txt'), screen)
    expect(menu.some((row) => row.includes('/compact-handoff '))).toBe(true)
    expect(menu.filter((row) => row.includes(GO_COMMAND)), 'the hidden go-command is not in the / menu').toEqual([])
  })
})
