// The engine beneath the mod for kit tests: commands, files, usage, prompts,
// toasts and compactions answered from memory and recorded, plus a
// self-contained stand-in for compact-handoff-answer (a kit test cannot import
// the partner mod's files, which sit outside this plugin's folder).
import { mock, type Engine } from 'claude-code/testing'
import type { On, SessionCompactInput } from 'claude-code'
import { parseSkillArgs } from '../hooks/protocol.js'

export const CWD = '/srv/app'
export const HANDOFF = 'plans/handoffs/HANDOFF_parser_2026-11-29.md'
export const PLAN = 'plans/handoffs/PLAN_parser_2026-11-29.md'
export const SKILL_PACK_COMMANDS = [
  { name: 'compact-handoff-skills:handoff', description: 'handoff', source: 'plugin' as const, plugin: 'compact-handoff-skills' },
  { name: 'compact-handoff-skills:handoffplan', description: 'plan', source: 'plugin' as const, plugin: 'compact-handoff-skills' },
]

/** Stands in for compact-handoff-answer: answers a marked compaction with its
 * stub, so the engine beneath is never reached. Self-contained, as the kit requires. */
export const ANSWER_STAND_IN = {
  name: 'answer-stand-in',
  register(on: On) {
    on('session.compact', async (_$, e, next) => {
      const [first, ...rest] = (e.instructions ?? '').split('\n')
      const isOurs = first === 'compact-handoff:v1' && e.agentId === undefined
      return isOurs ? { messages: [{ role: 'user' as const, text: rest.join('\n'), toolUses: [] }] } : next(e)
    })
  },
}

export type DiskFile = { text: string; mtimeMs: number; realPath?: string; kind?: 'file' | 'dir' | 'other' }

export type WorldOptions = {
  commands?: { name: string; description: string; source: 'plugin' | 'builtin' | 'user' | 'mcp'; plugin?: string }[]
  /** How many compaction attempts the engine refuses before it takes one. */
  compactRefusals?: number
  /** What the engine's own compaction answers when it is reached. */
  engineCompact?: 'summarize' | 'skip'
  contextPercent?: number
  /** Whether running the skill's command and submitting prompts are refused. */
  refuseCommandRun?: boolean
  refuseSubmit?: boolean
  /** Whether the engine refuses to say the session's folder (a broken engine call). */
  refuseCwd?: boolean
  /** Tool calls on these absolute paths are refused (a deny), or fail (an error). */
  refusedPaths?: string[]
  failedPaths?: string[]
  /** Files git tracks (relative paths), with who last committed each. */
  gitTracked?: Record<string, string>
  /** What the person answers when asked; 'dismiss' closes the question. */
  askAnswer?: string
  /** How many messages the conversation holds at start (a resumed one has some). */
  messageCount?: number
  /** Subagents the engine lists, by status. */
  agentStatuses?: ('running' | 'pending' | 'completed' | 'idle')[]
  files?: Record<string, DiskFile>
}

/** Engine calls a test may step into: the interjection runs while the mod's
 * call waits on the engine, as a person typing at that moment would. */
export type AwaitPoint = 'fs.stat' | 'fs.read' | 'command.run' | 'session.compact' | 'prompt.submit' | 'fs.write'

