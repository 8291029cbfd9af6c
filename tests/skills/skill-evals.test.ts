/**
 * Proves the skill pack's `claude plugin eval` suite (skills/evals) without a model: the real
 * CLI runs every case against the scripted Messages API of tests/harness/mock-api.ts, once
 * with a scripted model that does each case right and once with one that gets it wrong in a
 * known way, and the graders that need no model (file_exists, regex, tool_used) must pass the
 * first and fail the second exactly where the fault is.
 *
 * llm graders are not proven here: the mock answers every judge request "PASS". What is
 * checked is that each one reaches the judge with its criterion and the written handoff in
 * view.
 *
 * Engine behaviour this relies on (Claude Code 2.1.332, seen in these runs): each case runs in
 * a fresh sandbox (HOME, working folder, tmp) under the caller's ANTHROPIC_BASE_URL and key;
 * `--scaffold` runs the case's scaffold.sh there; `context.history_file` is resumed with
 * `--resume`; the child runs in permission mode dontAsk, so Write and Edit must be granted
 * with `--allow-tools`, Bash needs an OS sandbox this machine lacks, and every write under
 * `.claude/` is refused (a sensitive folder).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { startMockApi, type MockApi, type MockRequest } from '../harness/mock-api.js'
import { runClaude } from '../harness/claude-cli.js'
import { repoRoot } from '../harness/repo-root.js'
import { createRunDir, type RunDir } from '../harness/run-dir.js'
import { stageCopy } from '../harness/staging.js'
import { BAD_FAILS, caseOf, repliesFor, stepOf } from './eval-model.js'
import { JUDGE_ASK, type Variant } from './eval-handoffs.js'
import { COMMITS, EVAL_CASES, PARENT_HANDOFF, UNVERIFIED_CLAIMS, historyJsonl, type EvalCase } from '../support/eval-sessions.js'
import { PARENT_HANDOFF_TEXT, evalHistories } from '../support/eval-histories.js'
import { LOADED_MACHINE_TIMEOUT_MS } from '../support/loaded-machine.js'

const EVALS = join(repoRoot(), 'skills', 'evals')
/** One `claude plugin eval` of the seven cases, two at a time, took 11-13 s on this 2-core machine under load. */
const EVAL_TIMEOUT_MS = 120_000

interface Grader {
  name: string
  type: string
  criteria?: string
}

function casesOnDisk(): Array<{ name: EvalCase; graders: Grader[] }> {
  return readdirSync(EVALS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('_') && d.name !== 'results')
    .map((d) => parse(readFileSync(join(EVALS, d.name, 'case.yaml'), 'utf8')) as { name: EvalCase; graders: Grader[] })
}

interface GraderResult {
  name: string
  passed: boolean
  explanation: string
  withOnly: boolean
  judgeVotes?: boolean[]
}

interface EvalResult {
  cases: Array<{ name: EvalCase; arms: { with: Array<{ error: string | null; graders: GraderResult[] }> } }>
}

interface EvalRun {
  result: EvalResult
  requests: MockRequest[]
  unusedReplies: number
}

let run: RunDir
let pack: string
let mock: MockApi
/** The mock cannot drop queued replies, so each reply answers only while its own variant runs. */
let current: Variant = 'good'
let keepRunDir = false

async function evalWith(variant: Variant): Promise<EvalRun> {
  const before = mock.requests.length
  const pendingBefore = mock.pending()
  current = variant
  mock.script(...repliesFor(variant, () => current === variant))
  const out = join(run.dir, variant)
  mkdirSync(out, { recursive: true })
  await runClaude(
    run,
    // The flags of the real run (skills/README.md), but one run per case, two at a time, no
    // Bash (it needs an OS sandbox), no report upload, and a threshold of 0 so a failing case
    // still exits 0 with its JSON.
    ['plugin', 'eval', pack, '--runs', '1', '-j', '2', '--scaffold', '--allow-tools', 'Write', 'Edit', '--trust-plugin', '--no-publish', '--threshold', '0']
      .concat(['--json', join(out, 'result.json'), '--output-dir', out, '--report', join(out, 'report.html')]),
    { baseUrl: mock.url, timeoutMs: EVAL_TIMEOUT_MS },
  )
  const unusedReplies = mock.pending() - pendingBefore
  return { result: JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as EvalResult, requests: mock.requests.slice(before), unusedReplies }
}

function gradersOf(runResult: EvalRun, name: EvalCase): GraderResult[] {
  const found = runResult.result.cases.find((c) => c.name === name)
  expect(found, `case ${name} in the eval result`).toBeDefined()
  const [arm] = found!.arms.with
  expect(arm?.error ?? null, `case ${name} ran without error`).toBeNull()
  return arm!.graders
}

