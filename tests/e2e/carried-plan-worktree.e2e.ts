/**
 * Issue 23's last two kinds, in a real session, model scripted: a plan written in
 * plan mode (ToolSearch loads EnterPlanMode/ExitPlanMode, the model enters plan
 * mode, writes its plan to the file the engine names, and exits plan mode), and a
 * worktree the session entered (EnterWorktree in a git repository). Then the
 * engine's own `/compact` (compactionHandoff: off) and a swap: what the next
 * request carries of each (CONTRIBUTING's "What a compaction carries"). The
 * engine puts the plan's text back and its environment block names the
 * worktree; a swap's stub carries the plan and names the worktree, which the
 * engine's environment block names again only from the turn after the swap.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { MockRequest } from '../harness/mock-api.js'
import { carriesToolResult, toolResultOf, userBlocks } from '../harness/request-messages.js'
import { isSkillTurnFor, skillTurn } from '../harness/handoff-script.js'
import type { RunDir } from '../harness/run-dir.js'
import { STUB_OPENING } from '../../packages/compact-handoff/hooks/stub/swap-text.js'
import { PLAN_HEADING } from '../../packages/compact-handoff/hooks/carried/carried.js'
import { trackRuns } from './lifecycle.js'
import { messagesText, ordinaryTurn, requestAfter, startFlow, turnSettled, type Flow } from './flow-support.js'

const PLAN_MARK = 'PLAN-STEP-MARK: split the parser into a lexer and a reader'
const WORKTREE_NAME = 'parser-work'

/** A git repository with one commit: EnterWorktree needs a HEAD to branch from. */
function prepareRepo(run: RunDir): void {
  writeFileSync(join(run.proj, 'README.md'), '# Parser\n')
  const git = (...args: string[]) => execFileSync('git', args, { cwd: run.proj, stdio: 'ignore' })
  git('init', '-q', '-b', 'main')
  git('-c', 'user.email=e2e@example.invalid', '-c', 'user.name=e2e', 'add', '.')
  git('-c', 'user.email=e2e@example.invalid', '-c', 'user.name=e2e', 'commit', '-q', '-m', 'init')
  // In a git repository the engine asks for trust at the repository's root, not its parents.
  const claudeJson = join(run.home, '.claude.json')
  const seeded = JSON.parse(readFileSync(claudeJson, 'utf8')) as { projects: Record<string, unknown> }
  seeded.projects[run.proj] = { hasTrustDialogAccepted: true, allowedTools: [], hasCompletedProjectOnboarding: true }
  writeFileSync(claudeJson, JSON.stringify(seeded, null, 2))
}

