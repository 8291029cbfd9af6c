/**
 * What still runs, in a real session: a `Bash` call with `run_in_background: true` gets its
 * tool result at once while the command keeps running, so the stub of a `/compact-handoff`
 * right after names it as a running background shell (its id, its command, when it started)
 * and the facts as a started command, never `→ exit 0`. The stub also names the replaced
 * conversation's transcript file, which is on disk. The engine's `classic.Stop` (the end of a
 * main-loop turn, where the mod learns which shells are still in flight) reaches the mod.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { isSkillTurnFor, skillTurn } from '../harness/handoff-script.js'
import { carriesToolResult, toolResultOf, userBlocks } from '../harness/request-messages.js'
import { STUB_OPENING } from '../../packages/compact-handoff/hooks/stub/swap-text.js'
import { trackRuns } from './lifecycle.js'
import { HANDOFF_MOD, requestAfter, startFlow, type Flow } from './flow-support.js'

/** Long enough to outlast the test, so it is surely running at the swap. */
const BACKGROUND_COMMAND = 'sleep 300; echo done'

describe('a background shell started before a swap is named as running in the stub', () => {
  const { track } = trackRuns()
  let flow: Flow

  beforeAll(async () => {
    flow = await startFlow('running', track)
  })

  it('the stub names the shell as running and the transcript file; the facts call it started, not exit 0', async () => {
    const { mock, session, run } = flow
    const id = 'toolu_bg_1'
    mock.script(
      { when: 'ask RUN-BG', toolUses: [{ id, name: 'Bash', input: { command: BACKGROUND_COMMAND, description: 'wait, then say done', run_in_background: true } }] },
      { when: (r) => carriesToolResult(r, id), text: 'REPLY-RUN-BG' },
    )
    const mark = session.logMark()
    await session.type('ask RUN-BG')
    const result = await mock.waitForRequest((r) => carriesToolResult(r, id), 30_000)
    // The engine answered at once: the command runs on in the background.
    expect(JSON.stringify(toolResultOf(result, id))).toMatch(/background/i)
    await session.waitForScreen(/REPLY-RUN-BG/, 30_000)
    // The end of the main-loop turn reaches the mod: there it learns which shells still run.
    await session.waitForHookSettled(HANDOFF_MOD, 'classic.Stop', { since: mark, timeoutMs: 20_000 })

    const turn = skillTurn({ proj: run.proj, doc: { slug: 'running-run', date: '2026-11-30', focus: 'running' } })
    mock.script(...turn.replies)
    const before = mock.requests.length
    await session.type('/compact-handoff running')
    const skill = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'running'), 30_000)
    const next = await requestAfter(mock, skill.seq, turn.continuePrompt)
    const stub = userBlocks(next).find((b) => b.startsWith(STUB_OPENING)) ?? ''

    const running = /^- background shell (\S+), running, started \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: (.*)$/m.exec(stub)
    expect(running, `a running background shell in the stub:\n${stub}`).not.toBeNull()
    expect(running?.[2]).toBe(BACKGROUND_COMMAND)
    expect(stub).toContain(`- ${BACKGROUND_COMMAND}  → started in the background as shell ${running?.[1]}`)
    expect(stub).not.toContain(`${BACKGROUND_COMMAND}  → exit`)

    const transcript = /call the tool mcp__compact-handoff__recall .*\(the whole conversation is kept in (.+\.jsonl); never read or grep that file whole\)/.exec(stub)?.[1]
    expect(transcript, `the transcript line in the stub:\n${stub}`).toBeDefined()
    expect(transcript?.startsWith(join(run.home, '.claude', 'projects'))).toBe(true)
    expect(existsSync(transcript ?? '')).toBe(true)
  })
})
