import { describe, expect, type Engine } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { CWD, world, type World } from '../support/world.js'
import { skillWrite, startTurn, submitPrompt, typeCommand } from '../support/engine-calls.js'
import { handoffText } from '../support/texts.js'
import { LAUNCH_DELAY_MS, startSession, typeAndLaunch } from '../support/flow.js'

// The skill's Write/Edit of its own file during a run's writing phase runs
// with no dialog; every other call keeps the session's own verdict (here the
// default mode's: a write under .claude/ asks).
const ASKS = { claudeFolderVerdict: 'ask' } as const
const OWN = '.claude/handoffs/HANDOFF_parser_2026-11-29.md'

function check($: Engine, tool: 'Write' | 'Edit', relPath: string, agentId?: string) {
  const input = tool === 'Write' ? { file_path: `${CWD}/${relPath}`, content: 'x' } : { file_path: `${CWD}/${relPath}`, old_string: 'a', new_string: 'b' }
  return $.tool.check({ tool, input, tool_use_id: `tu-check-${relPath}`, ...(agentId !== undefined ? { agentId } : {}) })
}

async function writingRun($: Engine, w: World, args = 'finish the parser') {
  await startSession($)
  await typeAndLaunch($, w, 'compact-handoff', args)
}

describe("the skill's own file during a run", () => {
  test('a new handoff file is written with no dialog', async ($, on) => {
    const w = world(on, ASKS)
    await writingRun($, w)
    expect((await check($, 'Write', OWN)).decision).toBe('allow')
    expect(w.seen.checks.map((c) => c.decision), 'the session was asked first, and asked').toEqual(['ask'])
  })

  test('an Edit of a file this run wrote needs no dialog either (a repair)', async ($, on) => {
    const w = world(on, ASKS)
    await writingRun($, w)
    // The Write is checked before it runs, then lands on disk.
    await skillWrite($, OWN, handoffText())
    w.writeFile(OWN, handoffText())
    expect(w.seen.checks.map((c) => c.decision), 'the Write was checked').toEqual(['ask'])
    expect((await check($, 'Edit', OWN)).decision).toBe('allow')
  })
})

describe('every other call keeps the session verdict', () => {
  test('with no run', async ($, on) => {
    world(on, ASKS)
    await startSession($)
    expect((await check($, 'Write', OWN)).decision).toBe('ask')
  })

  test('at another stage: a run stopped for review', async ($, on) => {
    const w = world(on, ASKS)
    await writingRun($, w, 'review finish the parser')
    await typeCommand($, 'compact-handoff', 'cancel')
    expect((await check($, 'Write', OWN)).decision, 'after a cancel').toBe('ask')
    expect(w.seen.checks.length).toBe(1)
  })

  test("a subagent's write", async ($, on) => {
    const w = world(on, ASKS)
    await writingRun($, w)
    expect((await check($, 'Write', OWN, 'agent-1')).decision).toBe('ask')
  })

  test('a path outside the handoff folders', async ($, on) => {
    const w = world(on, ASKS)
    await writingRun($, w)
    expect((await check($, 'Write', '.claude/settings.json')).decision).toBe('ask')
    expect((await check($, 'Write', '.claude/handoffs/notes.md')).decision, 'not a handoff name').toBe('ask')
    expect((await check($, 'Write', '.claude/commands/HANDOFF_x_2026-11-29.md')).decision, 'another folder of .claude').toBe('ask')
  })

  test('an existing file this run did not write', async ($, on) => {
    const w = world(on, ASKS)
    w.writeFile(OWN, handoffText())
    await writingRun($, w)
    expect((await check($, 'Write', OWN)).decision).toBe('ask')
    expect((await check($, 'Edit', OWN)).decision).toBe('ask')
  })

  test('a handoff folder that is a link to somewhere else', async ($, on) => {
    const w = world(on, ASKS)
    w.writeFile('.claude/handoffs', '', { kind: 'dir', realPath: '/home/me/.claude/agents' })
    await writingRun($, w)
    expect((await check($, 'Write', OWN)).decision).toBe('ask')
  })

  test("the session's deny stays a deny, even for the run's own file", async ($, on) => {
    const w = world(on, { claudeFolderVerdict: 'deny' })
    await writingRun($, w)
    expect((await check($, 'Write', OWN)).decision).toBe('deny')
  })
})

describe("only the permission mode's own ask is lifted", () => {
  const WHYS = [
    ["the person's ask rule for the folder", { rule: 'Write(.claude/handoffs/**)' }],
    ["a PreToolUse hook's ask (a secret scanner)", { hook: 'PreToolUse' }],
    ["an option's own check", { setting: 'permissions.blockReadsOutsideWorkingDirectories' }],
  ] as const
  for (const [what, why] of WHYS) {
    test(`${what} stays an ask, for the run's own file too`, async ($, on) => {
      const w = world(on, { ...ASKS, claudeFolderWhy: why })
      await writingRun($, w)
      expect((await check($, 'Write', OWN)).decision).toBe('ask')
    })
  }

  test("another plugin's ask stays an ask", {
    plugins: [
      {
        name: 'secret-guard',
        register(on) {
          on('tool.check', () => ({ decision: 'ask' as const, reason: 'secret-guard: this file may hold a token' }))
        },
      },
    ],
  }, async ($, on) => {
    const w = world(on)
    await writingRun($, w)
    const verdict = await check($, 'Write', OWN)
    expect(verdict.decision).toBe('ask')
    expect(verdict.reason).toBe('secret-guard: this file may hold a token')
  })
})

describe("the unasked write is the skill's turn's alone", () => {
  test("a task notification's turn that runs before the skill's turn keeps the session's ask, and its write is not the run's", async ($, on) => {
    const w = world(on, ASKS)
    await startSession($)
    await typeCommand($, 'compact-handoff', 'finish the parser')
    await w.clock.advance(LAUNCH_DELAY_MS)
    await w.clock.settle()
    expect(w.seen.commandRuns.length, 'the skill was launched; its turn waits for the notification').toBe(1)
    await submitPrompt($, '<task-notification>build finished</task-notification>', 'task-notification')
    await startTurn($, '<task-notification>build finished</task-notification>', 't-notification')
    expect((await check($, 'Write', OWN)).decision, 'a Write in the notification turn').toBe('ask')
    // Written all the same (the person said yes): the run does not take it for its own.
    w.writeFile(OWN, handoffText())
    await skillWrite($, OWN, handoffText())
    const report = (await typeCommand($, 'compact-handoff', 'status')).text ?? ''
    expect(report).not.toContain(OWN)
  })

  test("ends with the skill's turn: the next turn's write keeps the session's ask", async ($, on) => {
    const w = world(on, { ...ASKS, askAnswer: 'dismiss' })
    await writingRun($, w, 'review finish the parser')
    expect((await check($, 'Write', OWN)).decision, "in the skill's turn").toBe('allow')
    await skillWrite($, OWN, handoffText())
    w.writeFile(OWN, handoffText())
    await $.turn.complete({ answer: 'wrote it', durationMs: 1, isAborted: false, turnId: 't-skill', reason: 'answer' })
    await w.clock.settle()
    await startTurn($, 'another prompt', 't-next')
    expect((await check($, 'Edit', OWN)).decision, 'after it ended').toBe('ask')
  })
})
