/**
 * The fork prompt's measurement, as pure functions over the session (session.ts): what the fork
 * sees and is asked, the file and the stub its reply becomes by the mod's own code (fork-reply,
 * the unmaskable check, frontmatter, the format check, the facts, the latest step, the stub), the
 * quiz a fresh model answers from that stub alone, and the model-free grade of its answers.
 * fork-eval.ts applies them to files; fork-eval.test.ts checks them. No file system here.
 */
import { forkReplyOf } from '../../packages/compact-handoff/hooks/compaction/fork-reply.js'
import { composedHandoffOf, freeHandoffNameOf, slugOf, unmaskableProblemOf, FORK_HANDOFF_DIR } from '../../packages/compact-handoff/hooks/compaction/fork-handoff.js'
import { latestStepOf, latestStepSectionOf } from '../../packages/compact-handoff/hooks/compaction/latest-step.js'
import { formatProblems } from '../../packages/compact-handoff/hooks/format/handoff-format.js'
import { NO_FACTS, exitCodeOf, stubFactsOf, withChange, withCommand, withRead, clippedCommandOf, type Facts } from '../../packages/compact-handoff/hooks/facts/facts.js'
import { backgroundTaskIdOf, type RunningShell } from '../../packages/compact-handoff/hooks/background/running.js'
import { withUserMessage, NO_WORDS, type UserWords } from '../../packages/compact-handoff/hooks/words/user-words.js'
import { buildForkStub } from '../../packages/compact-handoff/hooks/stub/swap-text.js'
import { recallAnswerOf } from '../support/recall-answer.js'
import { CWD, FACTS, TURNS, type PlantedFact, type Tool, type Turn } from './session.js'

/** The prompt versions measured: main's before the writing rules (`before`), the writing rules
 * with the exact-values rule as runs 1 and 2 had it (`after`), and the current one, whose rule
 * asks for every exact value (`every`). */
export const VARIANTS = ['before', 'after', 'every'] as const
export type Variant = (typeof VARIANTS)[number]

/** The exact-values rule of the `after` prompt: values asked for only where the next step
 * depends on them. The current rule (EXACT_VALUES_RULE) drops the condition. */
export const CONDITIONED_EXACT_VALUES_RULE =
  'Exact values: where the next step depends on an identifier, a path (one seen only in search or listing output too), an error text with its code, an exit status, an id, a hash, a count, a size or a duration, copy it exactly as the conversation or its tool output showed it, never a shorter description of it; the next context has no way to look it up again.'

/** What a quiz model is given: the stub alone (`<variant>`), or the stub and the recall tool over
 * the session's transcript (`<variant>-recall`). */
export type Arm = Variant | `${Variant}-recall`
export const ARMS: readonly Arm[] = VARIANTS.flatMap((variant): Arm[] => [variant, `${variant}-recall`])

/** The time the fork's file is stamped with (the session's own day). */
const CREATED = '2026-12-01T09:40:00Z'
/** The engine's id of the session, its transcript's file name. */
const SESSION_ID = '3f2c9e40'
/** Where the engine keeps the transcript, as the stub names it. */
const TRANSCRIPT_PATH = `/home/dev/.claude/projects/-home-dev-ledger-sync/${SESSION_ID}.jsonl`
/** When the session's first message was written; the rest follow seconds apart. */
const SESSION_START_MS = Date.parse('2026-12-01T08:00:00Z')

type ToolUseInput = { tool_use_id: string; tool: string; input: Record<string, unknown>; text?: string; isError?: true }
type ToolResultInput = { tool_use_id: string; text: string; isError: boolean }
/** A message in the shape the engine hands a compaction hook (SessionMessage, less its handle). */
export type Message = { role: 'user' | 'assistant'; text: string; toolUses: ToolUseInput[]; toolResults?: ToolResultInput[] }

