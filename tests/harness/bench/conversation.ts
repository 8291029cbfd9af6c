/**
 * The bench's scripted conversation: typed prompts whose replies chain Read tool_uses of
 * large generated files and end in long answers, the same follow-up after either kind of
 * compaction, and the rediscovery meter's count of it.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { swapLogRawLines } from '../swap-logs.js'
import { handoffFileText } from '../handoff-script.js'
import { startMockApi, type MockApi, type MockRequest, type ScriptedReply } from '../mock-api.js'
import { pollUntil } from '../poll.js'
import { carriesToolResult } from '../request-messages.js'
import type { RunDir } from '../run-dir.js'
import type { Session } from '../tmux-session.js'

/** Typed prompts of the scripted conversation, and Read tool calls per prompt. */
export const PROMPTS = 3
export const READS_PER_PROMPT = 8
const FILE_LINES = 200
const ANSWER_PARAGRAPHS = 24
export const FOCUS = 'finish the parser'
export const FOLLOW_UP = 'Carry on with the parser from where we were'

/** The mock of a run over this conversation. Its summary is the handoff the skill writes
 * for FOCUS, so a summary, a fork and the skill all carry the same content. */
export function startConversationMock(run: RunDir): Promise<MockApi> {
  return startMockApi({ logFile: join(run.dir, 'mock.jsonl'), summary: handoffFileText({ focus: FOCUS }), timeLimitMs: 5 * 60_000 })
}
/** Modules the scripted follow-up reads again after either kind of compaction; each is
 * one of the PROMPTS × READS_PER_PROMPT modules conversationScript wrote and read. */
export const REREAD_MODULES = [3, 17]

export function bigFileText(file: number): string {
  const lines: string[] = [`// module ${file}: generated for the bench`]
  for (let j = 0; j < FILE_LINES; j++) {
    const word = ((file * 7919 + j * 104729) >>> 0).toString(36)
    lines.push(`export const value_${file}_${j} = compute('${word}', ${j}, { retries: ${j % 5}, label: 'entry-${word}-${j}' })`)
  }
  return lines.join('\n') + '\n'
}

export function longAnswer(prompt: number): string {
  const paras: string[] = [`Summary of pass ${prompt + 1}:`]
  for (let p = 0; p < ANSWER_PARAGRAPHS; p++) {
    paras.push(
      `- Module ${prompt * READS_PER_PROMPT + (p % READS_PER_PROMPT)}: the values are computed through compute() with a retry count between 0 and 4; ` +
        `label ${p} follows the entry-<word>-<n> scheme and the parser must keep these call shapes intact while binary operators are added.`,
    )
  }
  // haveConversation waits for this line on screen.
  paras.push(`End of pass ${prompt + 1}.`)
  return paras.join('\n')
}

function promptText(prompt: number): string {
  return `Pass ${prompt + 1}: read the next modules and tell me what the parser must preserve`
}

function modulePath(proj: string, file: number): string {
  return join(proj, 'src', `module-${String(file).padStart(2, '0')}.ts`)
}

/** Writes the files the Reads read; returns the scripted replies of every prompt. The
 * last answer reports `lastInputTokens` when given (to force an automatic compaction). */
function conversationScript(proj: string, lastInputTokens?: number): ScriptedReply[][] {
  mkdirSync(join(proj, 'src'), { recursive: true })
  const script: ScriptedReply[][] = []
  for (let p = 0; p < PROMPTS; p++) {
    const replies: ScriptedReply[] = []
    let previous: string | undefined
    for (let r = 0; r < READS_PER_PROMPT; r++) {
      const file = p * READS_PER_PROMPT + r
      writeFileSync(modulePath(proj, file), bigFileText(file))
      const id = `toolu_bench_read_${file}`
      const prev = previous
      replies.push({ when: prev === undefined ? promptText(p) : (q) => carriesToolResult(q, prev), toolUses: [{ id, name: 'Read', input: { file_path: modulePath(proj, file) } }] })
      previous = id
    }
    const last = previous
    const usage = p === PROMPTS - 1 && lastInputTokens !== undefined ? { inputTokens: lastInputTokens } : {}
    replies.push({ when: (q) => last !== undefined && carriesToolResult(q, last), text: longAnswer(p), ...usage })
    script.push(replies)
  }
  return script
}

/** The same scripted follow-up after `/compact` and after the swap: the next
 * context reads two modules read before, and the answer follows. */
export function followUpScript(when: string, proj: string): ScriptedReply[] {
  const ids = REREAD_MODULES.map((m) => `toolu_bench_reread_${m}_${Date.now().toString(36)}`)
  const reads: ScriptedReply[] = REREAD_MODULES.map((m, i) => ({
    when: i === 0 ? when : (q) => carriesToolResult(q, ids[i - 1]!),
    toolUses: [{ id: ids[i]!, name: 'Read', input: { file_path: modulePath(proj, m) } }],
  }))
  // meterCounts waits for this answer on screen.
  return [...reads, { when: (q) => carriesToolResult(q, ids.at(-1)!), text: 'Continuing.' }]
}

/** The meter's line for the window after the swap or `/compact`: asked for with
 * /compact-handoff status, which closes the window and logs it. */
export async function meterCounts(session: Session, proj: string): Promise<{ reReads: number; repeatedCommands: number }> {
  await session.waitForScreen(/Continuing\./, 30_000)
  await session.type('/compact-handoff status')
  const entry = await pollUntil('the follow-up line', 15_000, () => {
    const lines = swapLogRawLines(proj).filter((l) => l.includes('"meter"'))
    return lines.length > 0 ? (JSON.parse(lines.at(-1)!) as { reReads: string[]; repeatedCommands: string[] }) : undefined
  })
  return { reReads: entry.reReads.length, repeatedCommands: entry.repeatedCommands.length }
}

/** Types every prompt of the conversation and waits for each turn to end; returns its
 * last request. `lastInputTokens` is the usage the last answer reports; `modId` is the
 * mod whose turn.complete hook settles each turn. */
export async function haveConversation(session: Session, mock: MockApi, proj: string, lastInputTokens?: number, modId = 'compact-handoff@inline'): Promise<MockRequest> {
  for (const [p, replies] of conversationScript(proj, lastInputTokens).entries()) {
    mock.script(...replies)
    // The previous turn has settled, so any turn.complete after this mark is this turn's.
    const mark = session.logMark()
    await session.type(promptText(p))
    await pollUntil(`pass ${p + 1} to finish`, 90_000, () => (mock.pending() === 0 ? true : undefined), 50)
    await session.waitForScreen(new RegExp(`End\\s+of\\s+pass\\s+${p + 1}\\.`), 30_000)
    // The turn has settled (compact-handoff's turn.complete hook ran) before the next prompt or command.
    await session.waitForHookSettled(modId, 'turn.complete', { since: mark, timeoutMs: 30_000 })
  }
  const last = mock.requests.at(-1)
  if (last === undefined) throw new Error('no request seen')
  return last
}
