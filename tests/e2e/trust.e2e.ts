/**
 * What compact-handoff trusts, in a real session: an Edit never makes a stranger's handoff
 * the person's own, and the one ask it lifts is the permission mode's own, during the
 * run's own skill turn. The person's ask rule for the handoff folder and a PreToolUse
 * hook's ask stay asks during a run; another plugin's prompt turn that runs while the run
 * waits for its skill turn keeps the session's verdict.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { handoffFileText, isSkillTurnFor, skillTurn } from '../harness/handoff-script.js'
import { carriesToolResult } from '../harness/request-messages.js'
import type { RunDir } from '../harness/run-dir.js'
import { writeMod } from '../harness/staging.js'
import { startSession } from '../harness/tmux-session.js'
import { startMockApi } from '../harness/mock-api.js'
import { createRunDir } from '../harness/run-dir.js'
import { pollUntil } from '../harness/poll.js'
import { trackRuns } from './lifecycle.js'
import { ANSWER_MOD, HANDOFF_MOD, PLUGIN_DIRS, expectSwapped, requestAfter, startFlow, turnSettled, type Flow } from './flow-support.js'

const WRITE_DIALOG_RE = /Do you want to (?:create|make this edit to|overwrite)/
/** The footer of the engine's question dialog, drawn while it waits for an answer. */
const QUESTION_OPEN = /Enter to select · ↑\/↓ to navigate/
/** compact-handoff's own allow, as the engine's debug log records it. */
const LIFTED_RE = /tool\.check Write \S+: ask -> allow by plugins compact-handoff\b/

/** Adds to the run's user settings. */
function addUserSettings(run: RunDir, more: Record<string, unknown>): void {
  const path = join(run.home, '.claude', 'settings.json')
  writeFileSync(path, JSON.stringify({ ...(JSON.parse(readFileSync(path, 'utf8')) as object), ...more }, null, 2))
}

/** Starts `/compact-handoff <focus>` with a scripted skill turn, and waits for the
 * Write's dialog: it must be drawn (the ask was kept), and Enter answers Yes. */
async function runAsksAtItsWrite(flow: Flow, focus: string): Promise<void> {
  const { mock, session, run } = flow
  const turn = skillTurn({ proj: run.proj, doc: { slug: focus.replace(/ /g, '-'), date: '2026-11-30', focus } })
  mock.script(...turn.replies)
  const before = mock.requests.length
  const mark = session.logMark()
  await session.type(`/compact-handoff ${focus}`)
  const skill = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, focus), 30_000)
  await session.waitForScreen(WRITE_DIALOG_RE, 30_000)
  expect(existsSync(turn.handoffFile), 'not written before the answer').toBe(false)
  // The dialog's title is drawn before it takes keys (an Enter sent at once was lost
  // live, 2.1.332): press again, as a person would, until it closes.
  await pollUntil('the dialog to take Enter', 20_000, () => {
    if (!WRITE_DIALOG_RE.test(session.screen())) return true
    session.pressKeys('Enter')
    return undefined
  }, 1_000)
  const next = await requestAfter(mock, skill.seq, turn.continuePrompt)
  expectSwapped(next, turn.continuePrompt, [`Handoff file: ${turn.handoffPath}`])
  expect(session.debugLog().slice(mark), 'compact-handoff lifted no ask').not.toMatch(LIFTED_RE)
  await session.waitForScreen(/OK \(mock default reply\)/, 30_000)
}

describe('asks that are not the mode\'s own stay asks during a run', () => {
  const { track } = trackRuns()

  it("the person's ask rule for .claude/handoffs: the skill's Write is asked about", async () => {
    const flow = await startFlow('trust-ask-rule', track, {
      permissionMode: 'default',
      prepare: (run) => addUserSettings(run, { permissions: { ask: ['Edit(.claude/handoffs/**)'] } }),
    })
    await runAsksAtItsWrite(flow, 'ask rule')
  })

  it("a PreToolUse hook's ask (a secret scanner): the skill's Write is asked about", async () => {
    const flow = await startFlow('trust-hook-ask', track, {
      permissionMode: 'default',
      prepare: (run) => {
        const scanner = join(run.dir, 'secret-scan.sh')
        const answer = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'secret-scan: look at this file first' } }
        writeFileSync(scanner, `#!/bin/sh\ncat > /dev/null\nprintf '%s' '${JSON.stringify(answer)}'\n`)
        chmodSync(scanner, 0o755)
        addUserSettings(run, { hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: scanner }] }] } })
      },
    })
    await runAsksAtItsWrite(flow, 'hook ask')
  })
})

/** A mod that, when /compact-handoff runs, sends a prompt of its own from a timer: its
 * turn starts before the run's skill turn, while the run already waits for that turn. */
const NOTES_MOD = `import type { Register } from 'claude-code'

export const register: Register = (on) => {
  on('command.run', { command: 'compact-handoff' }, async ($, e, next) => {
    const answered = await next(e)
    $.clock.after(20, () => void $.prompt.submit({ text: 'NOTES-PLUGIN: save the notes' }).catch(() => undefined))
    return answered
  })
}
`