/** The plan file a request names (the plan-mode reminder's path), if any. */
function planPathIn(request: MockRequest): string | undefined {
  return /(\/[^\s"'\\`]*\/plans\/[^\s"'\\`]+\.md)/.exec(messagesText(request))?.[1]
}

function textOf(block: unknown): string {
  return JSON.stringify(block ?? '')
}

/** Plan mode entered, a plan written and approved, then a worktree entered.
 * Returns the plan file and the worktree's path as the engine named them. */
async function planAndWorktree(flow: Flow): Promise<{ planFile: string; worktreePath: string }> {
  const { mock, session } = flow
  const stamp = Date.now().toString(36)
  const load = `toolu_load_${stamp}`
  const enter = `toolu_plan_${stamp}`
  mock.script(
    { when: 'ask PLAN', toolUses: [{ id: load, name: 'ToolSearch', input: { query: 'select:EnterPlanMode,ExitPlanMode,EnterWorktree,ExitWorktree', max_results: 4 } }] },
    { when: (r) => carriesToolResult(r, load), toolUses: [{ id: enter, name: 'EnterPlanMode', input: {} }] },
    { when: (r) => carriesToolResult(r, enter), text: 'REPLY-PLAN' },
  )
  let mark = session.logMark()
  await session.type('ask PLAN')
  const entered = await mock.waitForRequest((r) => carriesToolResult(r, enter), 30_000)
  console.log(`e2e carried-plan: EnterPlanMode's result ${textOf(toolResultOf(entered, enter)).slice(0, 600)}`)
  await session.waitForScreen(/REPLY-PLAN/, 30_000)
  await turnSettled(session, mark)
  const probe = await ordinaryTurn(flow, 'PLAN-PROBE')
  const planFile = planPathIn(entered) ?? planPathIn(probe)
  console.log(`e2e carried-plan: plan file named ${planFile}`)
  if (planFile === undefined) throw new Error(`no plan file named in plan mode: ${messagesText(probe).slice(0, 3000)}`)

  const write = `toolu_write_${stamp}`
  const exit = `toolu_exit_${stamp}`
  mock.script(
    { when: 'ask WRITE-PLAN', toolUses: [{ id: write, name: 'Write', input: { file_path: planFile, content: `# Plan\n\n1. ${PLAN_MARK}\n2. Keep byte offsets.\n` } }] },
    { when: (r) => carriesToolResult(r, write), toolUses: [{ id: exit, name: 'ExitPlanMode', input: {} }] },
    { when: (r) => carriesToolResult(r, exit), text: 'REPLY-WRITE-PLAN' },
  )
  mark = session.logMark()
  await session.type('ask WRITE-PLAN')
  await mock.waitForRequest((r) => carriesToolResult(r, write), 30_000)
  // ExitPlanMode asks the person to approve the plan: the first choice proceeds.
  const approved = await Promise.race([
    session.waitForScreen(/proceed|approve|Would you like/i, 30_000).then(() => 'dialog'),
    mock.waitForRequest((r) => carriesToolResult(r, exit), 30_000).then(() => 'no dialog'),
  ])
  console.log(`e2e carried-plan: ExitPlanMode: ${approved}\n${session.screen()}`)
  const exitedAt = mock.waitForRequest((r) => carriesToolResult(r, exit), 30_000)
  // The dialog takes keys a moment after it draws: press again until the result is out.
  for (let n = 0; approved === 'dialog' && n < 20 && !mock.requests.some((r) => carriesToolResult(r, exit)); n++) {
    await new Promise((resolve) => setTimeout(resolve, 700))
    if (!mock.requests.some((r) => carriesToolResult(r, exit))) session.pressKeys('1')
  }
  const exited = await exitedAt
  console.log(`e2e carried-plan: ExitPlanMode's result ${textOf(toolResultOf(exited, exit)).slice(0, 1200)}`)
  await session.waitForScreen(/REPLY-WRITE-PLAN/, 30_000)
  await turnSettled(session, mark)

  const wt = `toolu_wt_${stamp}`
  mock.script(
    { when: 'ask WORKTREE', toolUses: [{ id: wt, name: 'EnterWorktree', input: { name: WORKTREE_NAME } }] },
    { when: (r) => carriesToolResult(r, wt), text: 'REPLY-WORKTREE' },
  )
  mark = session.logMark()
  await session.type('ask WORKTREE')
  const inWorktree = await mock.waitForRequest((r) => carriesToolResult(r, wt), 30_000)
  const wtResult = textOf(toolResultOf(inWorktree, wt))
  console.log(`e2e carried-worktree: EnterWorktree's result ${wtResult.slice(0, 1200)}`)
  await session.waitForScreen(/REPLY-WORKTREE/, 30_000)
  await turnSettled(session, mark)
  const worktreePath = /(\/[^\s"'\\`]*\/worktrees\/[^\s"'\\`]*parser-work)/.exec(wtResult)?.[1] ?? ''
  console.log(`e2e carried-worktree: worktree ${worktreePath}`)
  return { planFile, worktreePath }
}

/** Each message of a request, one line: role, size in JSON bytes, its opening. */
function inventoryOf(request: MockRequest): string {
  return (request.body?.messages ?? [])
    .map((m, i) => {
      const json = JSON.stringify(m.content)
      const blocks = Array.isArray(m.content) ? (m.content as Array<{ type?: string; text?: string }>) : [{ type: 'text', text: String(m.content) }]
      const heads = blocks.map((b) => `${b.type}:${(b.text ?? JSON.stringify(b).slice(0, 300)).slice(0, 300).split('\n').join(' ⏎ ')}`)
      return `#${i} ${m.role} ${json.length} B\n    ${heads.join('\n    ')}`
    })
    .join('\n')
}

/** Where a text occurs in a request, with some context either side. */
function around(text: string, what: string): string[] {
  const found: string[] = []
  for (let at = text.indexOf(what); at >= 0 && found.length < 6; at = text.indexOf(what, at + what.length)) found.push(text.slice(Math.max(0, at - 300), at + what.length + 300))
  return found
}

function kindsOf(label: string, request: MockRequest, planFile: string, worktreePath: string): string {
  const all = messagesText(request)
  const lines = [`e2e carried-plan-worktree kinds: after ${label}: plan text ${all.includes(PLAN_MARK)}; plan file ${all.includes(planFile)}; worktree path ${worktreePath !== '' && all.includes(worktreePath)}; "plan mode" ${/plan mode/i.test(all)}; "worktree" ${/worktree/i.test(all)}`]
  for (const what of [PLAN_MARK, planFile, worktreePath, 'worktree', 'Worktree', 'plan mode', 'Plan mode']) if (what !== '') for (const hit of around(all, what)) lines.push(`  [${what}] …${hit.split('\\n').join(' ⏎ ')}…`)
  return lines.join('\n')
}

describe("the engine's own /compact (compactionHandoff: off) after a plan and a worktree", () => {
  const { track } = trackRuns()

  it("puts the plan's text back, and names the worktree in its environment block", async () => {
    const flow = await startFlow('carried-plan-engine', track, { handoffOptions: { compactionHandoff: 'off' }, prepare: prepareRepo })
    const { mock, session } = flow
    const { planFile, worktreePath } = await planAndWorktree(flow)
    const before = await ordinaryTurn(flow, 'BEFORE-COMPACT')
    console.log(kindsOf('the last turn before /compact', before, planFile, worktreePath))
    const since = mock.requests.length
    await session.type('/compact')
    await mock.waitForRequest((r) => r.seq > since && r.kind === 'summary', 30_000)
    await session.waitForScreen(/Compacted|compacted/, 30_000)
    const next = await ordinaryTurn(flow, 'AFTER-COMPACT')
    console.log(`e2e carried-plan-worktree: the request after /compact\n${inventoryOf(next)}\n${kindsOf('/compact', next, planFile, worktreePath)}`)
    const text = messagesText(next)
    expect(text, "the plan's text, as the engine puts it back").toContain(PLAN_MARK)
    expect(text, 'framed as a plan file from plan mode').toContain(`A plan file exists from plan mode at: ${planFile}`)
    expect(text, "the worktree, in the engine's environment block").toContain(`Primary working directory: ${worktreePath}`)
  })
})

describe('a swap after a plan and a worktree', () => {
  const { track } = trackRuns()

  it("carries the plan's text and the worktree in the stub; the engine names the worktree from the next turn on; no summariser", async () => {
    const flow = await startFlow('carried-plan-swap', track, { prepare: prepareRepo })
    const { mock, session } = flow
    const { planFile, worktreePath } = await planAndWorktree(flow)
    // The session works in the worktree now: the handoff goes where its folder is.
    const turn = skillTurn({ proj: worktreePath, doc: { slug: 'carried-plan', focus: 'parser plan' } })
    mock.script(...turn.replies)
    const before = mock.requests.length
    await session.type('/compact-handoff parser plan')
    const skill = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'parser plan'), 30_000)
    const next = await requestAfter(mock, skill.seq, turn.continuePrompt)
    console.log(`e2e carried-plan-worktree: the request after a swap\n${inventoryOf(next)}\n${kindsOf('a swap', next, planFile, worktreePath)}`)
    await session.waitForScreen(/OK \(mock default reply\)/, 30_000)
    const later = await ordinaryTurn(flow, 'AFTER-SWAP')
    console.log(kindsOf('a swap, one turn later', later, planFile, worktreePath))
    const stub = userBlocks(next).find((b) => b.startsWith(STUB_OPENING)) ?? ''
    expect(stub, "the stub carries the plan's text").toContain(PLAN_MARK)
    expect(stub, 'with its file, framed as the plan approved earlier').toContain(`${PLAN_HEADING}, kept in the plan file ${planFile}`)
    expect(messagesText(next), "the engine's environment block does not name the worktree's path in the first request").not.toContain(`Primary working directory: ${worktreePath}`)
    expect(stub, 'so the stub does, with its branch').toContain(`The session is working in the git worktree ${worktreePath} (branch worktree-${WORKTREE_NAME})`)
    expect(messagesText(later), "the engine's environment block names it from the next turn on").toContain(`Primary working directory: ${worktreePath}`)
    expect(userBlocks(next).at(-1)?.trim(), 'the continue-prompt is the last user text').toBe(turn.continuePrompt)
    expect(mock.requests.some((r) => r.kind === 'summary'), 'no summariser request').toBe(false)
  })
})
