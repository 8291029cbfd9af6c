// The deferred tools a ToolSearch loaded, named in the stub of every swap and
// fork handoff: their schemas are gone from the next request's tools.
import { describe, expect, type Engine } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { HANDOFF, world } from '../support/world.js'
import { readyAnswer } from '../support/texts.js'
import { skillWritesHandoff, startSession, typeAndLaunch } from '../support/flow.js'
import { compactAuto, REPLY, sessionWithWork } from '../support/fork-support.js'

function toolSearch($: Engine, query: string, agentId?: string) {
  return $.tool.call({ tool: 'ToolSearch', query, ...(agentId !== undefined ? { agentId } : {}) })
}

const NAMED = /Deferred tools loaded earlier in this session with ToolSearch[^\n]*: WebFetch, CronCreate\.\nThey are not loaded now: to call one, load it again first with ToolSearch \(query "select:WebFetch,CronCreate"\)\./

describe('deferred tools loaded with ToolSearch', () => {
  test("are named in a swap's stub with how to load them again; a subagent's are not", async ($, on) => {
    const w = world(on)
    await startSession($)
    await toolSearch($, 'select:WebFetch')
    await toolSearch($, 'select:CronCreate')
    await toolSearch($, 'select:NotebookEdit', 'agent-1')
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w, readyAnswer([HANDOFF], 'Go on.'))
    const stub = w.seen.compactions[0]?.instructions ?? ''
    expect(stub).toMatch(NAMED)
    expect(stub).not.toContain('NotebookEdit')
  })

  test("are named in a fork handoff's stub", { timeoutMs: 30_000 }, async ($, on) => {
    world(on, { forks: [REPLY] })
    await sessionWithWork($)
    await toolSearch($, 'select:WebFetch,CronCreate')
    const result = await compactAuto($)
    expect(result.messages?.[0]?.text).toMatch(NAMED)
  })

  test('none loaded, no line', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w, readyAnswer([HANDOFF], 'Go on.'))
    expect(w.seen.compactions[0]?.instructions ?? '').not.toContain('Deferred tools loaded')
  })
})
