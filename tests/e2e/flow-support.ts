/**
 * Shared steps of the compact-handoff flow suites (flow*.e2e.ts): a session with the
 * plugins loaded from the working tree, ordinary scripted turns, and readers over the
 * mock's request log.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import { STUB_OPENING } from '../../packages/compact-handoff/hooks/stub/swap-text.js'
import { startMockApi, type MockApi, type MockRequest, type ScriptedReply, type ScriptedToolUse } from '../harness/mock-api.js'
import { pollUntil } from '../harness/poll.js'
import { swapLogEntriesOf } from '../harness/swap-logs.js'
import { repoRoot } from '../harness/repo-root.js'
import { isSkillTurnFor, skillTurn } from '../harness/handoff-script.js'
import { carriesToolResult, userBlocks } from '../harness/request-messages.js'
import { createRunDir, setPluginOptions, type RunDir } from '../harness/run-dir.js'
import { stageCopy } from '../harness/staging.js'
import { startSession, type PermissionMode, type Session } from '../harness/tmux-session.js'

export const HANDOFF_MOD = 'compact-handoff@inline'
export const ANSWER_MOD = 'compact-handoff-answer@inline'

export const PLUGIN_DIRS = {
  handoff: join(repoRoot(), 'packages', 'compact-handoff'),
  answer: join(repoRoot(), 'packages', 'compact-handoff-answer'),
  skills: join(repoRoot(), 'skills'),
} as const

export interface Flow {
  run: RunDir
  mock: MockApi
  session: Session
}

/**
 * A staged copy of compact-handoff whose manifest no longer depends on the answer mod:
 * with the dependency the engine refuses to load the plugin at all ("Dependency
 * compact-handoff-answer is not installed"), which is not the case under test (an answer
 * mod that is present but disabled, or answered by another mod, looks the same to the run).
 */
function withoutAnswerDependency(run: RunDir): string {
  const dir = stageCopy(PLUGIN_DIRS.handoff, join(run.plugins, 'compact-handoff'))
  const manifestPath = join(dir, '.claude-plugin', 'plugin.json')
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { dependencies?: string[] }
  manifest.dependencies = (manifest.dependencies ?? []).filter((d) => d !== 'compact-handoff-answer')
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2))
  return dir
}

/** Sets compact-handoff's plugin options in the run's user settings. */
export function setHandoffOptions(run: RunDir, options: Record<string, unknown>): void {
  setPluginOptions(run, HANDOFF_MOD, options)
}

/** A run dir, a mock and a ready session; `withAnswer: false` leaves the answer mod
 * out; `handoffOptions` are compact-handoff's plugin options; `prepare` runs on the
 * run dir before the session starts (files a new session should find);
 * `permissionMode` is the session's (bypassPermissions unless said). */
export async function startFlow(
  name: string,
  track: (run: RunDir, session?: Session) => void,
  options: { withAnswer?: boolean; handoffOptions?: Record<string, unknown>; prepare?: (run: RunDir) => void; permissionMode?: PermissionMode } = {},
): Promise<Flow> {
  const withAnswer = options.withAnswer ?? true
  const run = createRunDir(name)
  track(run)
  if (options.handoffOptions !== undefined) setHandoffOptions(run, options.handoffOptions)
  options.prepare?.(run)
  const mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl') })
  const plugins = withAnswer ? [PLUGIN_DIRS.handoff, PLUGIN_DIRS.answer, PLUGIN_DIRS.skills] : [withoutAnswerDependency(run), PLUGIN_DIRS.skills]
  const session = await startSession({ run, plugins, mock, ...(options.permissionMode !== undefined ? { permissionMode: options.permissionMode } : {}) })
  track(run, session)
  const ms = await session.waitForReady({ mods: withAnswer ? [HANDOFF_MOD, ANSWER_MOD] : [HANDOFF_MOD] })
  console.log(`e2e ${name}: run dir ${run.dir}; ready after ${ms} ms`)
  return { run, mock, session }
}

/** The request's whole `messages`, as text, for "holds / does not hold" checks. */
export function messagesText(request: MockRequest): string {
  return JSON.stringify(request.body?.messages ?? [])
}

/**
 * Checks that the earlier exchanges of `tags` (typed `ask <tag>`, answered `REPLY-<tag>`)
 * are gone from a request: no answer survives anywhere, and the user's words survive only
 * inside the stub, which carries them verbatim on purpose.
 */
export function expectTurnsGone(request: MockRequest, tags: readonly string[], alsoGone: readonly string[] = []): void {
  const withoutStub = JSON.stringify(
    (request.body?.messages ?? []).map((m) =>
      Array.isArray(m.content) ? { ...m, content: m.content.filter((b: { text?: unknown }) => !(typeof b.text === 'string' && b.text.startsWith(STUB_OPENING))) } : m,
    ),
  )
  const all = messagesText(request)
  for (const tag of tags) {
    expect(all, `the answer REPLY-${tag} is gone`).not.toContain(`REPLY-${tag}`)
    expect(withoutStub, `"ask ${tag}" survives only inside the stub`).not.toContain(`ask ${tag}`)
  }
  for (const text of alsoGone) expect(all, `"${text}" is gone`).not.toContain(text)
}

