// A git worktree the session entered, named in the stub of every swap and fork
// handoff: the engine's /compact names it as the working folder at once, a
// swap's first request named only its branch.
import { describe, expect, type Engine } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { HANDOFF, world } from '../support/world.js'
import { WORKTREES_FOLDER } from '../support/beneath.js'
import { readyAnswer } from '../support/texts.js'
import { skillWritesHandoff, startSession, typeAndLaunch } from '../support/flow.js'
import { compactAuto, REPLY, sessionWithWork } from '../support/fork-support.js'

const WORKTREE_LINE = `The session is working in the git worktree ${WORKTREES_FOLDER}/parser-work (branch worktree-parser-work)`

function enterWorktree($: Engine, name: string, agentId?: string) {
  return $.tool.call({ tool: 'EnterWorktree', name, ...(agentId !== undefined ? { agentId } : {}) })
}

async function swapStub($: Engine, w: ReturnType<typeof world>): Promise<string> {
  const before = w.seen.compactions.length
  await typeAndLaunch($, w, 'compact-handoff', '')
  await skillWritesHandoff($, w, readyAnswer([HANDOFF], 'Go on.'))
  return w.seen.compactions[before]?.instructions ?? ''
}

describe('a worktree the session entered', () => {
  test("is named in a swap's stub with its branch", async ($, on) => {
    const w = world(on)
    await startSession($)
    await enterWorktree($, 'parser-work')
    expect(await swapStub($, w)).toContain(WORKTREE_LINE)
  })

  test("is named in a fork handoff's stub", { timeoutMs: 30_000 }, async ($, on) => {
    world(on, { forks: [REPLY] })
    await sessionWithWork($)
    await enterWorktree($, 'parser-work')
    const result = await compactAuto($)
    expect(result.messages?.[0]?.text).toContain(WORKTREE_LINE)
  })

  test("is no longer named once ExitWorktree left it, and a subagent's never is", async ($, on) => {
    const w = world(on)
    await startSession($)
    await enterWorktree($, 'sub-work', 'agent-1')
    await enterWorktree($, 'parser-work')
    await $.tool.call({ tool: 'ExitWorktree', action: 'keep' })
    const stub = await swapStub($, w)
    expect(stub).not.toContain('git worktree')
    expect(stub).not.toContain('sub-work')
  })
})