/** The session as the engine's messages: a turn with tools is the assistant's message and a user message of results. */
export function messagesOf(turns: readonly Turn[] = TURNS): Message[] {
  let n = 0
  return turns.flatMap((turn): Message[] => {
    if ('user' in turn) return [{ role: 'user', text: turn.user, toolUses: [] }]
    const tools = (turn.tools ?? []).map((tool) => ({ tool, id: `toolu_eval_${String(++n).padStart(3, '0')}` }))
    const assistant: Message = { role: 'assistant', text: turn.assistant, toolUses: tools.map(({ tool, id }) => ({ tool_use_id: id, tool: tool.name, input: tool.input })) }
    if (tools.length === 0) return [assistant]
    return [assistant, { role: 'user', text: '', toolUses: [], toolResults: tools.map(({ tool, id }) => ({ tool_use_id: id, text: tool.result, isError: tool.isError === true })) }]
  })
}

/** What the fork sees: the transcript as last sent, without the latest assistant message and
 * its results (seen live, 2.1.332: the in-flight call is not in it). */
export function forkViewOf(messages: readonly Message[]): Message[] {
  const lastAssistant = messages.map((m) => m.role).lastIndexOf('assistant')
  return messages.slice(0, lastAssistant)
}

/** The transcript as text for a stand-in model: each message under its role, each tool call
 * with its input as JSON, each result whole. */
export function transcriptTextOf(messages: readonly Message[]): string {
  const parts: string[] = []
  for (const message of messages) {
    if (message.role === 'user' && message.toolResults === undefined) parts.push(`[user]\n${message.text}`)
    if (message.role === 'assistant') {
      parts.push(`[assistant]\n${message.text}`)
      for (const use of message.toolUses) parts.push(`[tool call ${use.tool_use_id}: ${use.tool}]\n${JSON.stringify(use.input)}`)
    }
    for (const result of message.toolResults ?? []) parts.push(`[tool result ${result.tool_use_id}${result.isError ? ', error' : ''}]\n${result.text}`)
  }
  return parts.join('\n\n')
}

/** One transcript record's common fields, as Claude Code 2.1.332 writes them. */
function recordOf(type: 'user' | 'assistant' | 'system', n: number): Record<string, unknown> {
  return {
    parentUuid: n === 1 ? null : uuidOf(n - 1),
    isSidechain: false,
    userType: 'external',
    cwd: CWD,
    sessionId: SESSION_ID,
    version: '2.1.332',
    type,
    uuid: uuidOf(n),
    timestamp: new Date(SESSION_START_MS + n * 9_000).toISOString(),
  }
}

function uuidOf(n: number): string {
  return `${SESSION_ID}-0000-4000-8000-${String(n).padStart(12, '0')}`
}

/** What the engine records beside a Bash result (`toolUseResult`): its output, or the error
 * text, and a background shell's id, which is how recall tells a shell sent to the background. */
function bashResultOf(use: ToolUseInput, result: ToolResultInput): unknown {
  if (result.isError) return `Error: ${result.text}`
  const backgroundTaskId = use.input.run_in_background === true ? /ID: (\S+)/.exec(result.text)?.[1] : undefined
  return { stdout: result.text, stderr: '', interrupted: false, isImage: false, ...(backgroundTaskId !== undefined ? { backgroundTaskId } : {}) }
}

/** The session's transcript as the engine keeps it, one JSON record a line: every message (the
 * latest step too: the engine writes it before the compaction), each tool result on a row of its
 * own with what the engine records beside it, then the compaction's boundary. The rows after the
 * boundary (the stub, and what follows) are the conversation the next context holds, which
 * recall never searches, so they are left out. */
