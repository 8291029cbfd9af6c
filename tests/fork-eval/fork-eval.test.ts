// Holds the fork prompt's measurement (README.md beside this file) to what it claims: the
// session is long, ends in the middle of a turn, and plants its facts where it says (most only in
// tool output); the prompt versions are main's and the current forkPromptOf; the mod's own code
// turns a reply into the stub; and the model-free grader tells an answer that has the facts from
// one that has not.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { forkPromptOf } from '../../packages/compact-handoff/hooks/compaction/fork-prompt.js'
import { EXACT_VALUES_RULE, HANDOFF_WRITING_RULES } from '../../packages/compact-handoff/hooks/protocol/protocol-contents.js'
import { HANDOFF_SECTIONS } from '../../packages/compact-handoff/hooks/protocol/handoff-spec.js'
import { MAX_REDACT_CHARS } from '../../packages/compact-handoff/hooks/text/text-clip.js'
import { turnPositionOf } from '../../packages/compact-handoff/hooks/compaction/engine-compaction.js'
import { repoRoot } from '../harness/repo-root.js'
import { FACTS, TURNS } from './session.js'
import { ARMS, CONDITIONED_EXACT_VALUES_RULE, VARIANTS, builtOf, forkViewOf, gradeOf, messagesOf, normalized, quizInputOf, recallCallsOf, recallCommandOf, recallOf, recallQuizInputOf, resultsJsonOf, resultsOf, resultsTableOf, scoreOf, transcriptJsonlOf, transcriptTextOf, writerInputOf, type Arm } from './method.js'

const HERE = join(repoRoot(), 'tests', 'fork-eval')
const prompt = (variant: string) => readFileSync(join(HERE, 'prompts', `${variant}.txt`), 'utf8')

describe('the session', () => {
  const messages = messagesOf()
  const said = normalized(messages.map((m) => m.text).join('\n'))
  const toolOutput = (list: typeof messages) => normalized(list.flatMap((m) => [...m.toolUses.map((u) => JSON.stringify(u.input)), ...(m.toolResults ?? []).map((r) => r.text)]).join('\n'))
  const seen = toolOutput(forkViewOf(messages))
  const latest = toolOutput(messages.slice(forkViewOf(messages).length))

  test('has 40 or more messages, 20 or more facts, at least half of them only in tool output', () => {
    expect(messages.length).toBeGreaterThanOrEqual(40)
    expect(FACTS.length).toBeGreaterThanOrEqual(20)
    expect(FACTS.filter((f) => f.where !== 'words').length).toBeGreaterThanOrEqual(FACTS.length / 2)
  })

  test('ends in the middle of a turn, as the engine hands an automatic compaction over: a tool result is last', () => {
    expect(turnPositionOf(messages, 'auto').kind).toBe('mid-turn')
  })

  test.each(FACTS)('$id is where it says: $where', (fact) => {
    const key = normalized(fact.accept[0]!)
    if (fact.where === 'words') expect(said).toContain(key)
    else expect(said, 'never in the user\'s or the assistant\'s words').not.toContain(key)
    if (fact.where === 'tool-output') expect(seen).toContain(key)
    if (fact.where === 'latest-step') {
      expect(seen, 'the fork never sees it').not.toContain(key)
      expect(latest).toContain(key)
    }
  })

  test('what the fork sees stops before the latest assistant message, and the writer gets it whole, then the prompt', () => {
    const view = forkViewOf(messages)
    expect(messages[view.length]?.role).toBe('assistant')
    const input = writerInputOf(prompt('after'))
    expect(input).toContain(transcriptTextOf(view))
    expect(input.endsWith(prompt('after'))).toBe(true)
    expect(input).not.toContain("expected '12.35' to be '12.34'")
  })
})

describe('the prompt versions', () => {
  test("every is the current forkPromptOf of a mid-turn automatic compaction; after is the same with the exact-values rule runs 1 and 2 had; before is main's, after less the writing rules", () => {
    expect(prompt('every')).toBe(forkPromptOf({ focus: '', isMidTurn: true }))
    expect(prompt('every')).toContain(`- ${EXACT_VALUES_RULE}`)
    expect(prompt('after')).toBe(prompt('every').replace(`- ${EXACT_VALUES_RULE}`, `- ${CONDITIONED_EXACT_VALUES_RULE}`))
    const ruleLines = new Set([CONDITIONED_EXACT_VALUES_RULE, ...HANDOFF_WRITING_RULES.slice(1)].map((rule) => `- ${rule}`))
    expect(prompt('before')).toBe(prompt('after').split('\n').filter((line) => !ruleLines.has(line)).join('\n'))
  })

  test('the committed writer inputs are what prepare writes', () => {
    for (const variant of VARIANTS) expect(readFileSync(join(HERE, 'inputs', `writer-${variant}.md`), 'utf8')).toBe(writerInputOf(prompt(variant)))
  })
})

