// The engine's compactions as the fork-handoff kit tests raise them, and what
// they look for afterwards. Not a test file: `claude plugin test` runs every
// *.test.ts it finds.
import type { Engine } from 'claude-code/testing'
import type { SessionMessage } from 'claude-code'
import { CWD, type World } from './world.js'
import { readFile, runCommand, submitPrompt } from './engine-calls.js'
import { startSession } from './flow.js'
import { handoffBody } from './texts.js'
import { formatProblems } from '../../hooks/format/handoff-format.js'
import { frontmatterOf } from '../../hooks/format/frontmatter.js'

/** The person's first request, recorded at prompt.submit. */
export const FIRST_WORDS = 'Rewrite the parser.\nDo not touch the public API of parse().'

/** A fork's reply that is the handoff alone. */
export const REPLY = handoffBody()

/** The file the clock's start (1,000,000 ms: 1970-01-01) names for REPLY's title. */
export const FORK_FILE = '.claude/handoffs/HANDOFF_parser-rewrite_1970-01-01.md'

/** The engine's summary, as the world beneath answers when it is reached. */
export const ENGINE_SUMMARY = { role: 'user', text: 'engine summary', toolUses: [] }

const user = (text: string, handle: string): SessionMessage => ({ role: 'user', text, toolUses: [], handle })
const assistant = (text: string, handle: string): SessionMessage => ({ role: 'assistant', text, toolUses: [], handle })

/** The Read and the failed command of sessionWithWork, as the conversation
 * holds them once answered (the facts are read from them). */
const WORK_CALLS: SessionMessage[] = [
  {
    role: 'assistant',
    text: '',
    toolUses: [
      { tool_use_id: 'tu-read-src/parser.ts', tool: 'Read', input: { file_path: `${CWD}/src/parser.ts` }, text: 'export function parse() {}' },
      { tool_use_id: 'tu-bash-fail', tool: 'Bash', input: { command: 'fail pnpm vitest run parser' }, text: 'Exit code 1\nfailed', isError: true },
    ],
    handle: 'h-calls',
  },
  {
    role: 'user',
    text: '',
    toolUses: [],
    toolResults: [
      { tool_use_id: 'tu-read-src/parser.ts', text: 'export function parse() {}', isError: false },
      { tool_use_id: 'tu-bash-fail', text: 'Exit code 1\nfailed', isError: true },
    ],
    handle: 'h-results',
  },
]

/** The transcript an automatic compaction hands over: in the middle of a
 * tool-call turn (tool results last), or at a prompt just typed (it is last). */
export const MID_TURN: SessionMessage[] = [
  user(FIRST_WORDS, 'h1'),
  ...WORK_CALLS,
  assistant('Reading the parser.', 'h2'),
  { role: 'user', text: '', toolUses: [], toolResults: [{ tool_use_id: 'tu-1', text: 'file contents', isError: false }], handle: 'h3' },
]
export const TYPED: SessionMessage = user('Now the CLI too, please.', 'h-typed')
export const AT_PROMPT: SessionMessage[] = [user(FIRST_WORDS, 'h1'), ...WORK_CALLS, assistant('The tokenizer is done.', 'h2'), TYPED]

/** A session that recorded the person's first request, a Read and a failed command. */
export async function sessionWithWork($: Engine): Promise<void> {
  await startSession($)
  await submitPrompt($, FIRST_WORDS)
  await readFile($, 'src/parser.ts')
  await runCommand($, 'fail pnpm vitest run parser')
}

/** The engine's automatic compaction of the main loop. */
export function compactAuto($: Engine, messages: SessionMessage[] = MID_TURN) {
  return $.session.compact({ trigger: 'auto', messages })
}

/** The person's /compact, with the words typed after it. */
export function compactSlash($: Engine, instructions?: string) {
  return $.session.compact({ trigger: 'manual', messages: AT_PROMPT.slice(0, -1), ...(instructions !== undefined ? { instructions } : {}) })
}

/** Every handoff file on the fake disk, relative to the session folder. */
export function handoffFiles(w: World): string[] {
  return [...w.files].map(([path]) => path.slice(CWD.length + 1)).filter((path) => /(^|\/)HANDOFF_[^/]*\.md$/.test(path))
}

/** The text of a file on the fake disk, relative to the session folder. */
export function fileText(w: World, relPath: string): string | undefined {
  return w.files.get(`${CWD}/${relPath}`)?.text
}

/** A handoff text's frontmatter fields, and whether it passes the format check. */
export function checkedHandoffOf(text: string | undefined) {
  return { fields: Object.fromEntries(frontmatterOf(text ?? '') ?? []), problems: formatProblems(text ?? '', 'handoff', { projectDir: CWD }) }
}