export function transcriptJsonlOf(messages: readonly Message[] = messagesOf()): string {
  const uses = new Map(messages.flatMap((m) => m.toolUses.map((use) => [use.tool_use_id, use] as const)))
  const rows: Record<string, unknown>[] = []
  const push = (type: 'user' | 'assistant' | 'system', fields: Record<string, unknown>) => rows.push({ ...recordOf(type, rows.length + 1), ...fields })
  for (const message of messages) {
    if (message.role === 'assistant') {
      const content = [{ type: 'text', text: message.text }, ...message.toolUses.map((use) => ({ type: 'tool_use', id: use.tool_use_id, name: use.tool, input: use.input }))]
      push('assistant', { message: { role: 'assistant', type: 'message', model: 'claude-opus-5-5', content, stop_reason: message.toolUses.length > 0 ? 'tool_use' : 'end_turn' } })
      continue
    }
    if (message.toolResults === undefined) {
      push('user', { message: { role: 'user', content: message.text } })
      continue
    }
    for (const result of message.toolResults) {
      const use = uses.get(result.tool_use_id)
      const block = { type: 'tool_result', tool_use_id: result.tool_use_id, content: result.text, ...(result.isError ? { is_error: true } : {}) }
      push('user', { message: { role: 'user', content: [block] }, ...(use?.tool === 'Bash' ? { toolUseResult: bashResultOf(use, result) } : {}) })
    }
  }
  push('system', { subtype: 'compact_boundary', content: 'Conversation compacted', level: 'info', compactMetadata: { trigger: 'auto' } })
  return rows.map((row) => JSON.stringify(row)).join('\n') + '\n'
}

/** The one message a stand-in writer gets: the conversation the fork sees, then the prompt as the
 * last user message, exactly as forkPromptOf built it. */
export function writerInputOf(prompt: string): string {
  return [
    'Below is a conversation between a user and Claude Code, a coding agent, then one more user message. You are that agent; answer the last message. Reply with the text of your answer only.',
    '',
    '===== CONVERSATION =====',
    transcriptTextOf(forkViewOf(messagesOf())),
    '',
    '===== LAST USER MESSAGE =====',
    prompt,
  ].join('\n')
}

/** What code recorded from the tool calls, as work-steps.ts and running-steps.ts record them
 * (every call here succeeded as far as the hooks go; a Bash error names its exit status). */
export function recordedOf(turns: readonly Turn[] = TURNS): { facts: Facts; words: UserWords; shells: RunningShell[] } {
  let facts = NO_FACTS
  let words = NO_WORDS
  const shells: RunningShell[] = []
  for (const turn of turns) {
    if ('user' in turn) {
      words = withUserMessage(words, turn.user)
      continue
    }
    for (const tool of turn.tools ?? []) facts = withTool(facts, tool, shells)
  }
  return { facts, words, shells }
}

function withTool(facts: Facts, tool: Tool, shells: RunningShell[]): Facts {
  const path = typeof tool.input.file_path === 'string' ? tool.input.file_path : undefined
  if ((tool.name === 'Edit' || tool.name === 'Write') && path !== undefined) return withChange(facts, path)
  if (tool.name === 'Read' && path !== undefined) return withRead(facts, path)
  if (tool.name !== 'Bash') return facts
  const line = clippedCommandOf(String(tool.input.command))
  const shellId = tool.input.run_in_background === true ? backgroundTaskIdOf({ backgroundTaskId: /ID: (\S+)/.exec(tool.result)?.[1] }) : undefined
  if (shellId !== undefined) shells.push({ id: shellId, command: String(tool.input.command), startedAtMs: Date.parse('2026-12-01T08:05:00Z') })
  return withCommand(facts, line, exitCodeOf(tool.isError === true ? { isError: true, text: tool.result } : {}), shellId)
}

export type Built =
  | { kind: 'stub'; stub: string; file: string; fileName: string; replyChars: number; problems: readonly string[] }
  | { kind: 'refused'; replyChars: number; problems: readonly string[] }

/** A writer's reply as the mod takes it: the handoff out of the reply, the size the engine can
 * mask, the frontmatter and name code writes, the format check, then the stub with the facts,
 * what still runs and the latest step. Masking is the identity here: the session holds no
 * credential, and the engine's redact returns such text unchanged (seen live). */