describe('the skill pack eval suite, run by claude plugin eval against a scripted model', () => {
  const onDisk = casesOnDisk()
  const freeOf = (name: EvalCase): string[] => onDisk.find((c) => c.name === name)!.graders.filter((g) => g.type !== 'llm').map((g) => g.name)
  const llmOf = (name: EvalCase): Grader[] => onDisk.find((c) => c.name === name)!.graders.filter((g) => g.type === 'llm')
  let good: EvalRun
  let bad: EvalRun

  beforeAll(async () => {
    run = createRunDir('skill-evals')
    pack = stageCopy(join(repoRoot(), 'skills'), join(run.plugins, 'skills'))
    // Judge requests (llm graders) all get "PASS"; every agent request is matched by a
    // scripted reply first.
    mock = await startMockApi({ defaultReply: { text: 'PASS' }, logFile: join(run.dir, 'requests.jsonl') })
    good = await evalWith('good')
    bad = await evalWith('bad')
  }, 2 * EVAL_TIMEOUT_MS + 10_000)

  afterEach((ctx) => {
    if (ctx.task.result?.state === 'fail') keepRunDir = true
  })

  afterAll(async () => {
    await mock?.close()
    // Kept after a failure or with KEEP=1: good/ and bad/ hold each eval's JSON and HTML
    // report, requests.jsonl every request the mock answered.
    if (run !== undefined && !keepRunDir && process.env.KEEP !== '1') rmSync(run.dir, { recursive: true, force: true })
  })

  test('has at least six cases, one of them a case where no skill should fire', () => {
    expect(onDisk.length).toBeGreaterThanOrEqual(6)
    expect(onDisk.map((c) => c.name).sort()).toEqual([...EVAL_CASES].sort())
    expect(onDisk.filter((c) => c.name.startsWith('no-fire')).length).toBeGreaterThanOrEqual(1)
  })

  test('every scripted model turn was asked for: the cases ran as scripted', () => {
    expect(good.unusedReplies, 'good run: scripted turns no request asked for').toBe(0)
    expect(bad.unusedReplies, 'bad run: scripted turns no request asked for').toBe(0)
  })

  test.each([...EVAL_CASES])('%s: a good handoff passes every grader that needs no model', (name) => {
    const failed = gradersOf(good, name).filter((g) => freeOf(name).includes(g.name) && !g.passed)
    expect(failed.map((g) => `${g.name}: ${g.explanation}`)).toEqual([])
  })

  test.each([...EVAL_CASES])('%s: a bad one fails exactly the graders meant to catch it', (name) => {
    const results = gradersOf(bad, name).filter((g) => freeOf(name).includes(g.name))
    expect(results.map((g) => g.name).sort(), 'every grader reported').toEqual([...freeOf(name)].sort())
    expect(results.filter((g) => !g.passed).map((g) => g.name).sort()).toEqual([...BAD_FAILS[name]].sort())
  })

  test.each([...EVAL_CASES])('%s: each llm grader reaches the judge with its criterion (verdicts scripted, not proven)', (name) => {
    const judged = good.requests.filter((r) => r.lastUserText.startsWith(JUDGE_ASK))
    for (const grader of llmOf(name)) {
      const asks = judged.filter((r) => r.lastUserText.includes(grader.criteria!.trim()))
      expect(asks.length, `${grader.name}: judge requests`).toBeGreaterThanOrEqual(2)
      const result = gradersOf(good, name).find((g) => g.name === grader.name)
      expect(result?.judgeVotes?.length, `${grader.name}: votes recorded`).toBeGreaterThanOrEqual(2)
    }
  })

  test('an eval run refuses the write into .claude/handoffs/, which is why handoff-claude-folder grades the attempt', () => {
    const afterWrite = good.requests.find((r) => caseOf(r) === 'handoff-claude-folder' && stepOf(r) === 1)
    // The engine appends role "system" entries after the last user message: skip them.
    const results = JSON.stringify((afterWrite?.body?.messages ?? []).filter((m) => m.role === 'user').at(-1)?.content ?? '')
    expect(results).toMatch(/"is_error":true/)
    expect(results).toMatch(/Permission to use Write has been denied/)
  })

  test('a trace-focused judge sees the handoff as written, not only the skill template', () => {
    const judged = good.requests.filter((r) => r.lastUserText.startsWith(JUDGE_ASK) && r.lastUserText.includes('Agent output (trace)'))
    expect(judged.length).toBeGreaterThan(0)
    const sawHandoff = judged.some((r) => r.lastUserText.includes(`[unverified] ${UNVERIFIED_CLAIMS.parseRow}`))
    expect(sawHandoff, 'the Write content of the handoff reached the judge').toBe(true)
  })
})

describe('the cases describe one consistent past', () => {
  test('each history.jsonl is the rendering of tests/support/eval-histories.ts (UPDATE=1 rewrites them)', () => {
    for (const [name, session] of Object.entries(evalHistories())) {
      const path = join(EVALS, name, 'history.jsonl')
      const expected = historyJsonl(session)
      if (process.env.UPDATE === '1') writeFileSync(path, expected)
      expect(readFileSync(path, 'utf8'), path).toBe(expected)
    }
  })

  test('the scaffolds build the commits and the earlier handoff the histories quote', { timeout: LOADED_MACHINE_TIMEOUT_MS }, () => {
    const built = createRunDir('skill-evals-scaffold')
    const shapes: Array<[string, string[]]> = [
      ['no-fire-question', [COMMITS.roadmap, COMMITS.tests, COMMITS.add]],
      ['handoff-claude-folder', [COMMITS.tests, COMMITS.add]],
      ['handoff-continuation', [COMMITS.quoting, COMMITS.handoff, COMMITS.roadmap, COMMITS.tests, COMMITS.add]],
    ]
    for (const [name, log] of shapes) {
      const cwd = join(built.proj, name)
      mkdirSync(cwd)
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: built.home, GIT_CONFIG_NOSYSTEM: '1' }
      execFileSync('bash', [join(EVALS, name, 'scaffold.sh')], { cwd, env })
      expect(execFileSync('git', ['log', '--oneline'], { cwd, env, encoding: 'utf8' }).trim().split('\n'), name).toEqual(log)
      if (name === 'handoff-continuation') expect(readFileSync(join(cwd, PARENT_HANDOFF), 'utf8')).toBe(PARENT_HANDOFF_TEXT)
    }
    rmSync(built.dir, { recursive: true, force: true })
  })
})
