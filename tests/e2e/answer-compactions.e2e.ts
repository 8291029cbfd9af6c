/**
 * Issues 9 and 10 in a real session, model scripted: compactions that are not
 * compact-handoff's own go on to the engine's summariser (a /compact under the
 * default option compactionHandoff), and compact-handoff adds to its instructions.
 * - A person's `/compact <words>`: the summariser request carries their words first,
 *   then what compact-handoff recorded (their messages, the facts of the Read and the
 *   Bash the model ran before), then the handoff's section outline.
 * - compact-handoff's option askAfterCompaction: the first tool call after a /compact asks the person,
 *   in the engine's own question dialog, whether Claude may carry on; "stop and wait"
 *   or Escape refuses it (the command never runs), "continue" lets it run, and it asks
 *   once per compaction.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { carriesToolResult, toolResultOf } from '../harness/request-messages.js'
import { startMockApi, type MockRequest } from '../harness/mock-api.js'
import { pollUntil } from '../harness/poll.js'
import { createRunDir } from '../harness/run-dir.js'
import { startSession } from '../harness/tmux-session.js'
import { OUTLINE } from '../../packages/compact-handoff/hooks/compaction/summary-instructions.js'
import { trackRuns } from './lifecycle.js'
import { ANSWER_MOD, HANDOFF_MOD, PLUGIN_DIRS, startFlow, type Flow } from './flow-support.js'
import type { Session } from '../harness/tmux-session.js'

let toolSeq = 0

/** A hook of `mod` on `event` settled after `since`. The debug log names every
 * module whose hooks ran in one dispatch on one line ("hooks module a@inline,
 * b@inline turn.complete settled"), so the mod is looked for anywhere in it. */
async function settled(session: Session, mod: 'compact-handoff' | 'compact-handoff-answer', event: 'turn.complete' | 'session.compact', since: number): Promise<void> {
  const re = new RegExp(`hooks module [^\\n]*\\b${mod}@inline\\b[^\\n]* ${event.replace('.', '\\.')} settled`)
  await session.waitForDebugLog(re, { since, timeoutMs: 30_000 })
}

/** Types `ask <tag>`, answered `REPLY-<tag>`; waits for the answer and compact-handoff's turn end. */
async function ordinaryTurn(flow: Flow, tag: string): Promise<void> {
  const { mock, session } = flow
  mock.script({ when: `ask ${tag}`, text: `REPLY-${tag}` })
  await session.type(`ask ${tag}`)
  await mock.waitForRequest((r) => r.lastUserText.includes(`ask ${tag}`), 30_000)
  const mark = session.logMark()
  await session.waitForScreen(new RegExp(`REPLY-${tag}`), 30_000)
  await settled(session, 'compact-handoff', 'turn.complete', mark)
}

/** One typed turn in which the model runs `tools` one after another (each reply
 * answers the previous tool's result) and then answers `reply`. Returns the ids. */
function scriptToolTurn(flow: Flow, typed: string, tools: { name: string; input: Record<string, unknown> }[], reply: string): string[] {
  const ids = tools.map((t) => `toolu_answer_${t.name.toLowerCase()}_${++toolSeq}`)
  flow.mock.script(
    ...tools.map((tool, i) => ({
      when: i === 0 ? typed : (r: MockRequest) => carriesToolResult(r, ids[i - 1]!),
      toolUses: [{ id: ids[i]!, name: tool.name, input: tool.input }],
    })),
    { when: (r: MockRequest) => carriesToolResult(r, ids.at(-1)!), text: reply },
  )
  return ids
}

/** The tool_result block for `id` in the request that carries it. */
function toolResultIn(request: MockRequest, id: string): { content: string; isError: boolean } {
  const block = toolResultOf(request, id)
  expect(block, `request ${request.seq} carries the result of ${id}`).toBeDefined()
  const content = typeof block!.content === 'string' ? block!.content : JSON.stringify(block!.content)
  return { content, isError: block!.is_error === true }
}

/** The footer of the engine's question dialog, drawn while it waits for an answer. */
const DIALOG_OPEN = /Enter to select · ↑\/↓ to navigate/