describe("another plugin's prompt turn before the skill's turn", () => {
  const { track } = trackRuns()

  it("keeps the session's ask for its Write of a handoff file; the run's skill turn still writes unasked", async () => {
    const run = createRunDir('trust-plugin-turn')
    track(run)
    const notes = writeMod(run, 'notes-sender', { 'hooks/register.ts': NOTES_MOD })
    const mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl') })
    // Outer to compact-handoff (the first --plugin-dir is outermost): its command hook answers without next.
    const session = await startSession({ run, plugins: [notes, PLUGIN_DIRS.handoff, PLUGIN_DIRS.answer, PLUGIN_DIRS.skills], mock, permissionMode: 'default' })
    track(run, session)
    await session.waitForReady({ mods: ['notes-sender@inline', HANDOFF_MOD, ANSWER_MOD] })

    const notesFile = join(run.proj, '.claude', 'handoffs', 'HANDOFF_notes_2026-11-30.md')
    const NOTES_WRITE = 'toolu_notes_write'
    const turn = skillTurn({ proj: run.proj, doc: { slug: 'after-notes', date: '2026-11-30', focus: 'after notes' } })
    mock.script(
      // Held long enough for the run's launch (100 ms after the command) to have moved it to writing.
      { when: 'NOTES-PLUGIN', delayMs: 2_000, toolUses: [{ id: NOTES_WRITE, name: 'Write', input: { file_path: notesFile, content: handoffFileText({ slug: 'notes', date: '2026-11-30', focus: 'notes' }) } }] },
      ...turn.replies,
    )
    const before = mock.requests.length
    const mark = session.logMark()
    await session.type('/compact-handoff after notes')
    await mock.waitForRequest((r) => r.seq > before && r.lastUserText.includes('NOTES-PLUGIN'), 30_000)
    await session.waitForScreen(/Do you want to create HANDOFF_notes_2026-11-30\.md\?/, 30_000)
    // No: the engine ends that turn (no result goes back to the model), and the queued skill runs.
    session.pressKeys('Escape')
    await pollUntil('the dialog to close', 10_000, () => (WRITE_DIALOG_RE.test(session.screen()) ? undefined : true))
    expect(existsSync(notesFile), 'refused at the dialog: not written').toBe(false)

    // The run's own skill turn comes next, and its Write needs no key.
    const skill = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'after notes'), 30_000)
    const next = await requestAfter(mock, skill.seq, turn.continuePrompt)
    expectSwapped(next, turn.continuePrompt, [`Handoff file: ${turn.handoffPath}`])
    expect(session.debugLog().slice(mark)).toMatch(LIFTED_RE)
    await mock.close()
  })
})

describe('an Edit makes no handoff the person\'s own', () => {
  const { track } = trackRuns()
  const CLONED = 'plans/handoffs/HANDOFF_cloned_2026-11-30.md'
  const READ_ID = 'toolu_read_cloned'
  const EDIT_ID = 'toolu_edit_cloned'

  it('a cloned handoff Edited once in accept-edits mode (no dialog) is still asked about at /compact-handoff resume', async () => {
    const flow = await startFlow('trust-edit-cloned', track, {
      permissionMode: 'acceptEdits',
      prepare: (run) => {
        mkdirSync(join(run.proj, 'plans', 'handoffs'), { recursive: true })
        writeFileSync(join(run.proj, CLONED), handoffFileText({ slug: 'cloned', date: '2026-11-30', focus: 'cloned' }))
      },
    })
    const { mock, session, run } = flow
    const file = join(run.proj, CLONED)
    mock.script(
      { when: 'ask EDIT-CLONED', toolUses: [{ id: READ_ID, name: 'Read', input: { file_path: file } }] },
      { when: (r) => carriesToolResult(r, READ_ID), toolUses: [{ id: EDIT_ID, name: 'Edit', input: { file_path: file, old_string: '# Handoff: cloned', new_string: '# Handoff: cloned.' } }] },
      { when: (r) => carriesToolResult(r, EDIT_ID), text: 'REPLY-EDIT-CLONED' },
    )
    const mark = session.logMark()
    await session.type('ask EDIT-CLONED')
    await session.waitForScreen(/REPLY-EDIT-CLONED/, 30_000)
    await turnSettled(session, mark)
    expect(readFileSync(file, 'utf8'), 'the Edit ran, with no dialog').toContain('# Handoff: cloned.\n')

    const before = mock.requests.length
    await session.type('/compact-handoff resume')
    await session.waitForScreen(QUESTION_OPEN, 30_000)
    const screen = await session.waitForScreen(/Do not resume/, 15_000)
    expect(screen).toMatch(/not written in your Claude Code/)
    session.pressKeys('Down')
    await session.waitForScreen(/❯ 2\. Do not resume/, 15_000)
    for (let attempt = 0; attempt < 5 && QUESTION_OPEN.test(session.screen()); attempt++) {
      session.pressKeys('Enter')
      await pollUntil('the question to close', 3_000, () => (QUESTION_OPEN.test(session.screen()) ? undefined : true)).catch(() => false)
    }
    await session.waitForToast(/not resumed, nothing was sent: /, { mod: 'compact-handoff', timeoutMs: 20_000 })
    expect(mock.requests.slice(before), 'nothing reached the model as the person').toEqual([])
  })
})
