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
import { startMockApi, type MockApi, type MockRequest, type ScriptedReply, type ScriptedToolUse } from '../harness/mock-api.js'
import { runClaude } from '../harness/claude-cli.js'
import { repoRoot } from '../harness/repo-root.js'
import { createRunDir, type RunDir } from '../harness/run-dir.js'
import { stageCopy } from '../harness/staging.js'
import {
  COMMITS,
  EVAL_CASES,
  PARENT_HANDOFF,
  PARENT_HANDOFF_TEXT,
  UNVERIFIED_CLAIMS,
  USER_WORDS,
  evalHistories,
  historyJsonl,
  type EvalCase,
} from '../support/eval-sessions.js'

const EVALS = join(repoRoot(), 'skills', 'evals')
/** One `claude plugin eval` of the seven cases, two at a time, took 11-13 s on this 2-core machine under load. */
const EVAL_TIMEOUT_MS = 120_000
const JUDGE_ASK = 'You are grading the output of a coding agent against a criterion.'
const DASHES = '-'.repeat(40)
const TODAY = new Date().toISOString().slice(0, 10)

type Variant = 'good' | 'bad'

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

// ---------------------------------------------------------------------------------------
// The files a scripted model writes. Good ones follow the skills' format and carry the facts
// of the case's past session; bad ones break named rules.

interface HandoffFacts {
  chain: string
  seq: number
  parent: string
  focus: string
  state: string[]
  inProgress: string
  openQuestions: string
  nextStep: string
  verify: string[]
  constraints?: string[]
}

function handoffText(f: HandoffFacts): string {
  const constraints = f.constraints ?? USER_WORDS.standing.map((s) => `- ${s}`)
  return [
    '---',
    'kind: handoff',
    `created: ${TODAY}T16:40:00Z`,
    'status: in-progress',
    `chain: ${f.chain}`,
    `seq: ${f.seq}`,
    `parent: ${f.parent}`,
    `focus: ${f.focus}`,
    '---',
    '',
    '# Handoff: RFC 4180 quoting in formatRow',
    '',
    '## Goal',
    `"${USER_WORDS.goal}" Done when node --test passes with fields holding commas, quotes and line breaks.`,
    '',
    '## Constraints',
    ...constraints,
    '',
    '## State',
    ...f.state,
    '',
    '## In progress',
    f.inProgress,
    '',
    '## Tried and ruled out',
    `- \`field.replace('"', '""')\`: replaces only the first quote; "doubles embedded quotes" fails with '"say ""hi""'.`,
    '',
    '## Decisions',
    '- Fields with line breaks are in scope: the user took back their earlier "skip CRLF for now".',
    '',
    '## Open questions',
    f.openQuestions,
    '',
    '## Files',
    'Changed, uncommitted: src/format.js, test/format.test.js.',
    'Reopen first (at most 5, most important first):',
    '1. `src/format.js`',
    '2. `test/format.test.js`',
    '',
    '## Next step',
    f.nextStep,
    '',
    '## Verify',
    ...f.verify,
    '',
  ].join('\n')
}

const QUOTING_FACTS: HandoffFacts = {
  chain: `HANDOFF_csv-quoting_${TODAY}`,
  seq: 1,
  parent: 'none',
  focus: 'none',
  state: [
    '- [verified] a field holding a comma is quoted - `node --test` -> "quotes a field that holds a comma" passes',
    `- [unverified] ${UNVERIFIED_CLAIMS.parseRow}: said in the session, never tested`,
  ],
  inProgress: 'src/format.js quoteField wraps the field in quotes but doubles only the first embedded quote. Uncommitted.',
  openQuestions: 'None',
  nextStep: "In src/format.js, make quoteField use `field.replaceAll('\"', '\"\"')`, then run `node --test`.",
  verify: ['- `git status --short` -> ` M src/format.js` and ` M test/format.test.js`', '- `node --test` -> 2 pass, 1 fail ("doubles embedded quotes")'],
}

