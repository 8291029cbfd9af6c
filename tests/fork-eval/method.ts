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
import { backgroundTaskIdOf, type RunningShell } from '../../packages/compact-handoff/hooks/running/running.js'
import { withUserMessage, NO_WORDS, type UserWords } from '../../packages/compact-handoff/hooks/words/user-words.js'
import { buildForkStub } from '../../packages/compact-handoff/hooks/stub/swap-text.js'
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

/** The time the fork's file is stamped with (the session's own day). */
const CREATED = '2026-12-01T09:40:00Z'
/** Where the engine keeps the transcript, as the stub names it. */
const TRANSCRIPT_PATH = '/home/dev/.claude/projects/-home-dev-ledger-sync/3f2c9e40.jsonl'

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
