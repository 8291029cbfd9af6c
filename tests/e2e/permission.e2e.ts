/**
 * The permission dialog in the default permission mode: Claude Code asks before any
 * write under `.claude/` (a sensitive folder), so the skill's Write of its handoff would
 * stop a run at "Do you want to create HANDOFF_….md?". compact-handoff's `tool.check`
 * hook lets exactly that write through while its run is writing; a Write by the model to
 * the same folder outside a run still asks.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { skillTurn, isSkillTurnFor } from '../harness/handoff-script.js'
import { trackRuns } from './lifecycle.js'
import { expectSwapped, ordinaryTurn, requestAfter, startFlow, type Flow } from './flow-support.js'

const DIALOG_RE = /Do you want to (?:create|make this edit to|overwrite)/

describe('in the default permission mode', () => {
  const { track } = trackRuns()
  let flow: Flow

  beforeAll(async () => {
    flow = await startFlow('permission', track, { permissionMode: 'default' })
  })

  it('/compact-handoff reaches the swap with no key pressed: the skill writes its handoff unasked', async () => {
    const { mock, session, run } = flow
    await ordinaryTurn(flow, 'GAMMA-ONE')
    const turn = skillTurn({ proj: run.proj, doc: { slug: 'unasked', focus: 'finish the parser' } })
    mock.script(...turn.replies)
    const before = mock.requests.length
    let dialog: string | undefined
    const watch = setInterval(() => {
      const screen = session.screen()
      if (dialog === undefined && DIALOG_RE.test(screen)) dialog = screen
    }, 100)
    try {
      await session.type('/compact-handoff finish the parser')
      const skillRequest = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'finish the parser'), 30_000)
      const next = await requestAfter(mock, skillRequest.seq, turn.continuePrompt)
      expect(dialog, 'no permission dialog was drawn').toBeUndefined()
      // The engine's own word on it: the session asked, and compact-handoff's hook allowed.
      expect(session.debugLog()).toMatch(/tool\.check Write \S+: ask -> allow by plugins compact-handoff\b/)
      expectSwapped(next, turn.continuePrompt, [`Handoff file: ${turn.handoffPath}`])
      expect(existsSync(turn.handoffFile), 'the handoff is on disk').toBe(true)
    } finally {
      clearInterval(watch)
    }
    await session.waitForScreen(/OK \(mock default reply\)/, 30_000)
  })

  it('/compact-handoffplan writes its handoff and its plan unasked too', async () => {
    const { mock, session, run } = flow
    const turn = skillTurn({ proj: run.proj, mode: 'plan', doc: { slug: 'unasked-plan', focus: 'parser plan' }, continuePrompt: 'Start Phase 1 of the parser plan.' })
    mock.script(...turn.replies)
    const before = mock.requests.length
    await session.type('/compact-handoffplan parser plan')
    const skillRequest = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'parser plan'), 30_000)
    const next = await requestAfter(mock, skillRequest.seq, turn.continuePrompt)
    expectSwapped(next, turn.continuePrompt, [`Handoff file: ${turn.handoffPath}`, `Plan file: ${turn.planPath}`])
    expect(existsSync(turn.planFile!), 'the plan is on disk').toBe(true)
    await session.waitForScreen(/OK \(mock default reply\)/, 30_000)
  })

  it("a Write by the model to the handoff folder outside a run still asks, and No keeps the file out", async () => {
    const { mock, session, run } = flow
    const file = join(run.proj, '.claude', 'handoffs', 'HANDOFF_elsewhere_2026-11-30.md')
    mock.script({ when: 'write elsewhere', toolUses: [{ name: 'Write', input: { file_path: file, content: '# not a run\n' } }] })
    await session.type('write elsewhere')
    await session.waitForScreen(/Do you want to create HANDOFF_elsewhere_2026-11-30\.md\?/, 30_000)
    session.pressKeys('Escape')
    await session.waitForScreen(/❯\u00a0/, 30_000)
    expect(existsSync(file), 'refused at the dialog: not written').toBe(false)
  })
})
