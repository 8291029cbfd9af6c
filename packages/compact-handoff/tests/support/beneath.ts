// The engine beneath the mod for kit tests, one group of events per function:
// each answers from the world's memory (world.ts) and records what it saw.
import type { On } from 'claude-code'
import { SKILL_PACK_COMMANDS, type WorldContext } from './world.js'

/** The credential shapes the engine's `$.session.redact` was seen to mask live
 * (2.1.332), each credential becoming `[REDACTED]`: what the kit's masking does. */
const CREDENTIALS: readonly RegExp[] = [
  /(Authorization:\s*Bearer\s+)[^\s"']+/gi,
  /(--password=)[^\s"']+/g,
  /(export\s+[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|KEY)[A-Z0-9_]*=)[^\s"']+/g,
  // From the `://` on: a scheme matched first backtracks over every long run of letters.
  /(:\/\/)[^\s:@/]+:[^\s@/]+(?=@)/g,
  /(AWS_SECRET_ACCESS_KEY=)[^\s"']+/g,
  // A GitHub token on its own, as the resume tests' handoff texts hold one.
  /()\bghp_[A-Za-z0-9]+/g,
  // A PEM private key block, BEGIN to END, and a bare JWT (seen masked whole, live).
  /()-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /()\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g,
  // A JSON password or private key value.
  /("(?:password|api_key|private_key)"\s*:\s*")(?:[^"\\]|\\.)*(?=")/gi,
]

/** The main loop's model, as `$.session.model()` answers in the kit. */
export const SESSION_MODEL = 'claude-session-model'

/** `text` as the kit's `$.session.redact` masks it, whatever its length (a
 * test's oracle for the masking of a whole text). */
export function kitMaskOf(text: string): string {
  return CREDENTIALS.reduce((masked, re) => masked.replace(re, '$1[REDACTED]'), text)
}

/** Where the kit's session keeps its transcript, unless a test says otherwise. */
export const TRANSCRIPT_PATH = '/home/me/.claude/projects/-srv-app/session-1.jsonl'

/** The engine's longest text to mask (its declarations): a longer one rejects. */
const MAX_REDACT_CHARS = 100_000

/** The most one `$.fs.read` answers (its declarations): a larger answer rejects. */
const MAX_READ_BYTES = 4 * 1_048_576

/** What the fake session answers: folder, usage, id, messages, agents, masking, and turns passing through. */
export function answerSession(on: On, ctx: WorldContext): void {
  on('session.redact', (_$, e) => {
    ctx.seen.redactions++
    if (ctx.options.refuseRedact || e.text.length > MAX_REDACT_CHARS) return { deny: `session.redact refused: ${e.text.length} characters` }
    return { value: kitMaskOf(e.text) }
  })
  on('session.start', (_$, e) => {
    // A new session's conversation holds none of the calls made before it.
    ctx.state.calls.length = 0
    return { cwd: e.cwd }
  })
  on('session.end', (_$, e) => {
    // /clear starts a fresh conversation.
    if (e.reason === 'clear') ctx.state.calls.length = 0
    return { sessionId: e.sessionId }
  })
  on('session.cwd', () => (ctx.options.refuseCwd ? { deny: 'session.cwd refused' } : { value: ctx.cwd }))
  on('session.root', () => ({ value: ctx.cwd }))
  // Only the field the mod reads; the kit does not check a value's shape.
  on('session.info', () => ({ value: { platform: ctx.options.platform ?? 'linux', transcriptPath: ctx.options.transcriptPath ?? TRANSCRIPT_PATH } as never }))
  on('session.usage', () => ({
    value: { startedAt: 0, context: { window: 200_000, ...(ctx.state.contextPercent === undefined ? {} : { percent: ctx.state.contextPercent }) }, rateLimits: [] },
  }))
  on('session.id', async () => {
    await ctx.pointReached('session.id')
    return { value: ctx.state.sessionId }
  })
  on('session.messages', () => {
    const earlier = ctx.options.transcript ?? Array.from({ length: ctx.options.messageCount ?? 0 }, () => ({ role: 'user' as const, text: 'earlier' }))
    return { value: [...earlier, ...ctx.state.calls] as never }
  })
  on('agent.list', () => ({
    // Only the fields the mod reads; the kit does not check a value's shape.
    value: [...(ctx.options.agentStatuses ?? []).map((status, i) => ({ id: `agent-${i}`, description: 'x', type: 'general', status })), ...(ctx.options.agents ?? [])] as never,
  }))
  on('classic.Stop', () => ({}))
  on('classic.StopFailure', () => ({}))
  on('session.model', () => ({ value: SESSION_MODEL }))
  // The skill's text as the engine computed it reaches the model unchanged.
  on('skill.prompt', (_$, e) => ({ text: e.text }))
  on('turn.start', (_$, e) => ({ turnId: e.turnId }))
  on('turn.complete', (_$, e) => ({ text: e.answer }))
}

/** Commands and prompts: listed, run and submitted, each recorded. */
export function answerCommands(on: On, ctx: WorldContext): void {
  on('command.register', (_$, e) => {
    ctx.seen.registered.push(e.name)
    if (e.isHidden === true) ctx.seen.hidden.push(e.name)
    return { value: { command: e.name } }
  })
  on('command.list', () => ({ value: ctx.options.commands ?? SKILL_PACK_COMMANDS }))
  on('command.run', async (_$, e) => {
    await ctx.pointReached('command.run')
    if (ctx.options.refuseCommandRun) throw new Error(`no command named /${e.command} in this session`)
    if (ctx.state.settlingRefusalsLeft > 0) {
      ctx.state.settlingRefusalsLeft--
      throw new Error('command.run: called from a command.run hook, it would wait on the turn this hook is holding')
    }
    ctx.seen.commandRuns.push({ command: e.command, args: e.args })
    return {}
  })
  on('prompt.submit', async (_$, e) => {
    if (e.origin.kind === 'plugin') await ctx.pointReached('prompt.submit')
    if (ctx.options.refuseSubmit) throw new Error('prompt.submit refused')
    ctx.seen.submits.push({ text: e.text, ...(e.origin.kind === 'plugin' && e.origin.asUser ? { asUser: true } : {}) })
    return { text: e.text }
  })
  on('prompt.read', () => ({ value: { text: ctx.state.box, cursor: ctx.state.box.length } }))
  on('prompt.fill', (_$, e) => {
    ctx.seen.fills.push(e.text)
    ctx.state.box = e.mode === 'replace' ? e.text : ctx.state.box + e.text
    return { isFilled: true }
  })
}

/** Toasts, the status line and transcript lines, recorded. */
export function answerUi(on: On, ctx: WorldContext): void {
  on('ui.toast', (_$, e) => {
    ctx.seen.toasts.push(e.text)
    return { value: undefined }
  })
  on('ui.status', (_$, e) => {
    ctx.seen.statusLines.push(e.text)
    return { value: undefined }
  })
  on('ui.log', (_$, e) => {
    ctx.seen.logs.push(e.text)
    return { value: undefined }
  })
}

/** The fake disk: stat, read, write and list, and git's answers about a file. */
export function answerFiles(on: On, ctx: WorldContext): void {
  on('fs.stat', async (_$, e) => {
    await ctx.pointReached('fs.stat')
    if (ctx.files.keyOf(e.path) === ctx.files.keyOf(ctx.cwd)) return { value: { kind: 'dir' as const, size: 0, mtimeMs: 0, isLink: false, realPath: ctx.cwd } }
    // As the engine answers with resolve: whether the path is itself a link, and where it lands (none for a dangling link or a loop).
    const reached = ctx.files.resolvedOf(e.path, false)
    const landed = ctx.files.resolvedOf(e.path, true)
    const isLink = reached === undefined || ctx.files.isLinkAt(reached)
    const kind = landed === undefined ? undefined : ctx.files.kindAt(landed)
    // Without resolve the answer is what the path leads to, so a dangling link is missing, as Node's stat has it.
    if (kind === undefined) return isLink && e.resolve ? { value: { kind: 'other' as const, size: 0, mtimeMs: 0, isLink: true } } : { deny: `stat ${e.path} failed: ENOENT` }
    const file = ctx.files.get(landed!)
    if (!file || kind === 'dir') return { value: { kind: 'dir' as const, size: 0, mtimeMs: 0, isLink, realPath: file?.realPath ?? ctx.files.spellingOf(landed!) ?? landed! } }
    // A file's real path is the spelling it was made with, wherever it is reached from.
    const realPath = file.realPath ?? ctx.files.spellingOf(landed!) ?? landed!
    return {
      value: { kind: file.kind ?? 'file', size: new TextEncoder().encode(file.text).length, mtimeMs: file.mtimeMs, isLink: isLink || file.realPath !== undefined, realPath },
    }
  })
  on('fs.write', async (_$, e) => {
    await ctx.pointReached('fs.write')
    // The engine's write follows every link, a dangling one to its target.
    const landed = ctx.files.resolvedOf(e.path, true)
    if (landed === undefined) return { deny: `write ${e.path} failed: ELOOP` }
    ctx.seen.writes.push(landed)
    if (ctx.options.isDiskFull === true && e.text !== '') {
      const had = ctx.files.get(landed)?.text.length ?? 0
      ctx.files.set(landed, { text: e.text.slice(0, had), mtimeMs: ctx.clock.now() })
      return { deny: `$.fs.write(${e.path}) failed: ENOSPC` }
    }
    ctx.files.set(landed, { text: e.text, mtimeMs: ctx.clock.now() })
    return { value: undefined }
  })
  on('fs.list', (_$, e) => {
    const { separator } = ctx.files
    // As the engine lists: through a linked folder, the folder it leads to.
    const dir = ctx.files.keyOf(`${(ctx.files.resolvedOf(e.path ?? ctx.cwd, true) ?? '').replace(/[\\/]$/, '')}${separator}`)
    const entries = [...ctx.files].filter(([path]) => ctx.files.keyOf(path).startsWith(dir) && !ctx.files.keyOf(path).slice(dir.length).includes(separator))
    return { value: entries.map(([path, f]) => ({ name: path.slice(dir.length), kind: 'file' as const, size: new TextEncoder().encode(f.text).length, mtimeMs: f.mtimeMs, isLink: false })) }
  })
  // git as it answers: `ls-files --error-unmatch` exits 1 for a file it does
  // not track, a plain `ls-files` exits 0 and lists nothing; a folder git
  // refuses to read exits 128 to every question; a missing git never starts.
  on('process.run', (_$, e) => {
    // rm as it answers: the link or file named, never what a link leads to, and exit 0 when nothing is there.
    if (e.argv[0] === 'rm') {
      if (ctx.options.hasNoRm === true) return { deny: 'spawn rm ENOENT' }
      ctx.files.delete(ctx.files.resolvedOf(e.argv.at(-1) ?? '', false) ?? '')
      return { value: { exitCode: 0, stdout: '', stderr: '', isStdoutTruncated: false, isStderrTruncated: false } }
    }
    if (ctx.options.git === 'missing') return { deny: `spawn ${e.argv[0]} ENOENT` }
    const ran = { isStdoutTruncated: false, isStderrTruncated: false }
    if (ctx.options.git === 'dubious') {
      return { value: { ...ran, exitCode: 128, stdout: '', stderr: `fatal: detected dubious ownership in repository at '${ctx.cwd}'\n` } }
    }
    const relPath = e.argv.at(-1) ?? ''
    const author = ctx.options.gitTracked?.[relPath]
    ctx.seen.gitCalls.push(e.argv.join(' '))
    if (e.argv.includes('ls-files')) {
      if (author !== undefined) return { value: { ...ran, exitCode: 0, stdout: `${relPath}${e.argv.includes('-z') ? '\0' : '\n'}`, stderr: '' } }
      const isErrorUnmatch = e.argv.includes('--error-unmatch')
      return { value: { ...ran, exitCode: isErrorUnmatch ? 1 : 0, stdout: '', stderr: isErrorUnmatch ? `error: pathspec '${relPath}' did not match any file(s) known to git\n` : '' } }
    }
    return { value: { ...ran, exitCode: 0, stdout: `${author ?? ''}\n`, stderr: '' } }
  })
  on('fs.read', async (_$, e) => {
    await ctx.pointReached('fs.read')
    const landed = ctx.files.resolvedOf(e.path, true)
    const file = landed === undefined ? undefined : ctx.files.get(landed)
    if (!file) return { deny: `read ${e.path} failed: ENOENT` }
    ctx.seen.reads.push({ path: e.path, ...(e.offset !== undefined ? { offset: e.offset } : {}), ...(e.length !== undefined ? { length: e.length } : {}) })
    // As the engine reads: a range of bytes (a cut character becomes U+FFFD as text, or base64), and an answer over 4 MiB rejects.
    const bytes = bytesOf(file)
    const start = Math.min(e.offset ?? 0, bytes.length)
    const end = e.length === undefined ? bytes.length : Math.min(bytes.length, start + e.length)
    if (end - start > MAX_READ_BYTES) return { deny: `read ${e.path} failed: the answer would be over 4 MiB` }
    if (e.as === 'bytes') return { value: { base64: base64Of(bytes.subarray(start, end)) } }
    return { value: start === 0 && end === bytes.length ? file.text : new TextDecoder().decode(bytes.subarray(start, end)) }
  })
}

/** A file's bytes, encoded once per text (a 50 MB transcript is read in many ranges). */
const encoded = new WeakMap<object, Uint8Array>()
function bytesOf(file: { text: string }): Uint8Array {
  const known = encoded.get(file)
  if (known !== undefined) return known
  const bytes = new TextEncoder().encode(file.text)
  encoded.set(file, bytes)
  return bytes
}

function base64Of(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/** The engine's limit on the store's whole JSON text (seen live, 2.1.332). */
export const STORE_LIMIT_CHARS = 4 * 1024 * 1024

/** The engine's longest key (seen live, 2.1.332): a longer one is refused by get, set and delete. */
export const STORE_KEY_LIMIT_CHARS = 256

/** The store's JSON text were `key` set to `value`. */
function storeCharsWith(store: ReadonlyMap<string, unknown>, key: string, value: unknown): number {
  return JSON.stringify(Object.fromEntries([...store, [key, value]])).length
}

/** The engine's refusal of a key past its limit, in its words; none for a key within it. */
function keyRefusalOf(event: 'get' | 'set' | 'delete', key: string): { deny: string } | undefined {
  return key.length > STORE_KEY_LIMIT_CHARS ? { deny: `$.store.${event}: the key is ${key.length} characters, over the ${STORE_KEY_LIMIT_CHARS} limit` } : undefined
}

/** The mod's own store, kept across sessions: a map the test can look into,
 * with the engine's own limits on a key and on the whole. */
export function answerStore(on: On, ctx: WorldContext): void {
  on('store.get', (_$, e) => keyRefusalOf('get', e.key) ?? { value: ctx.store.get(e.key) })
  on('store.set', (_$, e) => {
    const refused = keyRefusalOf('set', e.key)
    if (refused !== undefined) return refused
    const value = JSON.parse(JSON.stringify(e.value)) as unknown
    // As the engine does: once the whole store would pass its limit, every set is refused.
    const chars = storeCharsWith(ctx.store, e.key, value)
    if (chars > STORE_LIMIT_CHARS) return { deny: `$.store.set: the store would be ${chars} characters, over the ${STORE_LIMIT_CHARS} limit` }
    ctx.seen.storeSets.push(e.key)
    ctx.store.set(e.key, value)
    return { value: undefined }
  })
  on('store.delete', (_$, e) => {
    const refused = keyRefusalOf('delete', e.key)
    if (refused !== undefined) return refused
    ctx.store.delete(e.key)
    return { value: undefined }
  })
  on('store.keys', () => ({ value: [...ctx.store.keys()] }))
}

/** Where the engine keeps the session's plan in plan mode (its plans folder). */
export const PLAN_FILE = '/home/me/.claude/plans/quiet-plan.md'

/** Where the engine makes the worktrees EnterWorktree enters. */
export const WORKTREES_FOLDER = '/srv/app/.claude/worktrees'

/** Tool calls: the question dialog, refused and failed calls, and a shell command that fails. */
export function answerTools(on: On, ctx: WorldContext): void {
  on('tool.register', (_$, e) => {
    if (ctx.options.refuseToolRegister) return { deny: 'tool.register refused' }
    ctx.seen.tools.push({ name: e.name, description: e.description, ...(e.isDeferred !== undefined ? { isDeferred: e.isDeferred === true } : {}) })
    return { value: { tool: `mcp__compact-handoff__${e.name}` } }
  })
  // The main loop's calls go into the conversation, answered, as the engine's transcript holds them.
  on('tool.call', (_$, e) => {
    const answer = toolAnswerOf(e)
    if (e.agentId === undefined && e.tool !== 'AskUserQuestion') ctx.state.calls.push(callMessageOf(e, answer, ctx.state.calls.length))
    return answer
  })
  function toolAnswerOf(e: Parameters<Parameters<typeof on<'tool.call'>>[1]>[1]) {
    // $.ui.ask raises the engine's question dialog as this tool.
    if (e.tool === 'AskUserQuestion') {
      const question = e.questions[0]!
      ctx.seen.asks.push(question.question)
      if (ctx.options.askAnswer === undefined || ctx.options.askAnswer === 'dismiss') return { deny: 'dismissed' }
      return { result: { questions: e.questions, answers: { [question.question]: ctx.options.askAnswer } } }
    }
    // ExitPlanMode approved: the engine answers with the plan file's text and path.
    if (e.tool === 'ExitPlanMode') return { result: { plan: ctx.options.plan ?? null, isAgent: e.agentId !== undefined, filePath: PLAN_FILE } }
    // EnterWorktree makes a worktree under .claude/worktrees and moves the session there; ExitWorktree moves it back.
    if (e.tool === 'EnterWorktree') return { result: { worktreePath: `${WORKTREES_FOLDER}/${e.name ?? 'w'}`, worktreeBranch: `worktree-${e.name ?? 'w'}`, message: 'Entered the worktree.' } }
    if (e.tool === 'ExitWorktree') return { result: { action: e.action, originalCwd: '/srv/app', worktreePath: `${WORKTREES_FOLDER}/w`, message: 'Left the worktree.' } }
    // ToolSearch with "select:A,B" loads A and B, as the engine answers.
    if (e.tool === 'ToolSearch') return { result: { matches: e.query.replace(/^select:/, '').split(','), query: e.query, total_deferred_tools: 13 } }
    const path = 'file_path' in e ? String(e.file_path) : ''
    if (ctx.options.refusedPaths?.includes(path)) return { deny: 'refused by a permission rule' }
    if (ctx.options.failedPaths?.includes(path)) return { isError: true as const, result: 'File does not exist.', text: 'File does not exist.' }
    // A command run in the background is answered at once with its task's id, as the engine answers.
    if (e.tool === 'Bash' && e.run_in_background === true) {
      const backgroundTaskId = `b${ctx.seen.backgroundShells.length + 1}`
      ctx.seen.backgroundShells.push(backgroundTaskId)
      return { result: { stdout: '', stderr: '', interrupted: false, backgroundTaskId } }
    }
    // An Edit changes the file on the fake disk and reports what it held before, as the engine's Edit does.
    if (e.tool === 'Edit') {
      const before = ctx.files.get(path)
      if (before === undefined || !before.text.includes(e.old_string)) return { isError: true as const, result: 'String to replace not found in file.', text: 'String to replace not found in file.' }
      ctx.files.set(path, { text: before.text.replace(e.old_string, () => e.new_string), mtimeMs: ctx.clock.now() })
      return { result: { filePath: path, oldString: e.old_string, newString: e.new_string, originalFile: before.text, structuredPatch: [], userModified: false, replaceAll: false } }
    }
    // A shell command whose line starts with "fail" exits 1, as the engine reports it.
    if (e.tool === 'Bash' && 'command' in e && String(e.command).startsWith('fail')) return { isError: true as const, result: 'Exit code 1', text: 'Exit code 1\nfailed' }
    return { result: { type: 'create', filePath: 'file_path' in e ? String(e.file_path) : '' } }
  }
}

type CallAnswer = { deny?: string; result?: unknown; text?: string; isError?: true }

/** A main-loop call as the conversation holds it once answered: an assistant
 * message with the call, its input and its outcome (a refusal as an error). */
function callMessageOf(e: { tool: string; agentId?: string; tool_use_id?: string }, answer: CallAnswer, index: number) {
  const { tool, agentId: _agentId, tool_use_id: id, ...input } = e as { tool: string; agentId?: string; tool_use_id?: string } & Record<string, unknown>
  const outcome =
    answer.deny !== undefined
      ? { result: answer.deny, text: answer.deny, isError: true as const }
      : { result: answer.result, text: answer.text ?? (typeof answer.result === 'string' ? answer.result : 'done'), ...(answer.isError === true ? { isError: true as const } : {}) }
  return { role: 'assistant' as const, text: '', toolUses: [{ tool_use_id: id ?? `tu-${index + 1}`, tool, input, ...outcome }] }
}

/** The session's permission verdict: every call is allowed, as in the
 * bypassPermissions mode the real-session suite runs in, unless the test says
 * how the session answers a write under `.claude/` (the default mode asks:
 * a sensitive folder; a deny rule refuses). The kit raises this check for
 * the test's own tool calls too, before they run. */
export function answerPermissions(on: On, ctx: WorldContext): void {
  on('tool.check', (_$, e) => {
    const path = typeof e.input === 'object' && e.input !== null ? String((e.input as { file_path?: unknown }).file_path ?? '') : ''
    // In any letter case: the test asks whether the mod lifts the ask, so the session asks wherever a volume may fold case.
    const decision = /[\\/]\.claude[\\/]/i.test(path) ? (ctx.options.claudeFolderVerdict ?? 'allow') : ('allow' as const)
    ctx.seen.checks.push({ tool: e.tool, path, decision })
    return decision === 'allow' ? { decision } : { decision, ...ctx.options.claudeFolderWhy }
  })
}

/** The engine's own compaction: refused a set number of times, then a summary or a skip. */
export function answerCompaction(on: On, ctx: WorldContext): void {
  on('session.compact', async (_$, e) => {
    await ctx.pointReached('session.compact')
    ctx.seen.compactAttempts++
    if (ctx.state.refusalsLeft > 0) {
      ctx.state.refusalsLeft--
      throw new Error('a turn is running (t1); the conversation compacts between turns')
    }
    ctx.seen.compactions.push(e)
    if (ctx.options.engineCompact === 'skip') return { skip: 'a PreCompact hook blocked it' }
    return {
      messages: [{ role: 'user' as const, text: 'engine summary', toolUses: [] }],
      tokensBefore: 150_000,
      tokensAfter: 2_000,
      usage: { input_tokens: 150_000, output_tokens: 1_800, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    }
  })
}

/** The fork a `$.model.fork` makes: each call takes the next scripted answer
 * (a reply's text, a failure reason, or `reject` for a request the engine
 * refuses); with none left, there is nothing to fork. A `$.model.complete`
 * takes the next of its own answers the same way; with none left, an empty reply. */
export function answerModel(on: On, ctx: WorldContext): void {
  on('model.complete', (_$, e) => {
    ctx.seen.completes.push({ model: e.model, prompt: e.prompt, ...(e.maxTokens !== undefined ? { maxTokens: e.maxTokens } : {}), ...(e.timeoutMs !== undefined ? { timeoutMs: e.timeoutMs } : {}) })
    const answer = ctx.state.completes.shift() ?? { reason: 'empty-reply' as const }
    if (answer === 'reject') return { deny: 'model.complete refused: a blocked model' }
    const usage = { input_tokens: 40_000, output_tokens: 1_500, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }
    if (typeof answer === 'string') return { value: { isAnswered: true as const, text: answer, usage } }
    if (answer.reason === 'api-error') return { value: { isAnswered: false as const, reason: answer.reason, status: answer.status ?? null, error: answer.error ?? 'unknown', usage } }
    // A completion has nothing to fork: no answer beneath gives that reason.
    return { value: { isAnswered: false as const, reason: answer.reason === 'nothing-to-fork' ? 'empty-reply' : answer.reason, usage } }
  })
  on('model.fork', (_$, e) => {
    ctx.seen.forkPrompts.push(e.prompt)
    const answer = ctx.state.forks.shift() ?? { reason: 'nothing-to-fork' as const }
    if (answer === 'reject') return { deny: 'model.fork refused: a request of the wrong shape' }
    const usage = { input_tokens: 150_000, output_tokens: 1_500, cache_creation_input_tokens: 0, cache_read_input_tokens: 149_000 }
    if (typeof answer === 'string') return { value: { isAnswered: true as const, text: answer, usage } }
    if (answer.reason === 'nothing-to-fork') return { value: { isAnswered: false as const, reason: answer.reason } }
    if (answer.reason === 'api-error') return { value: { isAnswered: false as const, reason: answer.reason, status: answer.status ?? null, error: answer.error ?? 'unknown', usage } }
    return { value: { isAnswered: false as const, reason: answer.reason, usage } }
  })
}
