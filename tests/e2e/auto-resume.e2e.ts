/**
 * Handing off without being asked, and picking up in a fresh session, with a scripted
 * model: the auto handoff starts after a turn that reaches its percent and swaps, never
 * below it nor when the option is 0; a handoff placed in the project from elsewhere is
 * never offered, and resuming it asks on screen first ("Do not resume" sends nothing); an
 * own handoff, written by the model's Write, is offered in the next session, resumed with
 * no question, and not offered again.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { handoffFileText, isSkillTurnFor, skillTurn } from '../harness/handoff-script.js'
import { startSession } from '../harness/tmux-session.js'
import { carriesToolResult } from '../harness/request-messages.js'
import { TOASTS } from '../../packages/compact-handoff/hooks/text/toasts.js'
import { trackRuns } from './lifecycle.js'
import { ANSWER_MOD, HANDOFF_MOD, PLUGIN_DIRS, expectSwapped, ordinaryTurn, pollUntil, requestAfter, startFlow, turnSettled, type Flow } from './flow-support.js'

/** The default model's window is 1,000,000 tokens: reported input tokens read back as percent. */
const WINDOW_TOKENS = 1_000_000
/** Long enough for a run the mod would start to reach the mock. */
const QUIET_MS = 2_000

/** A deliberate quiet period, not a wait for something: it proves that nothing happened
 * (no run started, no offer made), and an absence cannot be polled for. */
function quietPeriod(): Promise<void> {
  return new Promise((r) => setTimeout(r, QUIET_MS))
}

function skillRequestsSince(flow: Flow, seq: number): number {
  return flow.mock.requests.filter((r) => r.seq > seq && /compact-mode run=/.test(r.lastUserText)).length
}

describe('the auto handoff', () => {
  const { track } = trackRuns()

  it('starts on its own after a turn at its percent and swaps; never below it', async () => {
    const flow = await startFlow('auto-on', track, { handoffOptions: { autoHandoffPercent: 80 } })
    const below = await ordinaryTurn(flow, 'AUTO-BELOW', { inputTokens: 0.7 * WINDOW_TOKENS })
    await quietPeriod()
    expect(skillRequestsSince(flow, below.seq), 'no auto handoff at 70%').toBe(0)

    const turn = skillTurn({ proj: flow.run.proj, doc: { slug: 'auto-run', date: '2026-11-30', focus: 'none' } })
    flow.mock.script(...turn.replies)
    const mark = flow.session.logMark()
    const at = await ordinaryTurn(flow, 'AUTO-AT', { inputTokens: 0.85 * WINDOW_TOKENS })
    const toast = await flow.session.waitForToast(/started on its own/, { mod: 'compact-handoff', since: mark, timeoutMs: 20_000 })
    expect(toast.text).toBe('context at 85%: a handoff started on its own. /compact-handoff cancel stops it')
    const skill = await flow.mock.waitForRequest((r) => r.seq > at.seq && isSkillTurnFor(r.lastUserText, ''), 30_000)
    const next = await requestAfter(flow.mock, skill.seq, turn.continuePrompt)
    expectSwapped(next, turn.continuePrompt, [`Handoff file: ${turn.handoffPath}`])
  })

  it('stays off when the option is 0, the default: the nudge speaks instead', async () => {
    const flow = await startFlow('auto-off', track)
    const mark = flow.session.logMark()
    const high = await ordinaryTurn(flow, 'AUTO-OFF', { inputTokens: 0.9 * WINDOW_TOKENS })
    await flow.session.waitForToast(/context at 90%\. \/compact-handoff is recommended\./, { mod: 'compact-handoff', since: mark, timeoutMs: 20_000 })
    await quietPeriod()
    expect(skillRequestsSince(flow, high.seq)).toBe(0)
  })
})

