/**
 * The past sessions behind the skill pack's eval cases (skills/evals/<case>/history.jsonl).
 * `claude plugin eval` resumes a case's `context.history_file` with `--resume`, so the model
 * under test meets the conversation as its own earlier turns and the case's prompt as the
 * next one; the case's scaffold.sh builds the matching repository (skills/evals/_project).
 *
 * Sessions are written as plain turns (in eval-histories.ts) and rendered here to transcript
 * lines: Claude Code 2.1.332 resumed a transcript of just `type`, `uuid`, `parentUuid`,
 * `sessionId`, `timestamp` and `message` entries (no `cwd`, no attachments) and sent it to the
 * model as the conversation so far. tests/skills/skill-evals.test.ts checks the committed files
 * against this rendering; run it with UPDATE=1 to rewrite them.
 *
 * This file also holds the facts the sessions, the scripted models and the graders must agree
 * on, so those can import them without pulling in the long session text.
 *
 * Pure: no file system.
 */

export interface PastToolCall {
  name: 'Bash' | 'Read' | 'Edit'
  input: Record<string, string>
  /** What the tool answered. */
  result: string
  isError?: boolean
}

export type PastTurn = { user: string } | { assistant: string; tools?: PastToolCall[] }

export interface PastSession {
  /** Transcript session id; any UUID-shaped string the resume accepts. */
  id: string
  /** ISO time of the first message; later entries follow a few seconds apart. */
  start: string
  turns: PastTurn[]
}

/** What the user asked for and ruled in these sessions, word for word; the graders look for them. */
export const USER_WORDS = {
  goal: 'Please fix it so the output follows RFC 4180.',
  standing: [
    'Do not change the signature of formatRow: other packages call it.',
    'Use the built-in node test runner only, no new dependencies.',
    'always run `node --test` before you tell me something works.',
  ],
  /** Given in the first message, taken back in the second: it must not reach Constraints. */
  withdrawn: 'Skip the CRLF line-break case for now, we can do it later.',
} as const

/** Claims the assistant made and never checked; a handoff must mark them [unverified]. */
export const UNVERIFIED_CLAIMS = {
  parseRow: 'parseRow in src/parse.js already handles quoted fields',
  readme: 'the README example still matches what formatRow prints',
} as const

/** `git log --oneline` of the repositories skills/evals/_project/csvkit.sh builds. */
export const COMMITS = {
  add: '1ede064 Add formatRow and parseRow',
  tests: '5f0536e Test formatRow on plain fields',
  roadmap: '89838c9 Add the roadmap',
  handoff: 'b36e897 Hand off the quoting work',
  quoting: 'f717c62 Quote fields per RFC 4180',
} as const

/** The handoff the continuation case's session started from (scaffolded, committed). */
export const PARENT_HANDOFF = 'plans/handoffs/HANDOFF_csv-quoting_2026-11-27.md'

/** Exact values the tool-output cases' sessions show only inside a tool's output, never in
 * the assistant's or the user's words: a handoff that paraphrases them loses them. */
export const TOOL_OUTPUT_VALUES = {
  /** A path seen only in `grep -rn` output. */
  grepPath: 'src/legacy/row-writer.js',
  /** The type checker's error code, its line and its message's prefix. */
  errorCode: 'TS2322',
  errorLine: "src/legacy/row-writer.js(31,7): error TS2322: Type 'number' is not assignable to type 'string'.",
  /** The failing CI run's id, the failing step and its exit status, seen only in `gh` output. */
  ciRunId: '8812345678',
  ciStep: 'pnpm run lint:types',
  ciExit: 'Process completed with exit code 2.',
  /** A path seen only in `ls` output. */
  lsPath: 'scripts/ci/check-types.sh',
} as const

/** The case folders in skills/evals (beside _project/, which they share). */
export const EVAL_CASES = [
  'handoff-plans-folder',
  'handoff-claude-folder',
  'handoff-compact-mode',
  'handoff-natural-request',
  'handoff-continuation',
  'handoffplan-phases',
  'handoff-tool-output-values',
  'handoff-ci-exit-status',
  'no-fire-question',
] as const

export type EvalCase = (typeof EVAL_CASES)[number]

/** One transcript line per message; tool calls become an assistant message and a user message of results. */
export function historyJsonl(session: PastSession): string {
  const lines: string[] = []
  let n = 0
  let parent: string | null = null
  let toolSeq = 0
  const base = Date.parse(session.start)
  const push = (type: 'user' | 'assistant', message: Record<string, unknown>): void => {
    n++
    const uuid = `${session.id.slice(0, 23)}-${n.toString(16).padStart(12, '0')}`
    const timestamp = new Date(base + n * 7_000).toISOString()
    lines.push(JSON.stringify({ type, uuid, parentUuid: parent, isSidechain: false, sessionId: session.id, timestamp, userType: 'external', message }))
    parent = uuid
  }
  for (const turn of session.turns) {
    if ('user' in turn) {
      push('user', { role: 'user', content: turn.user })
      continue
    }
    const calls = (turn.tools ?? []).map((t) => ({ ...t, id: `toolu_hist_${String(++toolSeq).padStart(3, '0')}` }))
    push('assistant', {
      id: `msg_hist_${n + 1}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-5-5',
      content: [{ type: 'text', text: turn.assistant }, ...calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input }))],
      stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    })
    if (calls.length === 0) continue
    push('user', {
      role: 'user',
      content: calls.map((c) => ({ type: 'tool_result', tool_use_id: c.id, content: c.result, is_error: c.isError === true })),
    })
  }
  return lines.join('\n') + '\n'
}