/** A reply that carries every fact, as a writer might; it is test data, not a measurement. */
const FULL_REPLY = [
  '# Handoff: move the ledger to postgres.js',
  ...HANDOFF_SECTIONS.flatMap((name) => [`## ${name}`, name === 'Goal' ? 'Ledger tests and CI green on postgres.js, then a PR.' : 'None']),
].join('\n')

describe("the mod's own code turns a reply into the stub the quiz reads", () => {
  const built = builtOf(FULL_REPLY)

  test('a reply in the format becomes a stub with the facts code recorded, what runs and the latest step', () => {
    expect(built.kind).toBe('stub')
    if (built.kind !== 'stub') return
    expect(built.stub).toContain('background shell b3f9k1, running')
    expect(built.stub).toContain('- pnpm tsc --noEmit  → exit 2')
    expect(built.stub).toContain("The turn's latest step, which the handoff's writer did not see")
    expect(built.stub).toContain('Tests  1 failed | 46 passed (47)')
    expect(quizInputOf(built.stub)).toContain(`${FACTS.length}. ${FACTS.at(-1)!.question}`)
  })

  test('a reply that fails the format check, or is past what the engine masks, is sent back, as the mod would', () => {
    expect(builtOf('Sorry, I cannot write that.').kind).toBe('refused')
    const long = builtOf(FULL_REPLY.replace('## Goal\n', `## Goal\n${'x'.repeat(MAX_REDACT_CHARS)}\n`))
    expect(long.kind === 'refused' && long.problems[0]).toMatch(/over the 100000 compact-handoff can check/)
  })
})

describe('the grader', () => {
  test('scores an answer holding each fact\'s first accepted value in full, and one that paraphrases at nothing', () => {
    const exact = FACTS.map((f, i) => `${i + 1}. \`${f.accept[0]}\``).join('\n')
    expect(scoreOf(gradeOf(exact)).all).toEqual({ known: FACTS.length, of: FACTS.length })
    const vague = FACTS.map((f, i) => `${i + 1}. not stated`).join('\n')
    expect(scoreOf(gradeOf(vague)).all.known).toBe(0)
  })

  test('reads answers by their number, whatever order they come in, and a missing one as unknown', () => {
    const grades = gradeOf(`2. the staging DATABASE: migrations against the staging database\n1. postgres.js`)
    expect(grades.slice(0, 3).map((g) => g.isKnown)).toEqual([true, true, false])
  })
})

test('the session is the one the README describes: 25 turns, 42 messages, 29 facts (7 in the words, 20 only in tool output, 2 only in the latest step)', () => {
  expect(TURNS.length).toBe(25)
  expect(messagesOf().length).toBe(42)
  const count = (where: string) => FACTS.filter((f) => f.where === where).length
  expect([FACTS.length, count('words'), count('tool-output'), count('latest-step')]).toEqual([29, 7, 20, 2])
})

describe("the session's transcript, which recall searches", () => {
  const rows = transcriptJsonlOf().trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; subtype?: string; message?: { content: unknown }; toolUseResult?: { backgroundTaskId?: string } })

  test('holds every message, each tool result on a row of its own, then the compaction\'s boundary last', () => {
    const results = messagesOf().flatMap((m) => m.toolResults ?? [])
    const messageRows = messagesOf().filter((m) => m.toolResults === undefined).length
    expect(rows).toHaveLength(messageRows + results.length + 1)
    expect(rows.at(-1)).toMatchObject({ type: 'system', subtype: 'compact_boundary' })
    expect(rows.filter((row) => row.subtype === 'compact_boundary')).toHaveLength(1)
    expect(rows.find((row) => row.toolUseResult?.backgroundTaskId !== undefined)?.toolUseResult?.backgroundTaskId).toBe('b3f9k1')
  })

  test.each(FACTS.filter((fact) => fact.where !== 'words'))('$id is in it, in a tool result, and recall brings it back for the value as an exact string', (fact) => {
    const results = rows.flatMap((row) => (Array.isArray(row.message?.content) ? row.message.content : [])).filter((block) => block.type === 'tool_result')
    const key = fact.accept[0]!
    expect(normalized(results.map((block) => String(block.content)).join('\n'))).toContain(normalized(key))
    const answer = recallOf(transcriptJsonlOf(), `"${key}"`)
    expect(answer).toMatch(/^recall found \d+ entr/)
    expect(normalized(answer)).toContain(normalized(key))
  })

  test("recall searches only what the compaction took out: with the boundary gone, it says nothing was replaced", () => {
    const unreplaced = transcriptJsonlOf().trimEnd().split('\n').slice(0, -1).join('\n')
    expect(recallOf(unreplaced, 'nightly-export')).toMatch(/^Nothing of this session's conversation has been replaced yet/)
    expect(recallOf(transcriptJsonlOf(), 'nightly-export')).toContain("src/export/nightly-export.ts:3:import { Client } from 'pg'")
  })
})