describe('picking up in a fresh session', () => {
  const { track } = trackRuns()
  const DIR = '.claude/handoffs'
  const NEWEST_OPEN = `${DIR}/HANDOFF_newest-open_2026-11-30.md`
  const WRITE_ID = 'toolu_write_own_handoff'

  /** Handoffs placed in the project from elsewhere (unpacked, cloned, copied), never
   * written in a session: a done one (newest), an open one, an older open one. */
  function placeHandoffs(proj: string): void {
    mkdirSync(join(proj, DIR), { recursive: true })
    const nowS = Date.now() / 1000
    const files: [string, string, number][] = [
      [`${DIR}/HANDOFF_finished_2026-11-30.md`, 'done', 60],
      [NEWEST_OPEN, 'in-progress', 3_600],
      [`${DIR}/HANDOFF_older-open_2026-11-29.md`, 'waiting-for-user', 7_200],
    ]
    for (const [relPath, status, ageS] of files) {
      const slug = relPath.split('_')[1] ?? 'x'
      // handoffFileText writes `status: in-progress`; the status under test replaces it.
      writeFileSync(join(proj, relPath), handoffFileText({ slug, date: '2026-11-30', focus: slug }).replace('status: in-progress', `status: ${status}`))
      utimesSync(join(proj, relPath), nowS - ageS, nowS - ageS)
    }
  }

  /** The footer of the engine's question dialog, drawn while it waits for an answer. */
  const DIALOG_OPEN = /Enter to select · ↑\/↓ to navigate/

  it('never offers a handoff placed from elsewhere; resuming it asks on screen first, and "Do not resume" sends nothing', async () => {
    const flow = await startFlow('resume-placed', track, { prepare: (run) => placeHandoffs(run.proj) })
    await quietPeriod()
    expect(flow.session.toasts().filter((t) => /picks up your handoff of/.test(t.text)), 'no offer of a file not written here').toEqual([])

    const before = flow.mock.requests.length
    await flow.session.type('/compact-handoff resume')
    await flow.session.waitForScreen(DIALOG_OPEN, 30_000)
    const screen = await flow.session.waitForScreen(/Do not resume/, 15_000)
    expect(screen).toMatch(/not written in your Claude Code/)
    flow.session.pressKeys('Down')
    await flow.session.waitForScreen(/❯ 2\. Do not resume/, 15_000)
    for (let attempt = 0; attempt < 5 && DIALOG_OPEN.test(flow.session.screen()); attempt++) {
      flow.session.pressKeys('Enter')
      await pollUntil('the question to close', 3_000, () => (DIALOG_OPEN.test(flow.session.screen()) ? undefined : true)).catch(() => false)
    }
    await flow.session.waitForToast(/not resumed, nothing was sent: /, { mod: 'compact-handoff', timeoutMs: 20_000 })
    await quietPeriod()
    expect(flow.mock.requests.slice(before), 'nothing reached the model').toEqual([])
  })

  it('offers an own handoff (written by the model\'s Write) in the next session, resumes it with no question, and does not offer it again', async () => {
    const flow = await startFlow('resume-own', track)
    const content = handoffFileText({ slug: 'newest-open', date: '2026-11-30', focus: 'newest-open' })
    flow.mock.script(
      { when: 'ask WRITE-HANDOFF', toolUses: [{ id: WRITE_ID, name: 'Write', input: { file_path: join(flow.run.proj, NEWEST_OPEN), content } }] },
      { when: (q) => carriesToolResult(q, WRITE_ID), text: 'REPLY-WRITE-HANDOFF' },
    )
    const mark = flow.session.logMark()
    await flow.session.type('ask WRITE-HANDOFF')
    await flow.session.waitForScreen(/REPLY-WRITE-HANDOFF/, 30_000)
    await turnSettled(flow.session, mark)
    await flow.session.stop()

    const plugins = [PLUGIN_DIRS.handoff, PLUGIN_DIRS.answer, PLUGIN_DIRS.skills]
    const next = await startSession({ run: flow.run, plugins, mock: flow.mock })
    track(flow.run, next)
    await next.waitForReady({ mods: [HANDOFF_MOD, ANSWER_MOD] })
    const offer = await next.waitForToast(/picks up your handoff of/, { mod: 'compact-handoff', timeoutMs: 20_000 })
    // Under an hour old: said as 1 h; the path shortened from the left to fit the box.
    expect(offer.text).toBe(TOASTS.offer(NEWEST_OPEN, 0).text)
    expect(offer.text).toMatch(/\/HANDOFF_newest-open_2026-11-30\.md$/)

    flow.mock.script({ when: 'Resume the work from the handoff', text: 'REPLY-RESUMED' })
    const before = flow.mock.requests.length
    const asked = next.logMark()
    await next.type('/compact-handoff resume')
    const resumed = await flow.mock.waitForRequest((r) => r.seq > before && r.lastUserText.includes('Resume the work from the handoff'), 30_000)
    expect(resumed.lastUserText).toContain(`Resume the work from the handoff ${NEWEST_OPEN} (status in-progress`)
    expect(resumed.lastUserText).toContain('Follow its Constraints exactly')
    expect(next.debugLog().slice(asked), 'no question for an own file').not.toMatch(/AskUserQuestion/)
    await next.waitForScreen(/REPLY-RESUMED/, 30_000)
    await turnSettled(next, 0)
    await next.stop()

    // The next session in the same project: the resumed file is not offered again.
    const again = await startSession({ run: flow.run, plugins, mock: flow.mock })
    track(flow.run, again)
    await again.waitForReady({ mods: [HANDOFF_MOD, ANSWER_MOD] })
    await quietPeriod()
    expect(again.toasts().filter((t) => /picks up your handoff of/.test(t.text))).toEqual([])
  })
})
