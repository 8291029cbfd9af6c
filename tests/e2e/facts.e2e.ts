/**
 * The work's facts recorded by code, in a real session: a conversation that reads,
 * writes and runs commands (one failing), then `/compact-handoff`. The first request
 * after the swap names the changed file and the commands with their exit status; the
 * next context then re-reads a file and repeats a command, and the swap log's follow-up
 * line lists exactly those. `/clear` starts the facts over.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { isSkillTurnFor, skillTurn } from '../harness/handoff-script.js'
import { userBlocks } from '../harness/request-messages.js'
import { trackRuns } from './lifecycle.js'
import { ordinaryTurn, pollUntil, requestAfter, startFlow, type Flow, logEntries, toolTurn } from './flow-support.js'

describe("the work's facts survive the swap, and the meter counts what is re-done", () => {
  const { track } = trackRuns()
  let flow: Flow

  beforeAll(async () => {
    flow = await startFlow('facts', track)
    mkdirSync(join(flow.run.proj, 'src'), { recursive: true })
    writeFileSync(join(flow.run.proj, 'src', 'notes.txt'), 'the parser keeps positions\n')
  })

  it('the first request after the swap names the changed file and the commands with their exit status', async () => {
    const { proj } = flow.run
    flow.mock.script(
      ...toolTurn(
        'ask EV-WORK',
        [
          { name: 'Read', input: { file_path: join(proj, 'src', 'notes.txt') } },
          { name: 'Write', input: { file_path: join(proj, 'src', 'parser.ts'), content: 'export const parse = () => 1\n' } },
          { name: 'Bash', input: { command: 'echo built', description: 'build' } },
          { name: 'Bash', input: { command: "sh -c 'exit 3'", description: 'a failing check' } },
        ],
        'REPLY-EV-WORK',
      ),
    )
    await flow.session.type('ask EV-WORK')
    await flow.session.waitForScreen(/REPLY-EV-WORK/, 30_000)

    // The handoff's Files section names only src/notes.txt (handoff-script.ts builds it from
    // `files`), so the facts must call src/parser.ts "not in the handoff" below.
    const turn = skillTurn({ proj, doc: { slug: 'facts-run', date: '2026-11-30', focus: 'facts', files: ['src/notes.txt'] } })
    // The next context: reads the handoff, re-reads notes.txt, repeats the build, runs something new.
    const after = toolTurn(
      turn.continuePrompt,
      [
        { name: 'Read', input: { file_path: turn.handoffFile } },
        { name: 'Read', input: { file_path: join(proj, 'src', 'notes.txt') } },
        { name: 'Bash', input: { command: 'echo built', description: 'build again' } },
        { name: 'Bash', input: { command: 'echo fresh', description: 'new' } },
      ],
      'REPLY-AFTER',
    )
    flow.mock.script(...turn.replies, ...after)
    const before = flow.mock.requests.length
    await flow.session.type('/compact-handoff facts')
    const skill = await flow.mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'facts'), 30_000)
    const next = await requestAfter(flow.mock, skill.seq, turn.continuePrompt)
    const stub = userBlocks(next).find((b) => b.includes('recorded by code from its tool calls')) ?? ''
    expect(stub).toContain('Files changed: src/parser.ts')
    expect(stub).toContain('Changed this session, not in the handoff: src/parser.ts')
    expect(stub).toContain('Files read: src/notes.txt')
    expect(stub).toMatch(/Last commands, newest first:\n- sh -c 'exit 3' {2}→ exit 3\n- echo built {2}→ exit 0/)
    await flow.session.waitForScreen(/REPLY-AFTER/, 30_000)
  })

  it("the follow-up line lists exactly the file read again and the command run again", async () => {
    await flow.session.type('/compact-handoff status')
    await flow.session.waitForScreen(/1 file re-read, 1 command re-run/, 30_000)
    const entry = await pollUntil('the follow-up line', 10_000, () => logEntries(flow).find((e) => e.outcome === 'meter'))
    expect(entry).toMatchObject({ reReads: ['src/notes.txt'], repeatedCommands: ['echo built'], files: [expect.stringMatching(/HANDOFF_facts-run_2026-11-30\.md$/)] })
  })

  it('/clear starts the facts over: the next stub carries none from before', async () => {
    await flow.session.type('/clear')
    await flow.session.waitForScreen(/❯/, 10_000)
    await ordinaryTurn(flow, 'EV-AFTER-CLEAR')
    const { proj } = flow.run
    const turn = skillTurn({ proj, doc: { slug: 'after-clear', date: '2026-11-30', focus: 'after clear' } })
    flow.mock.script(...turn.replies)
    const before = flow.mock.requests.length
    await flow.session.type('/compact-handoff after clear')
    const skill = await flow.mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'after clear'), 30_000)
    const next = await requestAfter(flow.mock, skill.seq, turn.continuePrompt)
    const all = userBlocks(next).join('\n')
    expect(all).not.toContain('src/notes.txt')
    expect(all).not.toContain('echo built')
  })
})