/** Picks option `n` of the question on screen: moves the highlight there, then
 * presses Enter until the dialog is gone (on a loaded machine a key can land
 * before the dialog takes input, and is lost). */
async function choose(session: Session, n: 1 | 2): Promise<void> {
  for (let i = 1; i < n; i++) session.pressKeys('Down')
  await session.waitForScreen(new RegExp(`❯ ${n}\\. `), 15_000)
  for (let attempt = 0; attempt < 5; attempt++) {
    session.pressKeys('Enter')
    const gone = await pollUntil('the question to close', 3_000, () => (DIALOG_OPEN.test(session.screen()) ? undefined : true)).catch(() => false)
    if (gone) return
  }
  throw new Error(`the question did not close:\n${session.screen()}`)
}

/** `/compact <words>` through to the end of this mod's session.compact hook; returns the summariser request. */
async function compact(flow: Flow, words: string): Promise<MockRequest> {
  const { mock, session } = flow
  const before = mock.requests.length
  const mark = session.logMark()
  await session.type(words === '' ? '/compact' : `/compact ${words}`)
  const summary = await mock.waitForRequest((r) => r.seq > before && r.kind === 'summary', 30_000)
  await settled(session, 'compact-handoff-answer', 'session.compact', mark)
  return summary
}

/** The tool call `id` was refused: the model reads why and is told to wait, and the
 * command, which would have made `marker`, never ran. */
async function expectRefused(flow: Flow, id: string, why: string, marker: string): Promise<void> {
  const after = await flow.mock.waitForRequest((r) => carriesToolResult(r, id), 30_000)
  const result = toolResultIn(after, id)
  expect(result.isError).toBe(true)
  expect(result.content).toContain(why)
  expect(result.content).toContain('Do not run this or any other tool now.')
  expect(existsSync(join(flow.run.proj, marker)), 'the command never ran').toBe(false)
}

describe("a person's /compact with their own words", () => {
  const { track } = trackRuns()
  let flow: Flow

  beforeAll(async () => {
    flow = await startFlow('answer-compactions', track)
  })

  it('asks the summariser for their words first, then the recorded facts of a Read and a Bash, then the outline', async () => {
    const { mock, session, run } = flow
    const t0 = Date.now()
    writeFileSync(join(run.proj, 'notes.txt'), 'The benchmark numbers live in bench/results.md.\n')
    const typed = 'ask FACTS-ONE: read the notes, then check the tree'
    scriptToolTurn(
      flow,
      typed,
      [
        { name: 'Read', input: { file_path: join(run.proj, 'notes.txt') } },
        { name: 'Bash', input: { command: 'echo facts-probe', description: 'Print a marker' } },
      ],
      'REPLY-FACTS-ONE',
    )
    await session.type(typed)
    const mark = session.logMark()
    await session.waitForScreen(/REPLY-FACTS-ONE/, 30_000)
    await settled(session, 'compact-handoff', 'turn.complete', mark)

    const summary = await compact(flow, 'keep the benchmarks')
    console.log(`e2e answer-compactions: /compact with words ${Date.now() - t0} ms`)
    const asked = summary.lastUserText
    const facts = [
      'What this session did, recorded by code from its tool calls (facts, not notes):',
      'Files read: notes.txt',
      'Last commands, newest first:',
      '- echo facts-probe  → exit 0',
    ].join('\n')
    const parts = ['keep the benchmarks\n\ncompact-handoff adds, so the summary keeps them:', `[user message 1]\n${typed}`, facts, OUTLINE]
    const at = parts.map((part) => asked.indexOf(part))
    expect(at, `each part is in the summariser's request:\n${asked}`).not.toContain(-1)
    expect(at, "the person's words, their messages, the facts, then the outline").toEqual([...at].sort((a, b) => a - b))
    expect(asked.indexOf('keep the benchmarks'), 'the person leads').toBe(asked.indexOf(parts[0]!))
    expect(mock.requests.filter((r) => r.kind === 'summary'), 'one summariser request').toHaveLength(1)
  })
})