/** Checks the request after a swap: the stub naming `files`, then the continue-prompt as the last user block. */
export function expectSwapped(request: MockRequest, continuePrompt: string, stubLines: readonly string[]): void {
  const blocks = userBlocks(request)
  expect(blocks.at(-1)?.trim(), 'the continue-prompt is the last user text').toBe(continuePrompt)
  const stub = blocks.find((b) => b.startsWith(STUB_OPENING))
  expect(stub, 'the stub is a user block').toBeDefined()
  for (const line of stubLines) expect(stub).toContain(line)
  expect(blocks.indexOf(stub!)).toBeLessThan(blocks.length - 1)
}

/** The turn.complete hook of compact-handoff settled after `since` (so the mod saw the turn end). */
export async function turnSettled(session: Session, since: number, timeoutMs = 20_000): Promise<void> {
  await session.waitForHookSettled(HANDOFF_MOD, 'turn.complete', { since, timeoutMs })
}

/** One ordinary exchange: types `ask <tag>`, waits for the scripted answer on screen and the mod's turn.complete hook. */
export async function ordinaryTurn(flow: Flow, tag: string, extra: { inputTokens?: number } = {}): Promise<MockRequest> {
  const { mock, session } = flow
  mock.script({ when: `ask ${tag}`, text: `REPLY-${tag}`, ...extra })
  await session.type(`ask ${tag}`)
  const request = await mock.waitForRequest((r) => r.lastUserText.includes(`ask ${tag}`), 30_000)
  // Marked once the request is out, so an earlier turn's hook settling late is not taken for this one's.
  const mark = session.logMark()
  await session.waitForScreen(new RegExp(`REPLY-${tag}`), 30_000)
  await turnSettled(session, mark)
  return request
}

/** The first request after `afterSeq` whose last user text holds `text`. */
export function requestAfter(mock: MockApi, afterSeq: number, text: string, timeoutMs = 30_000): Promise<MockRequest> {
  return mock.waitForRequest((r) => r.seq > afterSeq && r.lastUserText.includes(text), timeoutMs)
}

/** Checks that a later typed prompt still carries every earlier tag and that the mod
 * asked for no compaction since `since`: the conversation was not replaced. Returns the
 * probe's request. */
export async function expectConversationKept(flow: Flow, probe: string, earlierTags: readonly string[], since: number): Promise<MockRequest> {
  const request = await ordinaryTurn(flow, probe)
  const text = messagesText(request)
  const missing = earlierTags.filter((tag) => !text.includes(`REPLY-${tag}`))
  expect(missing, `earlier turns missing from request ${request.seq} (the conversation was replaced)`).toEqual([])
  expect(flow.mock.requests.some((r) => r.kind === 'summary'), 'no summariser request').toBe(false)
  expect(flow.session.debugLog().slice(since), 'no compaction was asked for').not.toMatch(/\$\.session\.compact \(compact-handoff\)/)
  return request
}

export { pollUntil }

/** The text in the prompt box: after the last prompt glyph, up to the rule under it. */
export function promptBoxOf(screen: string): string {
  const at = screen.lastIndexOf('❯\u00a0')
  if (at < 0) return ''
  const lines = screen.slice(at + 2).split('\n')
  const end = lines.findIndex((line) => /^─{20,}$/.test(line.trim()))
  return (end < 0 ? lines : lines.slice(0, end)).join('\n').trim()
}

let toolSeq = 0

/** One model turn that makes `calls` one after another with no delay, then answers
 * `text`; the first reply answers the request whose last user text holds `when`. */
export function toolTurn(when: string, calls: Omit<ScriptedToolUse, 'id'>[], text: string): ScriptedReply[] {
  const ids = calls.map(() => `toolu_turn_${++toolSeq}`)
  const replies: ScriptedReply[] = calls.map((call, i) => ({ toolUses: [{ ...call, id: ids[i]! }] }))
  replies.push({ text })
  return replies.map((reply, i) => ({ ...reply, when: i === 0 ? when : (r) => carriesToolResult(r, ids[i - 1]!) }))
}

export type SwapLogEntry = { time?: string; sessionId?: string; outcome: string; trigger?: string; files?: string[]; reason?: string; reReads?: string[]; repeatedCommands?: string[] }

/** The project's swap logs, a parsed entry a line, oldest first. */
export function logEntries(flow: Flow): SwapLogEntry[] {
  return swapLogEntriesOf<SwapLogEntry>(flow.run.proj)
}

/** A review run whose skill turn holds `held`, typed while its final answer is on its way;
 * returns once the turn has ended and the run waits for /compact-handoff apply. */
export async function reviewRunHolding(flow: Flow, slug: string, held: string): Promise<void> {
  const { mock, session, run } = flow
  const turn = skillTurn({ proj: run.proj, doc: { slug, focus: slug } })
  const writeId = turn.replies[0]!.toolUses![0]!.id!
  turn.replies[1] = { ...turn.replies[1]!, delayMs: 5_000 }
  mock.script(...turn.replies)
  const mark = session.logMark()
  const before = mock.requests.length
  await session.type(`/compact-handoff review ${slug}`)
  const skill = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, slug), 30_000)
  await mock.waitForRequest((r) => r.seq > skill.seq && carriesToolResult(r, writeId), 30_000)
  await session.type(held)
  await session.waitForToast(/your message is held/, { mod: 'compact-handoff', since: mark, timeoutMs: 30_000 })
  await pollUntil('the held text to leave the prompt box', 15_000, () => (promptBoxOf(session.screen()) === '' ? true : undefined))
  await session.waitForScreen(/COMPACT-HANDOFF-READY/, 30_000)
  await turnSettled(session, mark)
}
