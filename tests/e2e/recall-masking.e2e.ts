/**
 * Issue 39 in a real session, model scripted, masked by the engine's own `$.session.redact`:
 * earlier commands printed a private key whose END line lies past the window's margin, a
 * bearer token in `curl -v` output whose header does, and ran a command whose URL password
 * sits where the call's line is cut at 200 characters; beside them, four that held before (a
 * short token, a JSON key, an escaped service-account key, a `.env` PEM). After a swap the
 * model recalls each: nothing of any credential comes back, and each window is a part of what
 * the engine's redact makes of the whole output (a probe mod asks it, in the same session),
 * each call's line the head of what it makes of the whole call. The probe's own `$.tool.call`
 * of recall, another plugin's, is refused in words (`next.origin` as the engine gives it), and
 * so is a subagent's call.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isSkillTurnFor, skillTurn } from '../harness/handoff-script.js'
import { startMockApi, type MockApi, type MockRequest } from '../harness/mock-api.js'
import { carriesToolResult, toolResultOf } from '../harness/request-messages.js'
import { createRunDir, type RunDir } from '../harness/run-dir.js'
import { writeMod } from '../harness/staging.js'
import { startSession, type Session } from '../harness/tmux-session.js'
import { pollUntil } from '../harness/poll.js'
import { RECALL_TOOL } from '../../packages/compact-handoff/hooks/recall/recall.js'
import { CUT_CASES, HELD_CASES, holdsPieceOf, type MaskingCase } from '../../packages/compact-handoff/tests/support/credentials.js'
import { trackRuns } from './lifecycle.js'
import { ANSWER_MOD, HANDOFF_MOD, PLUGIN_DIRS, toolTurn, turnSettled } from './flow-support.js'

const CASES: readonly MaskingCase[] = [...CUT_CASES, ...HELD_CASES]
/** The file each case's `cat` prints: the case's output as written. */
const FILES = new Map(CASES.filter((c) => c.command.startsWith('cat ')).map((c) => [c.command.slice(4), c.output]))

/**
 * The probe: `/redact-probe` masks each file and each call line whole with the engine's redact
 * and writes what it got; `/recall-probe` calls recall as another plugin and writes its answer.
 */
const PROBE_REGISTER = `
import type { EngineInterface, Register } from 'claude-code'

type $ = EngineInterface

async function redactAll($: $): Promise<string> {
  const cwd = await $.session.cwd()
  const asked = JSON.parse(String(await $.fs.read(cwd + '/probe-in.json', { as: 'text' }))) as string[]
  const masked: string[] = []
  for (const text of asked) masked.push(await $.session.redact(text))
  await $.fs.write(cwd + '/probe-out.json', JSON.stringify(masked))
  return 'masked ' + masked.length
}

async function recallAsPlugin($: $): Promise<string> {
  const cwd = await $.session.cwd()
  const answer = await $.tool.call({ tool: '${RECALL_TOOL}', query: 'E_KEYDUMP_41' }).catch((error: unknown) => ({ error: String(error) }))
  await $.fs.write(cwd + '/probe-recall.json', JSON.stringify(answer))
  return 'recalled'
}

export const register: Register = (on) => {
  on('session.start', async ($, e, next) => {
    const started = await next(e)
    await $.command.register({ name: 'redact-probe', description: 'e2e: mask texts whole' })
    await $.command.register({ name: 'recall-probe', description: 'e2e: call recall as a plugin' })
    return started
  })
  on('command.run', { command: 'redact-probe' }, async ($) => ({ text: await redactAll($) }))
  on('command.run', { command: 'recall-probe' }, async ($) => ({ text: await recallAsPlugin($) }))
}
`

function resultText(request: MockRequest, id: string): string {
  const content = toolResultOf(request, id)?.content
  if (typeof content === 'string') return content
  return Array.isArray(content) ? content.map((b: { text?: string }) => b.text ?? '').join('\n') : ''
}