export function builtOf(reply: string): Built {
  const { body, title } = forkReplyOf(reply)
  const tooLong = unmaskableProblemOf(body)
  if (tooLong !== undefined) return { kind: 'refused', replyChars: body.length, problems: [tooLong] }
  const fileName = freeHandoffNameOf(slugOf(title, ''), CREATED, [])
  const file = composedHandoffOf({ created: CREATED, chain: 'new', seq: 1, parent: 'none', focus: '' }, fileName, body)
  const problems = formatProblems(file, 'handoff', { projectDir: CWD })
  if (problems.length > 0) return { kind: 'refused', replyChars: body.length, problems }
  const relPath = `${FORK_HANDOFF_DIR}/${fileName}`
  const { facts, words, shells } = recordedOf()
  const factsSection = stubFactsOf(facts, CWD, [relPath], file)
  const step = latestStepOf(messagesOf())
  const stub = buildForkStub({
    handoff: relPath,
    handoffText: file,
    words,
    trigger: 'auto',
    isMidTurn: true,
    context: { running: { shells, agents: [] }, transcriptPath: TRANSCRIPT_PATH },
    ...(factsSection !== undefined ? { factsSection } : {}),
    ...(step !== undefined ? { latestStep: latestStepSectionOf(step) } : {}),
  })
  return { kind: 'stub', stub, file, fileName, replyChars: body.length, problems }
}

/** The one message a stand-in quiz model gets: the stub alone, then the numbered questions. */
export function quizInputOf(stub: string, facts: readonly PlantedFact[] = FACTS): string {
  return [
    'You are Claude Code, a coding agent, starting a fresh context. The message below is everything you have from the earlier conversation. Answer each numbered question from it alone, one line per answer, "<number>. <answer>", copying values exactly as they appear. Where the message does not say, answer "not stated".',
    '',
    '===== MESSAGE =====',
    stub,
    '',
    '===== QUESTIONS =====',
    ...facts.map((fact, i) => `${i + 1}. ${fact.question}`),
  ].join('\n')
}

/** What recall answers for `query` over the session's transcript: the product's own search,
 * over what the compaction took out (everything before the boundary). Masking is the identity,
 * as in builtOf. */
export function recallOf(transcript: string, query: string): string {
  return recallAnswerOf(transcript, query)
}

/** One call a recall quiz model made, as recall-cli.js logs it in runs/<n>/recall/<arm>.jsonl. */
export type RecallCall = { query: string; answer: string }

/** The command a recall quiz model runs, from the repository's root, to call recall. */
export function recallCommandOf(run: string, arm: Arm): string {
  return `node dist/tests/fork-eval/recall-cli.js ${run} ${arm} "<query>"`
}

/** The one message a stand-in quiz model of a recall arm gets: the stub, how to call recall (the
 * product's own search over the session's transcript), then the numbered questions. */
export function recallQuizInputOf(stub: string, run: string, arm: Arm, facts: readonly PlantedFact[] = FACTS): string {
  return [
    'You are Claude Code, a coding agent, starting a fresh context. The message below is everything you have from the earlier conversation, and you have one tool: recall (the message may name it mcp__compact-handoff__recall), which searches the earlier conversation and brings back the matching tool output and messages verbatim.',
    `Call recall by running this command from the repository's root, with your query in place of <query>: ${recallCommandOf(run, arm)}`,
    'A query is a few words you expect (all must occur, in any order and letter case), or an exact string in double quotes (inside single quotes for the shell). Call it as often as you need; it is the only command you may run, and you read no file.',
    'Answer each numbered question from the message and what recall brings back, one line per answer, "<number>. <answer>", copying values exactly as they appear. Where neither says, answer "not stated".',
    '',
    '===== MESSAGE =====',
    stub,
    '',
    '===== QUESTIONS =====',
    ...facts.map((fact, i) => `${i + 1}. ${fact.question}`),
  ].join('\n')
}