const CONTINUATION_FACTS: HandoffFacts = {
  chain: 'HANDOFF_csv-quoting_2026-11-27',
  seq: 2,
  parent: PARENT_HANDOFF,
  focus: 'none',
  state: [
    `- [verified] embedded quotes are doubled - \`node --test\` -> 3 pass; committed as ${COMMITS.quoting}`,
    `- [unverified] ${UNVERIFIED_CLAIMS.readme}: said without reading the README`,
  ],
  inProgress: 'test/format.test.js has a new failing test for a field holding \\r\\n; quoteField does not look for line breaks yet.',
  openQuestions: '- Should formatRow also quote fields with leading or trailing spaces? Asked Sam; no answer yet.',
  nextStep: 'In src/format.js, add \\r and \\n to the pattern in quoteField, then run `node --test`.',
  verify: ['- `git log -1 --format=%s` -> `Quote fields per RFC 4180`', '- `node --test` -> 3 pass, 1 fail ("quotes a field that holds a line break")'],
}

function planText(chain: string): string {
  const phase = (n: number, title: string, action: string, files: string, verify: string): string[] => [
    `### Phase ${n}: ${title}`,
    `Actions: ${action}`,
    `Files: ${files}`,
    `Verify: ${verify}`,
    '',
  ]
  return [
    '---',
    'kind: plan',
    `created: ${TODAY}T16:40:00Z`,
    `chain: ${chain}`,
    'focus: none',
    '---',
    '',
    '# Plan: RFC 4180 in csvkit',
    '',
    '## Goal',
    'formatRow writes RFC 4180 CSV, parseRow reads it back, and the README shows a quoted field.',
    '',
    '## Phases',
    '',
    ...phase(1, 'Double embedded quotes', "make quoteField use `replaceAll('\"', '\"\"')`.", 'src/format.js', '`node --test` -> 3 pass'),
    ...phase(2, 'Quote fields with line breaks', 'add \\r and \\n to the pattern in quoteField; add a test.', 'src/format.js, test/format.test.js', '`node --test` -> 4 pass'),
    ...phase(3, 'parseRow reads quoted fields', 'parse quoted fields and doubled quotes; add test/parse.test.js.', 'src/parse.js, test/parse.test.js', '`node --test` -> all pass'),
    ...phase(4, 'README example', 'show a row with a quoted field.', 'README.md', '`grep -n Smith README.md` -> the example'),
    '## Risks',
    '- parseRow callers may rely on the naive split; a changed result would show in their tests.',
    '',
  ].join('\n')
}

function continuePrompt(handoff: string, next: string): string {
  return `The handoff skill has already run for this work; do not run it again. Read ${handoff}, then reopen the files it lists under "Reopen first". Before editing anything, run its Verify commands and compare the results with the note; where the repository and the note disagree, trust the repository. Then start on its Next step: ${next}`
}

function normalReply(handoff: string): string {
  return [`Wrote ${handoff}.`, 'Next step: make quoteField double every quote.', '', 'PASTE THIS INTO YOUR NEXT SESSION:', DASHES, continuePrompt(handoff, 'the quote fix in src/format.js.'), DASHES].join('\n')
}

// ---------------------------------------------------------------------------------------
// The scripted model: which case a request belongs to, how far its run has got, what it says.

/** Told apart by words only that case's requests carry (its prompt or its past session). */
function caseOf(request: MockRequest): EvalCase | undefined {
  const text = JSON.stringify(request.body?.messages ?? [])
  const args = /<command-name>\/compact-handoff-skills:(\w+)<\/command-name>(?:\\n<command-args>([^<]*)<\/command-args>)?/.exec(text)
  if (text.includes('does parseRow in src/parse.js handle quoted fields?')) return 'no-fire-question'
  if (text.includes('close to the end of my context here')) return 'handoff-natural-request'
  if (args?.[1] === 'handoffplan') return 'handoffplan-phases'
  if (args?.[2] === 'compact-mode finish the quoting fix') return 'handoff-compact-mode'
  if (args?.[2] === 'the quoting fix') return 'handoff-claude-folder'
  if (text.includes(`Read ${PARENT_HANDOFF}, then reopen`)) return 'handoff-continuation'
  if (args?.[1] === 'handoff') return 'handoff-plans-folder'
  return undefined
}

const ID_PREFIX = 'toolu_eval_'

/** Scripted assistant turns already in the request: the run's step. */
function stepOf(request: MockRequest): number {
  return (request.body?.messages ?? []).filter((m) => m.role === 'assistant' && JSON.stringify(m.content).includes(ID_PREFIX)).length
}

type Turn = { text?: string; tools?: Array<Omit<ScriptedToolUse, 'id'>> }

const write = (file_path: string, content: string): Omit<ScriptedToolUse, 'id'> => ({ name: 'Write', input: { file_path, content } })
const read = (file_path: string): Omit<ScriptedToolUse, 'id'> => ({ name: 'Read', input: { file_path } })