/** The window an answer's first entry shows, between its fences. */
function firstWindowOf(answer: string): string {
  const fenced = /^\[1\] [^\n]*:\n(`{3,})\n([\s\S]*?)\n\1$/m.exec(answer)
  return fenced?.[2] ?? `no window in: ${answer}`
}

/** The first entry's name line, without the call's status. */
function callLineShownOf(answer: string): string {
  return /^\[1\] Tool result of (.*?) {2}→ /m.exec(answer)?.[1] ?? `no call line in: ${answer}`
}

describe('recall masks each entry whole before it cuts, with the engine\'s own redact', () => {
  const { track } = trackRuns()
  let run: RunDir
  let mock: MockApi
  let session: Session
  /** The answer to each case's recall, by word. */
  const answers = new Map<string, string>()
  /** The engine's redact of each case's whole output and whole call line. */
  const wholeMasked = new Map<string, { output: string; line: string }>()

  beforeAll(async () => {
    run = createRunDir('recall-masking')
    track(run)
    for (const [file, text] of FILES) writeFileSync(join(run.proj, file), text)
    mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl') })
    const probe = writeMod(run, 'probe', { 'hooks/register.ts': PROBE_REGISTER })
    session = await startSession({ run, plugins: [PLUGIN_DIRS.handoff, PLUGIN_DIRS.answer, PLUGIN_DIRS.skills, probe], mock })
    track(run, session)
    await session.waitForReady({ mods: [HANDOFF_MOD, ANSWER_MOD, 'probe@inline'] })

    // The earlier work: every case's command, in one turn, before any replacement.
    mock.script(...toolTurn('ask MASK-EARLIER', CASES.map((c) => ({ name: 'Bash', input: { command: c.command, description: 'show it' } })), 'REPLY-MASK-EARLIER'))
    await session.type('ask MASK-EARLIER')
    await mock.waitForRequest((r) => r.lastUserText.includes('ask MASK-EARLIER'), 30_000)
    const mark = session.logMark()
    await session.waitForScreen(/REPLY-MASK-EARLIER/, 60_000)
    await turnSettled(session, mark)

    // The swap, then the next context recalls each case by its word.
    const turn = skillTurn({ proj: run.proj, doc: { slug: 'recall-masking', date: '2026-12-02', focus: 'masking' } })
    const recalls = toolTurn(turn.continuePrompt, CASES.map((c) => ({ name: RECALL_TOOL, input: { query: c.word } })), 'REPLY-MASK-RECALLED')
    const ids = recalls.slice(0, CASES.length).map((r) => r.toolUses![0]!.id!)
    mock.script(...turn.replies, ...recalls)
    const since = mock.requests.length
    await session.type('/compact-handoff masking')
    await mock.waitForRequest((r) => r.seq > since && isSkillTurnFor(r.lastUserText, 'masking'), 30_000)
    for (const [i, c] of CASES.entries()) {
      const carrying = await mock.waitForRequest((r) => r.seq > since && carriesToolResult(r, ids[i]!), 60_000)
      answers.set(c.word, resultText(carrying, ids[i]!))
    }
    await session.waitForScreen(/REPLY-MASK-RECALLED/, 30_000)

    // What the engine's redact makes of each whole output and whole call line.
    const asked = CASES.flatMap((c) => [c.output, `Bash: ${c.command}`])
    writeFileSync(join(run.proj, 'probe-in.json'), JSON.stringify(asked))
    await session.type('/redact-probe')
    const masked = await pollUntil('the probe masked the texts', 30_000, () => {
      try {
        return JSON.parse(readFileSync(join(run.proj, 'probe-out.json'), 'utf8')) as string[]
      } catch {
        return undefined
      }
    })
    for (const [i, c] of CASES.entries()) wholeMasked.set(c.word, { output: masked[2 * i]!, line: masked[2 * i + 1]! })
  })

  afterAll(async () => {
    await mock?.close()
  })

  for (const c of CASES) {
    it(`${c.name}: nothing of it comes back, the window and the call's line cut from the engine's masking of the whole`, () => {
      const answer = answers.get(c.word) ?? ''
      const whole = wholeMasked.get(c.word)!
      console.log(`e2e recall-masking, ${c.name}:\n${answer.slice(0, 600)}…`)
      for (const secret of c.secrets) expect(holdsPieceOf(answer, secret), `a piece of ${secret.slice(0, 12)}… came back`).toBe(false)
      const window = firstWindowOf(answer)
      expect(window).toContain(c.word)
      // The engine kept a cat's output as the file holds it; the call's output alone is checked against the file.
      if (c.command.startsWith('cat ')) expect(whole.output, "the window is a part of the engine's masking of the whole output").toContain(window)
      const shown = callLineShownOf(answer)
      const head = shown.endsWith('…') ? shown.slice(0, -1) : shown
      expect(whole.line.startsWith(head), `the call's line is the head of the engine's masking of the whole line:\n${shown}\n${whole.line}`).toBe(true)
    })
  }

  it("another plugin's call is refused in words, and the transcript is not searched for it", async () => {
    await session.type('/recall-probe')
    const answer = await pollUntil('the probe called recall', 30_000, () => {
      try {
        return readFileSync(join(run.proj, 'probe-recall.json'), 'utf8')
      } catch {
        return undefined
      }
    })
    console.log(`e2e recall-masking: the probe's call was answered ${answer}`)
    expect(answer).toMatch(/recall searched nothing: it answers only the model's own calls in the main conversation, and this call was raised by probe/)
    expect(answer).not.toContain('E_KEYDUMP_41 dumping')
  })

  it("a subagent's call is refused in words", async () => {
    const ask = 'SUBAGENT-RECALL-ASK: find the deploy key error'
    const agentId = 'toolu_agent_recall'
    const subRecallId = 'toolu_sub_recall'
    mock.script(
      { when: 'ask MASK-SUB', toolUses: [{ id: agentId, name: 'Agent', input: { description: 'look it up', prompt: ask, subagent_type: 'general-purpose' } }] },
      { when: ask, toolUses: [{ id: subRecallId, name: RECALL_TOOL, input: { query: 'E_KEYDUMP_41' } }] },
      { when: (r: MockRequest) => carriesToolResult(r, subRecallId), text: 'SUB-DONE' },
      { when: (r: MockRequest) => carriesToolResult(r, agentId), text: 'REPLY-MASK-SUB' },
    )
    const since = mock.requests.length
    await session.type('ask MASK-SUB')
    const carrying = await mock.waitForRequest((r) => r.seq > since && carriesToolResult(r, subRecallId), 60_000)
    const answer = resultText(carrying, subRecallId)
    console.log(`e2e recall-masking: the subagent's call was answered ${answer}`)
    expect(answer).toMatch(/recall searched nothing: it answers only the main conversation/)
    expect(answer).not.toContain('E_KEYDUMP_41 dumping')
    await session.waitForScreen(/REPLY-MASK-SUB/, 30_000)
  })
})