describe('option askAfterCompaction on', () => {
  const { track } = trackRuns()
  let flow: Flow

  beforeAll(async () => {
    const run = createRunDir('answer-ask')
    track(run)
    // Options of a --plugin-dir mod are read from the user's settings under `<name>@inline`.
    const settingsPath = join(run.home, '.claude', 'settings.json')
    const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as Record<string, unknown>
    settings.pluginConfigs = { [HANDOFF_MOD]: { options: { askAfterCompaction: true } } }
    writeFileSync(settingsPath, JSON.stringify(settings, null, 2))
    const mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl') })
    const session = await startSession({ run, plugins: [PLUGIN_DIRS.handoff, PLUGIN_DIRS.answer, PLUGIN_DIRS.skills], mock })
    track(run, session)
    await session.waitForReady({ mods: [HANDOFF_MOD, ANSWER_MOD] })
    flow = { run, mock, session }
  })

  afterAll(async () => {
    await flow?.mock.close()
  })

  /** Types `typed`, whose scripted turn runs one Bash `command`, and waits for the question. */
  async function toolTurnAsked(typed: string, command: string, reply: string): Promise<{ id: string; mark: number }> {
    const { session } = flow
    const [id] = scriptToolTurn(flow, typed, [{ name: 'Bash', input: { command, description: 'Touch a marker file' } }], reply)
    const mark = session.logMark()
    await session.type(typed)
    await session.waitForScreen(/May it carry on from what replaced it\?/, 30_000)
    return { id: id!, mark }
  }

  it('"stop and wait" refuses the first tool call after a /compact, telling the model to wait', async () => {
    const { session } = flow
    const t0 = Date.now()
    await ordinaryTurn(flow, 'ASK-ONE')
    await compact(flow, '')
    const { id, mark } = await toolTurnAsked('ask ASK-STOP', 'touch stopped-ran', 'REPLY-ASK-STOP')
    console.log(`e2e answer-compactions: question on screen ${Date.now() - t0} ms`)
    await choose(session, 2)
    await expectRefused(flow, id, 'The person chose "stop and wait"', 'stopped-ran')
    await session.waitForScreen(/REPLY-ASK-STOP/, 30_000)
    await settled(session, 'compact-handoff', 'turn.complete', mark)
  })

  it('"continue" lets it run, and the next tool call does not ask again', async () => {
    const { mock, session, run } = flow
    await compact(flow, 'keep going')
    const { id, mark } = await toolTurnAsked('ask ASK-GO', 'touch continued-ran', 'REPLY-ASK-GO')
    await choose(session, 1)
    const after = await mock.waitForRequest((r) => carriesToolResult(r, id), 30_000)
    expect(toolResultIn(after, id).isError, 'the command ran').toBe(false)
    expect(existsSync(join(run.proj, 'continued-ran'))).toBe(true)
    await session.waitForScreen(/REPLY-ASK-GO/, 30_000)
    await settled(session, 'compact-handoff', 'turn.complete', mark)

    const [again] = scriptToolTurn(flow, 'ask ASK-AGAIN', [{ name: 'Bash', input: { command: 'touch again-ran', description: 'Touch a marker file' } }], 'REPLY-ASK-AGAIN')
    const mark2 = session.logMark()
    await session.type('ask ASK-AGAIN')
    const next = await mock.waitForRequest((r) => carriesToolResult(r, again!), 30_000)
    expect(toolResultIn(next, again!).isError).toBe(false)
    expect(existsSync(join(run.proj, 'again-ran'))).toBe(true)
    await session.waitForScreen(/REPLY-ASK-AGAIN/, 30_000)
    await settled(session, 'compact-handoff', 'turn.complete', mark2)
    expect(session.debugLog().slice(mark2), 'no question this time').not.toMatch(/AskUserQuestion/)
  })

  it('a question dismissed with Escape refuses the call as "stop and wait" does', async () => {
    const { session } = flow
    await compact(flow, '')
    const { id, mark } = await toolTurnAsked('ask ASK-DISMISS', 'touch dismissed-ran', 'REPLY-ASK-DISMISS')
    session.pressKeys('Escape')
    await expectRefused(flow, id, 'The person dismissed the question', 'dismissed-ran')
    await session.waitForScreen(/REPLY-ASK-DISMISS/, 30_000)
    await settled(session, 'compact-handoff', 'turn.complete', mark)
  })
})