export function world(on: On, options: WorldOptions = {}) {
  const clock = mock.clock(on, { now: 1_000_000 })
  const files = new Map<string, DiskFile>(Object.entries(options.files ?? {}))
  const seen = {
    toasts: [] as string[],
    statuses: [] as (string | undefined)[],
    logs: [] as string[],
    commandRuns: [] as { command: string; args: string }[],
    submits: [] as { text: string; asUser?: boolean }[],
    fills: [] as string[],
    compactions: [] as SessionCompactInput[],
    asks: [] as string[],
    compactAttempts: 0,
  }
  const state = { contextPercent: options.contextPercent, refusalsLeft: options.compactRefusals ?? 0 }
  let interjection: { at: AwaitPoint; nth: number; action: () => Promise<unknown> } | undefined
  const calls = new Map<AwaitPoint, number>()
  /** Runs the pending interjection when the mod's `nth` call (from 1) at `at` arrives. */
  async function pointReached(at: AwaitPoint): Promise<void> {
    const count = (calls.get(at) ?? 0) + 1
    calls.set(at, count)
    if (interjection?.at !== at || interjection.nth !== count) return
    const { action } = interjection
    interjection = undefined
    await action()
  }

  on('session.start', (_$, e) => ({ cwd: e.cwd }))
  on('session.end', (_$, e) => ({ sessionId: e.sessionId }))
  on('command.register', (_$, e) => ({ value: { command: e.name } }))
  on('command.list', () => ({ value: options.commands ?? SKILL_PACK_COMMANDS }))
  on('command.run', async (_$, e) => {
    await pointReached('command.run')
    if (options.refuseCommandRun) throw new Error(`no command named /${e.command} in this session`)
    seen.commandRuns.push({ command: e.command, args: e.args })
    return {}
  })
  on('prompt.submit', async (_$, e) => {
    if (e.origin.kind === 'plugin') await pointReached('prompt.submit')
    if (options.refuseSubmit) throw new Error('prompt.submit refused')
    seen.submits.push({ text: e.text, ...(e.origin.kind === 'plugin' && e.origin.asUser ? { asUser: true } : {}) })
    return { text: e.text }
  })
  on('prompt.fill', (_$, e) => {
    seen.fills.push(e.text)
    return { isFilled: true }
  })
  on('ui.toast', (_$, e) => {
    seen.toasts.push(e.text)
    return { value: undefined }
  })
  on('ui.status', (_$, e) => {
    seen.statuses.push(e.text)
    return { value: undefined }
  })
  on('ui.log', (_$, e) => {
    seen.logs.push(e.text)
    return { value: undefined }
  })
  on('session.cwd', () => (options.refuseCwd ? { deny: 'session.cwd refused' } : { value: CWD }))
  on('session.usage', () => ({
    value: { startedAt: 0, context: { window: 200_000, ...(state.contextPercent === undefined ? {} : { percent: state.contextPercent }) }, rateLimits: [] },
  }))
  on('fs.stat', async (_$, e) => {
    await pointReached('fs.stat')
    if (e.path === CWD) return { value: { kind: 'dir' as const, size: 0, mtimeMs: 0, isLink: false, realPath: CWD } }
    const file = files.get(e.path)
    if (!file) return { deny: `stat ${e.path} failed: ENOENT` }
    const realPath = file.realPath ?? e.path
    return {
      value: { kind: file.kind ?? 'file', size: new TextEncoder().encode(file.text).length, mtimeMs: file.mtimeMs, isLink: realPath !== e.path, realPath },
    }
  })
  on('fs.write', async (_$, e) => {
    await pointReached('fs.write')
    files.set(e.path, { text: e.text, mtimeMs: clock.now() })
    return { value: undefined }
  })
  on('session.id', () => ({ value: 'session-1' }))
  on('fs.list', (_$, e) => {
    const dir = `${(e.path ?? CWD).replace(/\/$/, '')}/`
    const entries = [...files].filter(([path]) => path.startsWith(dir) && !path.slice(dir.length).includes('/'))
    return { value: entries.map(([path, f]) => ({ name: path.slice(dir.length), kind: 'file' as const, size: f.text.length, mtimeMs: f.mtimeMs, isLink: false })) }
  })
  on('process.run', (_$, e) => {
    const relPath = e.argv.at(-1) ?? ''
    const author = options.gitTracked?.[relPath]
    const ran = { stderr: '', isStdoutTruncated: false, isStderrTruncated: false }
    if (e.argv[1] === 'ls-files') return { value: { ...ran, exitCode: author === undefined ? 1 : 0, stdout: '' } }
    return { value: { ...ran, exitCode: 0, stdout: `${author ?? ''}\n` } }
  })
  on('session.messages', () => ({ value: Array.from({ length: options.messageCount ?? 0 }, () => ({ role: 'user', text: 'earlier' })) as never }))
  on('agent.list', () => ({
    // Only the fields the mod reads; the kit does not check a value's shape.
    value: (options.agentStatuses ?? []).map((status, i) => ({ id: `agent-${i}`, description: 'x', type: 'general', status })) as never,
  }))
  on('fs.read', async (_$, e) => {
    await pointReached('fs.read')
    const file = files.get(e.path)
    return file ? { value: file.text } : { deny: `read ${e.path} failed: ENOENT` }
  })
  on('tool.call', (_$, e) => {
    // $.ui.ask raises the engine's question dialog as this tool.
    if (e.tool === 'AskUserQuestion') {
      const question = e.questions[0]!
      seen.asks.push(question.question)
      if (options.askAnswer === undefined || options.askAnswer === 'dismiss') return { deny: 'dismissed' }
      return { result: { questions: e.questions, answers: { [question.question]: options.askAnswer } } }
    }
    const path = 'file_path' in e ? String(e.file_path) : ''
    if (options.refusedPaths?.includes(path)) return { deny: 'refused by a permission rule' }
    if (options.failedPaths?.includes(path)) return { isError: true as const, result: 'File does not exist.', text: 'File does not exist.' }
    // A shell command whose line starts with "fail" exits 1, as the engine reports it.
    if (e.tool === 'Bash' && 'command' in e && String(e.command).startsWith('fail')) return { isError: true as const, result: 'Exit code 1', text: 'Exit code 1\nfailed' }
    return { result: { type: 'create', filePath: 'file_path' in e ? String(e.file_path) : '' } }
  })
  on('turn.start', (_$, e) => ({ turnId: e.turnId }))
  on('turn.complete', (_$, e) => ({ text: e.answer }))
  on('session.compact', async (_$, e) => {
    await pointReached('session.compact')
    seen.compactAttempts++
    if (state.refusalsLeft > 0) {
      state.refusalsLeft--
      throw new Error('a turn is running (t1); the conversation compacts between turns')
    }
    seen.compactions.push(e)
    if (options.engineCompact === 'skip') return { skip: 'a PreCompact hook blocked it' }
    return {
      messages: [{ role: 'user' as const, text: 'engine summary', toolUses: [] }],
      tokensBefore: 150_000,
      tokensAfter: 2_000,
      usage: { input_tokens: 150_000, output_tokens: 1_800, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    }
  })

  return {
    clock,
    seen,
    files,
    /** From now on, the mod's `nth` engine call at `at` first waits for `action`. */
    interjectAt(at: AwaitPoint, nth: number, action: () => Promise<unknown>) {
      calls.clear()
      interjection = { at, nth, action }
    },
    setContextPercent(percent: number | undefined) {
      state.contextPercent = percent
    },
    /** Puts a file on the fake disk as the skill's Write would, stamped at the clock's now. */
    writeFile(relPath: string, text: string, extra: Partial<DiskFile> = {}) {
      files.set(`${CWD}/${relPath}`, { text, mtimeMs: clock.now(), ...extra })
    },
  }
}

export type World = ReturnType<typeof world>

const PRESENTATION = { isFullscreen: false, columns: 80 }

export function typeCommand($: Engine, command: string, args = '') {
  return $.command.run({ command, args, origin: { kind: 'composer' }, presentation: PRESENTATION })
}

/** The skill's Write, as the engine raises it on the main loop (or a subagent's). */
export function skillWrite($: Engine, relPath: string, content: string, agentId?: string) {
  return $.tool.call({ tool: 'Write', tool_use_id: `tu-${relPath}`, file_path: `${CWD}/${relPath}`, content, ...(agentId ? { agentId } : {}) })
}

/** A main-loop (or a subagent's) Read of `relPath`, as the engine raises it. */
export function readFile($: Engine, relPath: string, agentId?: string) {
  return $.tool.call({ tool: 'Read', tool_use_id: `tu-read-${relPath}`, file_path: `${CWD}/${relPath}`, ...(agentId ? { agentId } : {}) })
}

/** A main-loop shell command; one starting with "fail" exits 1. */
export function runCommand($: Engine, command: string) {
  return $.tool.call({ tool: 'Bash', tool_use_id: `tu-bash-${command}`, command })
}

/** A prompt as the engine raises it; `kind` is where it came from. */
export function submitPrompt($: Engine, text: string, kind: 'composer' | 'sdk' | 'bridge' | 'task-notification' = 'composer') {
  return $.prompt.submit({ text, wait: false, origin: { kind } })
}

/** The turn id the skill's turn carries in these tests; startTurn raises its start. */
export const SKILL_TURN = 't-skill'

/** A main-loop turn's start, with the text the engine shows the model: for a
 * command, its name and `<command-args>`; for a plugin's prompt, that prompt. */
export function startTurn($: Engine, text: string, turnId = SKILL_TURN) {
  return $.turn.start({ text, turnId })
}

export function endTurn($: Engine, answer: string, reason: 'answer' | 'aborted' | 'error' = 'answer', agentId?: string, turnId = SKILL_TURN) {
  return $.turn.complete({ answer, durationMs: 1200, isAborted: reason === 'aborted', turnId, reason, ...(agentId ? { agentId } : {}) })
}

export function handoffText(focus = 'finish the parser'): string {
  return [
    '---',
    'kind: handoff',
    'created: 2026-11-29T23:00:00Z',
    'status: in-progress',
    'chain: HANDOFF_parser_2026-11-29',
    'seq: 1',
    'parent: none',
    `focus: ${focus}`,
    '---',
    '',
    '# Handoff: parser rewrite',
    '',
    '## Goal',
    'The tokenizer and parser handle every fixture in tests/fixtures without the legacy regex path.',
    '## Constraints',
    '- "Do not touch the public API of parse()."',
    '## State',
    '- Tokenizer rewritten. Verified: `pnpm vitest run tokenizer` → 42 passed.',
    '- Parser error recovery: unverified.',
    '## In progress',
    'src/parser.ts: recoverFrom() handles ; but not } yet.',
    '## Tried and ruled out',
    '- A PEG grammar: too slow (3x on the big fixture).',
    '## Decisions',
    '- Hand-written recursive descent, because error messages need positions.',
    '## Open questions',
    'None',
    '## Files',
    '- src/parser.ts',
    '- src/tokenizer.ts',
    '## Next step',
    'Make recoverFrom() handle a closing brace, then run the parser suite.',
    '## Verify',
    '- `pnpm vitest run tokenizer` → 42 passed',
    '',
  ].join('\n')
}

export function planText(): string {
  return [
    '---',
    'kind: plan',
    'created: 2026-11-29T23:00:00Z',
    'chain: HANDOFF_parser_2026-11-29',
    'focus: finish the parser',
    '---',
    '',
    '# Plan: finish the parser',
    '',
    '## Goal',
    'Every fixture parses with the new recursive descent parser and the regex path is gone.',
    '## Phases',
    '### Phase 1: error recovery',
    '- Handle } in recoverFrom(); files: src/parser.ts; verify: `pnpm vitest run parser`.',
    '### Phase 2: remove the regex path',
    '- Delete src/legacy.ts; verify: `pnpm vitest run` all green.',
    '## Risks',
    '- Fixtures that relied on the regex quirks.',
    '',
  ].join('\n')
}

export function readyAnswer(paths: string[], prompt = 'Read the handoff and continue from its Next step.'): string {
  return [
    'Handoff written.',
    '',
    'PASTE THIS INTO YOUR NEXT SESSION:',
    '----------------------------------------',
    prompt,
    '----------------------------------------',
    `COMPACT-HANDOFF-READY: ${paths.join(' | ')}`,
  ].join('\n')
}

/** The skill runs the test saw, as command and focus: the values the mod adds
 * before the focus (run tag, created, chain, seq, parent) are checked apart. */
export function skillRunsOf(w: { seen: { commandRuns: { command: string; args: string }[] } }) {
  return w.seen.commandRuns.map((r) => ({ command: r.command, focus: parseSkillArgs(r.args)?.focus }))
}