test("stand-ins.md tells a recall quiz model the command its quiz names", () => {
  const told = readFileSync(join(HERE, 'stand-ins.md'), 'utf8').replace(/\s*\n>\s*/g, ' ')
  expect(told).toContain(`\`${recallCommandOf('<n>', '<arm>' as Arm)}\``)
  expect(recallQuizInputOf('', '3', 'every-recall')).toContain(recallCommandOf('3', 'every-recall'))
})

/** What a run folder holds, by the file names the steps write. */
function filesOf(run: string, folder: string): string[] {
  const path = join(HERE, 'runs', run, folder)
  return existsSync(path) ? readdirSync(path).sort() : []
}
const runAt = (run: string, ...parts: string[]) => readFileSync(join(HERE, 'runs', run, ...parts), 'utf8')
const RUNS = readdirSync(join(HERE, 'runs')).sort()

describe.each(RUNS)('recorded run %s', (run) => {
  test('its results are the grade of its answers, as grade writes them', () => {
    const names = filesOf(run, 'answers').map((name) => name.replace(/\.md$/, ''))
    for (const name of names) expect(ARMS, `answers/${name}.md names an arm`).toContain(name)
    const answers = Object.fromEntries(names.map((name) => [name, runAt(run, 'answers', `${name}.md`)])) as Partial<Record<Arm, string>>
    const results = resultsOf(answers)
    const calls = Object.fromEntries(names.filter((name) => name.endsWith('-recall')).map((name) => [name, filesOf(run, 'recall').includes(`${name}.jsonl`) ? recallCallsOf(runAt(run, 'recall', `${name}.jsonl`)).length : 0]))
    expect(runAt(run, 'results.json')).toBe(resultsJsonOf(results))
    expect(runAt(run, 'results.md')).toBe(resultsTableOf(results, calls))
  })

  test('each quiz is its stub and the questions, as stub writes it; a recall quiz names its own run and arm', () => {
    for (const name of filesOf(run, 'stubs')) {
      const variant = name.replace(/\.md$/, '') as (typeof VARIANTS)[number]
      const stub = runAt(run, 'stubs', name)
      expect(runAt(run, 'quiz', name)).toBe(quizInputOf(stub))
      if (existsSync(join(HERE, 'runs', run, 'quiz', `${variant}-recall.md`))) expect(runAt(run, 'quiz', `${variant}-recall.md`)).toBe(recallQuizInputOf(stub, run, `${variant}-recall`))
    }
    for (const name of filesOf(run, 'quiz')) expect(filesOf(run, 'stubs'), `quiz/${name} has its stub`).toContain(name.replace(/-recall\.md$/, '.md'))
  })

  test('a run with a recall arm searched the session as transcriptJsonlOf renders it', () => {
    const hasRecall = filesOf(run, 'answers').some((name) => name.endsWith('-recall.md'))
    if (!hasRecall) return expect(filesOf(run, 'recall')).toEqual([])
    expect(runAt(run, 'transcript.jsonl')).toBe(transcriptJsonlOf())
  })

  test("each recall call logged is the product's answer to its query over the run's transcript", () => {
    for (const name of filesOf(run, 'recall')) {
      expect(ARMS, `recall/${name} names a recall arm`).toContain(name.replace(/\.jsonl$/, ''))
      for (const call of recallCallsOf(runAt(run, 'recall', name))) expect(call.answer, call.query).toBe(recallOf(runAt(run, 'transcript.jsonl'), call.query))
    }
  })
})