function script(variant: Variant): Record<EvalCase, Turn[]> {
  const plansHandoff = `plans/handoffs/HANDOFF_csv-quoting_${TODAY}.md`
  const good = handoffText(QUOTING_FACTS)
  if (variant === 'good') {
    const compactPath = plansHandoff
    return {
      'handoff-plans-folder': [{ tools: [write(plansHandoff, good)] }, { text: normalReply(plansHandoff) }],
      'handoff-claude-folder': [
        { tools: [write(`.claude/handoffs/HANDOFF_csv-quoting_${TODAY}.md`, handoffText({ ...QUOTING_FACTS, focus: '"the quoting fix"' }))] },
        { text: 'Claude Code refused the write into .claude/handoffs/ (it asks before writing there); nothing was written.' },
      ],
      'handoff-compact-mode': [
        { tools: [write(compactPath, handoffText({ ...QUOTING_FACTS, focus: '"finish the quoting fix"' }))] },
        {
          text: ['PASTE THIS INTO YOUR NEXT SESSION:', DASHES, continuePrompt(compactPath, 'the quote fix in src/format.js.'), DASHES, `COMPACT-HANDOFF-READY: ${compactPath}`].join('\n'),
        },
      ],
      'handoff-continuation': [
        { tools: [write(`plans/handoffs/HANDOFF_csv-line-breaks_${TODAY}.md`, handoffText(CONTINUATION_FACTS))] },
        { text: normalReply(`plans/handoffs/HANDOFF_csv-line-breaks_${TODAY}.md`) },
      ],
      'handoff-natural-request': [
        { tools: [{ name: 'Skill', input: { skill: 'compact-handoff-skills:handoff' } }] },
        { tools: [write(plansHandoff, good)] },
        { text: normalReply(plansHandoff) },
      ],
      'handoffplan-phases': [
        {
          tools: [
            write(plansHandoff, handoffText({ ...QUOTING_FACTS, nextStep: "Start Phase 1 of the plan: in src/format.js make quoteField use `replaceAll('\"', '\"\"')`." })),
            write(`plans/handoffs/PLAN_csv-quoting_${TODAY}.md`, planText(QUOTING_FACTS.chain)),
          ],
        },
        { text: normalReply(plansHandoff) },
      ],
      'no-fire-question': [
        { text: 'No. parseRow splits the line on every comma, so a quoted field such as "Smith, Jr." is cut in two. I changed nothing.' },
      ],
    }
  }
  return {
    // Right place, wrong content: the format and what-matters graders must catch it.
    'handoff-plans-folder': [
      {
        tools: [
          write(
            plansHandoff,
            handoffText({
              ...QUOTING_FACTS,
              constraints: ['- Keep the formatRow API stable.', `- ${USER_WORDS.withdrawn}`],
              state: [`- [verified] ${UNVERIFIED_CLAIMS.parseRow}`],
              nextStep: '- Fix quoting\n- Then handle CRLF',
              verify: ['- `git add -A && node --test` -> passes'],
            })
              .replace('seq: 1\n', '')
              .replace(/\n## Tried and ruled out\n[^#]*/, '\n')
              .replace('## Open questions\nNone\n', '## Open questions\n\n'),
          ),
        ],
      },
      { text: `Wrote ${plansHandoff}.` },
    ],
    // Right content, wrong folder.
    'handoff-claude-folder': [
      { tools: [write(`HANDOFF_csv-quoting_${TODAY}.md`, handoffText({ ...QUOTING_FACTS, focus: '"the quoting fix"' }))] },
      { text: normalReply(`HANDOFF_csv-quoting_${TODAY}.md`) },
    ],
    // Edits a project file, loses the focus quotes, and ends without the sentinel.
    'handoff-compact-mode': [
      { tools: [read('src/format.js')] },
      { tools: [{ name: 'Edit', input: { file_path: 'src/format.js', old_string: `field.replace('"', '""')`, new_string: `field.replaceAll('"', '""')` } }] },
      { tools: [write(plansHandoff, handoffText({ ...QUOTING_FACTS, focus: 'finish the quoting fix' }))] },
      { text: ['PASTE THIS INTO YOUR NEXT SESSION:', DASHES, continuePrompt(plansHandoff, 'run the tests.'), DASHES, 'Shall I commit the fix too?'].join('\n') },
    ],
    // Overwrites its parent instead of continuing the chain, and drops what it should carry.
    'handoff-continuation': [
      { tools: [read(PARENT_HANDOFF)] },
      {
        tools: [
          write(
            PARENT_HANDOFF,
            handoffText({
              ...CONTINUATION_FACTS,
              chain: 'HANDOFF_csv-quoting_2026-11-27',
              seq: 1,
              parent: 'none',
              openQuestions: 'None',
              state: [`- [verified] ${UNVERIFIED_CLAIMS.readme}`],
            }),
          ),
        ],
      },
      { text: normalReply(PARENT_HANDOFF) },
    ],
    // Never loads the skill: free-form notes in the project root.
    'handoff-natural-request': [
      { tools: [write('HANDOFF_notes.md', '# Notes\n\nWe were fixing CSV quoting; use replaceAll next. Keep the API stable.\n')] },
      { text: 'Saved my notes to HANDOFF_notes.md.' },
    ],
    // A handoff and no plan; its next step does not point at a phase.
    'handoffplan-phases': [{ tools: [write(plansHandoff, good)] }, { text: normalReply(plansHandoff) }],
    // Fires on a plain question.
    'no-fire-question': [
      { tools: [{ name: 'Skill', input: { skill: 'compact-handoff-skills:handoff' } }] },
      { tools: [write(plansHandoff, good)] },
      { text: normalReply(plansHandoff) },
    ],
  }
}

/** Every scripted turn, keyed to its case and step, each used once. */
function repliesFor(variant: Variant): ScriptedReply[] {
  let n = 0
  return Object.entries(script(variant)).flatMap(([name, turns]) =>
    turns.map((turn, step) => ({
      text: turn.text,
      toolUses: turn.tools?.map((t) => ({ ...t, id: `${ID_PREFIX}${variant}_${++n}` })),
      when: (r: MockRequest) => current === variant && !r.lastUserText.startsWith(JUDGE_ASK) && caseOf(r) === name && stepOf(r) === step,
    })),
  )
}

/** What a bad run must fail, per case; every other grader that needs no model must pass. */
const BAD_FAILS: Record<EvalCase, string[]> = {
  'handoff-plans-folder': [
    'frontmatter-keys',
    'ten-sections-in-order-none-empty',
    'constraints-verbatim',
    'withdrawn-instruction-left-out',
    'parse-claim-marked-unverified',
    'next-step-is-the-quote-fix',
    'verify-commands-change-nothing',
    'reply-has-continue-prompt',
  ],
  'handoff-claude-folder': ['handoff-write-aims-at-claude-handoffs', 'no-handoff-elsewhere'],
  'handoff-compact-mode': ['frontmatter-keys', 'reply-ends-with-block-and-sentinel', 'half-done-change-kept', 'no-edit-outside-plans-handoffs'],
  'handoff-continuation': [
    'handoff-in-plans-handoffs',
    'handoff-named-by-the-rule',
    'frontmatter-keys',
    'parent-handoff-unchanged',
    'open-question-carried-forward',
    'readme-claim-marked-unverified',
  ],
  'handoff-natural-request': [
    'handoff-in-plans-handoffs',
    'handoff-named-by-the-rule',
    'no-handoff-elsewhere',
    'frontmatter-keys',
    'ten-sections-in-order-none-empty',
    'constraints-verbatim',
    'skill-fired',
  ],
  'handoffplan-phases': [
    'plan-in-plans-handoffs',
    'plan-and-handoff-share-slug-and-date',
    'plan-frontmatter-keys',
    'plan-sections-in-order',
    'handoff-next-step-starts-phase-1',
  ],
  'no-fire-question': ['no-handoff-or-plan-written', 'reply-is-not-a-handoff', 'skill-not-fired'],
}

// ---------------------------------------------------------------------------------------

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
  mock.script(...repliesFor(variant))
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
  test('each history.jsonl is the rendering of tests/support/eval-sessions.ts (UPDATE=1 rewrites them)', () => {
    for (const [name, session] of Object.entries(evalHistories())) {
      const path = join(EVALS, name, 'history.jsonl')
      const expected = historyJsonl(session)
      if (process.env.UPDATE === '1') writeFileSync(path, expected)
      expect(readFileSync(path, 'utf8'), path).toBe(expected)
    }
  })

  test('the scaffolds build the commits and the earlier handoff the histories quote', () => {
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