/** Compared without letter case, backticks, quotes' kind or runs of blanks. */
export function normalized(text: string): string {
  return text.toLowerCase().replace(/[`*]/g, '').replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim()
}

/** The answers by question number, from lines "<n>. <answer>" (or "<n>) …"); a later line for a number replaces an earlier one. */
export function answersOf(text: string): Map<number, string> {
  const answers = new Map<number, string>()
  for (const line of text.split('\n')) {
    const match = /^\s*(\d{1,3})[.)]\s*(.*)$/.exec(line)
    if (match) answers.set(Number(match[1]), match[2]!)
  }
  return answers
}

export type Grade = { id: string; where: PlantedFact['where']; isKnown: boolean; answer: string }

/** Each fact known or not: its answer holds one of the accepted values. Model-free and blind: it
 * reads the answers and the keys, never which prompt the stub came from. */
export function gradeOf(answerText: string, facts: readonly PlantedFact[] = FACTS): Grade[] {
  const answers = answersOf(answerText)
  return facts.map((fact, i) => {
    const answer = answers.get(i + 1) ?? ''
    const said = normalized(answer)
    return { id: fact.id, where: fact.where, isKnown: fact.accept.some((key) => said.includes(normalized(key))), answer }
  })
}

/** The share of facts known, overall and by where they appeared. */
export function scoreOf(grades: readonly Grade[]): Record<'all' | PlantedFact['where'], { known: number; of: number }> {
  const count = (list: readonly Grade[]) => ({ known: list.filter((g) => g.isKnown).length, of: list.length })
  return {
    all: count(grades),
    words: count(grades.filter((g) => g.where === 'words')),
    'tool-output': count(grades.filter((g) => g.where === 'tool-output')),
    'latest-step': count(grades.filter((g) => g.where === 'latest-step')),
  }
}

export type ArmResult = ReturnType<typeof scoreOf> & { grades: Grade[] }
export type Results = Partial<Record<Arm, ArmResult>>

/** Each arm's grade and score, from its quiz model's answers, in ARMS' order. */
export function resultsOf(answers: Partial<Record<Arm, string>>): Results {
  const results: Results = {}
  for (const arm of ARMS) {
    const text = answers[arm]
    if (text === undefined) continue
    const grades = gradeOf(text)
    results[arm] = { ...scoreOf(grades), grades }
  }
  return results
}

/** results.json: every answer and its verdict. */
export function resultsJsonOf(results: Results): string {
  return `${JSON.stringify(results, null, 2)}\n`
}

/** results.md: the score of each arm overall and by where the fact was, and the facts it missed;
 * then, for each recall arm, how many times its quiz model called recall (`calls`, from
 * recall/<arm>.jsonl). */
export function resultsTableOf(results: Results, calls: Partial<Record<Arm, number>> = {}): string {
  const cell = (s: { known: number; of: number }) => `${s.known}/${s.of} (${Math.round((100 * s.known) / Math.max(1, s.of))} %)`
  const rows = Object.entries(results).map(([arm, r]) => {
    const missed = r.grades.filter((g) => !g.isKnown).map((g) => g.id).join(', ') || 'none'
    return `| ${arm} | ${cell(r.all)} | ${cell(r.words)} | ${cell(r['tool-output'])} | ${cell(r['latest-step'])} | ${missed} |`
  })
  const callLines = Object.entries(calls).map(([arm, n]) => `${arm}: recall called ${n} ${n === 1 ? 'time' : 'times'} (recall/${arm}.jsonl)`)
  return ['| prompt | all facts | in the words | only in tool output | only in the latest step | missed |', '| --- | --- | --- | --- | --- | --- |', ...rows, ...(callLines.length > 0 ? ['', ...callLines] : []), ''].join('\n')
}

/** The calls a recall log holds (recall-cli.js writes one JSON line per call). */
export function recallCallsOf(log: string): RecallCall[] {
  return log.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as RecallCall)
}
