// What still runs when the conversation is replaced, in every stub: a shell
// started in the background is a started command and is named as running
// until a main-loop turn's end no longer lists it; the main loop's running
// subagents are named from the engine's own list; both bounded and masked;
// and the stub names the replaced conversation's transcript file, searched
// with the recall tool.
import { describe, expect } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { CWD, world } from '../support/world.js'
import { TRANSCRIPT_PATH } from '../support/beneath.js'
import { RECALL_TOOL } from '../../hooks/recall/recall.js'
import { runCommand, runInBackground, turnStops, typeCommand } from '../support/engine-calls.js'
import { skillWritesFile, skillWritesHandoff, startSession, typeAndLaunch } from '../support/flow.js'
import { DIR, settle, withHandoffStatus } from '../support/resume-support.js'

/** The kit's clock starts at 1,000,000 ms (world.ts). */
const STARTED = 'started 1970-01-01T00:16:40Z'

function stubOf(w: ReturnType<typeof world>): string {
  return w.seen.compactions[0]?.instructions ?? ''
}

describe('a background shell', () => {
  test('still running at the swap is named as running, and is a started command in the facts, never exit 0', async ($, on) => {
    const w = world(on)
    await startSession($)
    await runInBackground($, 'sleep 45; echo done')
    await runInBackground($, 'sleep 45; echo by-agent', 'agent-1')
    await runCommand($, 'pnpm test')
    await turnStops($, ['b1', 'b2'])
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    const stub = stubOf(w)
    expect(stub).toContain(`- background shell b1, running, ${STARTED}: sleep 45; echo done`)
    expect(stub).toContain('Last commands, newest first:\n- pnpm test  → exit 0\n- sleep 45; echo done  → started in the background as shell b1')
    expect(stub).not.toContain('echo done  → exit')
    // A subagent's shell is the subagent's: it reports to the subagent, not to this conversation.
    expect(stub).not.toContain('by-agent')
  })

  test("that finished is no longer named as running once a turn's end leaves it out, and stays a started command", async ($, on) => {
    const w = world(on)
    await startSession($)
    await runInBackground($, 'sleep 1; echo quick')
    await runInBackground($, 'sleep 90; echo slow')
    await turnStops($, ['b2'])
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    const stub = stubOf(w)
    expect(stub).not.toContain('background shell b1')
    expect(stub).toContain('- background shell b2, running')
    expect(stub).toContain('- sleep 1; echo quick  → started in the background as shell b1')
  })

  test("stays named when a turn's end does not list what is in flight, and none is named once all ended", async ($, on) => {
    const w = world(on)
    await startSession($)
    await runInBackground($, 'sleep 45; echo done')
    await turnStops($, ['b1'])
    await turnStops($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    expect(stubOf(w)).toContain('- background shell b1, running')
    await turnStops($, [])
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    expect(w.seen.compactions[1]?.instructions ?? '').not.toContain('Still running in the background')
  })

  test('is masked before it is kept: the running section and the facts hold the masked command', async ($, on) => {
    const w = world(on)
    await startSession($)
    await runInBackground($, 'export API_TOKEN=abc123secret && sleep 60')
    await turnStops($, ['b1'])
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    const stub = stubOf(w)
    expect(stub).toContain(`- background shell b1, running, ${STARTED}: export API_TOKEN=[REDACTED] && sleep 60`)
    expect(stub).toContain('- export API_TOKEN=[REDACTED] && sleep 60  → started in the background as shell b1')
    expect(stub).not.toContain('abc123secret')
  })

  test('the newest 20 are named, newest first, the section bounded', async ($, on) => {
    const w = world(on)
    await startSession($)
    for (let i = 1; i <= 25; i++) await runInBackground($, `sleep ${i}00; echo ${'w'.repeat(150)} ${i}`)
    await turnStops($, Array.from({ length: 25 }, (_, i) => `b${i + 1}`))
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    const stub = stubOf(w)
    expect(stub).toContain('- background shell b25, running')
    expect(stub).not.toContain('background shell b5,')
    // The ids the bound leaves out are named: the next context can still wait on or stop them.
    const mark = '- and 11 more still running, not shown: shell b16, shell b15, shell b14, shell b13, shell b12, shell b11, shell b10, shell b9, shell b8, shell b7, shell b6'
    expect(stub).toContain(mark)
    const section = stub.slice(stub.indexOf('Still running'), stub.indexOf(mark))
    expect(section.length).toBeLessThan(2_500)
    expect(stub, 'the facts count the commands past their own bound, and name the shells they leave out for room').toMatch(/- and 7 older commands not shown, 7 started in the background: sleep 700; [^\n]* → started in the background as shell b7; sleep 600; [^\n]* as shell b6; and 5 more\n/)
  })
})

describe('a running subagent', () => {
  test("of the main loop is named from the engine's list, its task masked; ended, nested and plugin ones are not", async ($, on) => {
    const w = world(on, {
      agents: [
        { id: 'ag-run', description: 'Check deploy with Authorization: Bearer sk-live-999', type: 'Explore', status: 'running', startTime: 1_000_000 },
        { id: 'ag-done', description: 'finished work', type: 'Explore', status: 'completed', startTime: 1_000_000 },
        { id: 'ag-child', description: 'nested work', type: 'Explore', status: 'running', startTime: 1_000_000, parentId: 'ag-run' },
      ],
    })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    const stub = stubOf(w)
    expect(stub).toContain(`- subagent ag-run (Explore), running, ${STARTED}: Check deploy with Authorization: Bearer [REDACTED]`)
    expect(stub).not.toContain('sk-live-999')
    expect(stub).not.toContain('ag-done')
    expect(stub).not.toContain('ag-child')
  })
})

describe('the earlier conversation', () => {
  test("the stub names the replaced conversation's transcript file and how to search it: the recall tool, never the file whole", async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    const line = stubOf(w).split('\n').find((l) => l.includes(TRANSCRIPT_PATH)) ?? ''
    expect(line).toMatch(/detail the handoff lacks/)
    expect(line).toContain(`call the tool ${RECALL_TOOL} with a word you expect`)
    expect(line).toContain(`the whole conversation is kept in ${TRANSCRIPT_PATH}; never read or grep that file whole`)
  })
})

describe('the resume prompt', () => {
  test('names what this session still runs in the background', async ($, on) => {
    const w = world(on)
    await startSession($)
    await runInBackground($, 'pnpm dev --port 5173')
    await turnStops($, ['b1'])
    await skillWritesFile($, w, `${DIR}/HANDOFF_open_2026-11-30.md`, withHandoffStatus('in-progress'))
    await typeCommand($, 'compact-handoff', 'resume')
    await settle(w)
    const prompt = w.seen.submits.find((s) => s.asUser)?.text ?? ''
    expect(prompt).toContain('Resume the work from the handoff')
    expect(prompt).toContain(`- background shell b1, running, ${STARTED}: pnpm dev --port 5173`)
    expect(CWD).toBe('/srv/app')
  })
})
