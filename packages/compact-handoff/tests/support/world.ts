// The world beneath the mod for kit tests: its memory (files, what was seen,
// the clock) and the answers beneath (beneath.ts). The stand-in for
// compact-handoff-answer is answer-stand-in.ts.
import { mock } from 'claude-code/testing'
import type { On, SessionCompactInput } from 'claude-code'
import { answerCommands, answerCompaction, answerFiles, answerModel, answerPermissions, answerSession, answerStore, answerTools, answerUi } from './beneath.js'

export const CWD = '/srv/app'
export const HANDOFF = 'plans/handoffs/HANDOFF_parser_2026-11-29.md'
export const PLAN = 'plans/handoffs/PLAN_parser_2026-11-29.md'
export const SKILL_PACK_COMMANDS = [
  { name: 'compact-handoff-skills:handoff', description: 'handoff', source: 'plugin' as const, plugin: 'compact-handoff-skills' },
  { name: 'compact-handoff-skills:handoffplan', description: 'plan', source: 'plugin' as const, plugin: 'compact-handoff-skills' },
]

/** What one `$.model.fork` answers: the reply's text, why there is none, or
 * `reject` for a request the engine refuses. */
export type ForkAnswer =
  | string
  | 'reject'
  | { reason: 'nothing-to-fork' | 'empty-reply' | 'aborted' }
  | { reason: 'api-error'; status?: number | null; error?: 'invalid_request' | 'overloaded' | 'rate_limit' | 'server_error' | 'unknown' }

export type DiskFile = { text: string; mtimeMs: number; realPath?: string; kind?: 'file' | 'dir' | 'other' }

export type WorldOptions = {
  /** The session's folder: CWD unless the test needs another shape (a Windows one). */
  cwd?: string
  /** What `$.session.info()` says the engine runs on; 'windows' makes `/` and `\\` one separator on the fake disk. */
  platform?: 'linux' | 'macos' | 'windows'
  /** Whether the fake disk ignores letter case, as Windows' and macOS's do by default. */
  caseInsensitive?: boolean
  /** git not installed (its call rejects), or refusing the folder (exit 128, "dubious ownership"). */
  git?: 'missing' | 'dubious'
  commands?: { name: string; description: string; source: 'plugin' | 'builtin' | 'user' | 'mcp'; plugin?: string }[]
  /** How many compaction attempts the engine refuses before it takes one. */
  compactRefusals?: number
  /** What the engine's own compaction answers when it is reached. */
  engineCompact?: 'summarize' | 'skip'
  contextPercent?: number
  /** Whether running the skill's command and submitting prompts are refused. */
  refuseCommandRun?: boolean
  /** How many command runs and prompt submits are refused, as from a command hook still settling, before they are taken. */
  refusalsWhileSettling?: number
  refuseSubmit?: boolean
  /** Whether the engine refuses to say the session's folder (a broken engine call). */
  refuseCwd?: boolean
  /** Whether the engine's masking rejects every text (it rejects one it could not mask). */
  refuseRedact?: boolean
  /** The session's own verdict on a write under `.claude/`: allowed unless set (the default mode asks; a deny rule refuses). */
  claudeFolderVerdict?: 'ask' | 'deny'
  /** What else that verdict carries: the rule, hook or setting behind it, as the engine's verdict names them. */
  claudeFolderWhy?: { rule?: string; hook?: string; setting?: string }
  /** Tool calls on these absolute paths are refused (a deny), or fail (an error). */
  refusedPaths?: string[]
  failedPaths?: string[]
  /** The disk is full: as Claude Code's write on a full disk, a write truncates
   * or creates its file, keeps what fits in the blocks the file had (a new file
   * none) and rejects ENOSPC; writing nothing always works. */
  isDiskFull?: boolean
  /** The host has no `rm` (Windows): running it rejects. */
  hasNoRm?: boolean
  /** Files git tracks (relative paths), with who last committed each. */
  gitTracked?: Record<string, string>
  /** What the person answers when asked; 'dismiss' closes the question. */
  askAnswer?: string
  /** The plan file's text as ExitPlanMode reads it back at approval (PLAN_FILE); no plan unless set. */
  plan?: string
  /** How many messages the conversation holds at start (a resumed one has some). */
  messageCount?: number
  /** The conversation as `$.session.messages()` answers it (over messageCount); the same
   * array throughout, so a test can change it as a compaction would. */
  transcript?: { role: 'user' | 'assistant'; text: string }[]
  /** Subagents the engine lists, by status. */
  agentStatuses?: ('running' | 'pending' | 'completed' | 'idle')[]
  /** More subagents the engine lists, given whole. */
  agents?: { id: string; description: string; type: string; status: 'running' | 'pending' | 'waiting' | 'completed'; startTime: number; parentId?: string }[]
  /** The main conversation's transcript file (`$.session.info()`); '' for a session that keeps none. */
  transcriptPath?: string
  /** Whether the engine refuses `$.tool.register`. */
  refuseToolRegister?: boolean
  files?: Record<string, DiskFile>
  /** Symbolic links on the fake disk, by absolute path: what each points at
   * (absolute). A link to nothing is dangling; `$.fs.write` follows them all,
   * as the engine's does. */
  links?: Record<string, string>
  /** Folders that exist with nothing in them (a folder holding a file exists anyway). */
  folders?: string[]
  /** What the prompt box holds at start. */
  draft?: string
  /** What the mod's own store (`$.store`, kept across sessions) holds at the start. */
  store?: Record<string, unknown>
  /** What each `$.model.fork` answers, in order; past the list, nothing to fork. */
  forks?: ForkAnswer[]
  /** What each `$.model.complete` answers, in order (a reply, why there is none,
   * or `reject`); past the list, an empty reply. */
  completes?: ForkAnswer[]
}

/** The fake disk, keyed by path as the file system would key it: on Windows
 * `/` and `\\` are one separator, and letter case counts unless the test says
 * the file system ignores it. Each file keeps the spelling it was made with,
 * which is what it lists as and its real path. */
export class FakeDisk {
  private readonly byKey = new Map<string, { path: string; file: DiskFile }>()

  constructor(private readonly options: WorldOptions) {
    this.options = { ...options }
    for (const [path, file] of Object.entries(options.files ?? {})) this.set(path, file)
  }

  /** The one separator of this disk's paths. */
  get separator(): string {
    return this.options.platform === 'windows' ? '\\' : '/'
  }

  /** The kit runs on Linux, where `C:\\…` is a relative path that the host
   * resolves against its own folder before a hook beneath sees it; a Windows
   * host reads it as absolute, so a Windows disk reads the path from its drive
   * letter (or UNC start) on. */
  hostPathOf(path: string): string {
    return this.options.platform === 'windows' ? path.replace(/^\/[^\\]*?\/(?=[A-Za-z]:[\\/]|\\\\)/, '') : path
  }

  keyOf(path: string): string {
    const host = this.hostPathOf(path)
    const spelled = this.options.platform === 'windows' ? host.replace(/\//g, '\\') : host
    return this.options.caseInsensitive ? spelled.toLowerCase() : spelled
  }

  get(path: string): DiskFile | undefined {
    return this.byKey.get(this.keyOf(path))?.file
  }

  /** Writes the file; one that exists keeps the spelling it was made with. */
  set(path: string, file: DiskFile): void {
    const key = this.keyOf(path)
    this.byKey.set(key, { path: this.byKey.get(key)?.path ?? this.hostPathOf(path), file })
  }

  /** Removes the file, as `rm` would. */
  delete(path: string): void {
    this.byKey.delete(this.keyOf(path))
  }

  spellingOf(path: string): string | undefined {
    return this.byKey.get(this.keyOf(path))?.path
  }

  private splitOf(path: string): string[] {
    return this.hostPathOf(path).split(this.options.platform === 'windows' ? /[\\/]/ : '/')
  }

  /** `path` with the links on its way followed: every part's, the last one's
   * too with `isFollowingLast`; undefined on a loop. */
  resolvedOf(path: string, isFollowingLast: boolean): string | undefined {
    const links = new Map(Object.entries(this.options.links ?? {}).map(([link, target]) => [this.keyOf(link), target]))
    let parts = this.splitOf(path)
    for (let hops = 0; hops < 40; hops++) {
      const end = isFollowingLast ? parts.length : parts.length - 1
      let at = -1
      for (let i = 1; i < end && at < 0; i++) if (links.has(this.keyOf(parts.slice(0, i + 1).join(this.separator)))) at = i
      if (at < 0) return parts.join(this.separator)
      parts = [...this.splitOf(links.get(this.keyOf(parts.slice(0, at + 1).join(this.separator)))!), ...parts.slice(at + 1)]
    }
    return undefined
  }

  /** Makes `path` a link to `target`, as a clone or another process would. */
  link(path: string, target: string): void {
    this.options.links = { ...this.options.links, [path]: target }
  }

  /** Whether `path` (no link on it) is itself a link. */
  isLinkAt(path: string): boolean {
    return Object.keys(this.options.links ?? {}).some((link) => this.keyOf(link) === this.keyOf(path))
  }

  /** What a path with every link followed is: a file, a folder (one made
   * empty, or one holding a file), or nothing. */
  kindAt(resolved: string): 'file' | 'dir' | undefined {
    const key = this.keyOf(resolved)
    const entry = this.byKey.get(key)
    if (entry !== undefined) return entry.file.kind === 'dir' ? 'dir' : 'file'
    if ((this.options.folders ?? []).some((folder) => this.keyOf(folder) === key)) return 'dir'
    const below = `${key}${this.separator}`
    const links = Object.keys(this.options.links ?? {}).map((link) => this.keyOf(link))
    return [...this.byKey.keys(), ...links].some((k) => k.startsWith(below)) ? 'dir' : undefined
  }

  *[Symbol.iterator](): IterableIterator<[string, DiskFile]> {
    for (const { path, file } of this.byKey.values()) yield [path, file]
  }
}

/** Engine calls a test may step into: the interjection runs while the mod's
 * call waits on the engine, as a person typing at that moment would. */
export type AwaitPoint = 'fs.stat' | 'fs.read' | 'command.run' | 'session.compact' | 'prompt.submit' | 'fs.write' | 'session.id'

/** What the answers beneath share: the test's options, what was seen, the fake
 * disk and clock, and the interjection point. */
export type WorldContext = ReturnType<typeof contextOf>

function contextOf(on: On, options: WorldOptions) {
  const clock = mock.clock(on, { now: 1_000_000 })
  const cwd = options.cwd ?? CWD
  const files = new FakeDisk(options)
  const store = new Map<string, unknown>(Object.entries(options.store ?? {}))
  const seen = {
    toasts: [] as string[],
    statusLines: [] as (string | undefined)[],
    logs: [] as string[],
    /** The keys of the mod's `$.store.set` calls the store took, in order. */
    storeSets: [] as string[],
    /** The names of the commands the mod registered. */
    registered: [] as string[],
    /** Those of them registered hidden (out of the `/` menu). */
    hidden: [] as string[],
    commandRuns: [] as { command: string; args: string }[],
    submits: [] as { text: string; asUser?: boolean }[],
    fills: [] as string[],
    compactions: [] as SessionCompactInput[],
    asks: [] as string[],
    gitCalls: [] as string[],
    compactAttempts: 0,
    /** The session's own permission verdicts, as given beneath the mod. */
    checks: [] as { tool: string; path: string; decision: 'allow' | 'ask' | 'deny' }[],
    /** Texts handed to the engine's masking. */
    redactions: 0,
    /** The ids of the shells the engine moved to the background, in order. */
    backgroundShells: [] as string[],
    /** Every file read, with the byte range asked for. */
    reads: [] as { path: string; offset?: number; length?: number }[],
    /** The tools the mod registered (`$.tool.register`), by short name, in order. */
    tools: [] as { name: string; description: string; isDeferred?: boolean }[],
    /** Where each `$.fs.write` landed, links followed. */
    writes: [] as string[],
    /** The prompt of each `$.model.fork`. */
    forkPrompts: [] as string[],
    /** Each `$.model.complete` request, as the hooks beneath read it. */
    completes: [] as { model: string; prompt: string; maxTokens?: number; timeoutMs?: number }[],
  }
  const state = {
    contextPercent: options.contextPercent,
    refusalsLeft: options.compactRefusals ?? 0,
    settlingRefusalsLeft: options.refusalsWhileSettling ?? 0,
    /** The prompt box's draft, as fills leave it. */
    box: options.draft ?? '',
    /** The forks' answers still to give. */
    forks: [...(options.forks ?? [])],
    /** The completions' answers still to give. */
    completes: [...(options.completes ?? [])],
    /** What `$.session.id()` answers: another id is another session. */
    sessionId: 'session-1',
    /** The main loop's tool calls as the conversation holds them, one
     * assistant message each, after the test's own transcript (beneath.ts). */
    calls: [] as { role: 'assistant'; text: string; toolUses: { tool_use_id: string; tool: string; input: Record<string, unknown>; result?: unknown; text?: string; isError?: true }[] }[],
  }
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
  /** From now on, the mod's `nth` engine call at `at` first waits for `action`. */
  function interjectAt(at: AwaitPoint, nth: number, action: () => Promise<unknown>): void {
    calls.clear()
    interjection = { at, nth, action }
  }
  return { options, cwd, clock, files, store, seen, state, pointReached, interjectAt }
}

export function world(on: On, options: WorldOptions = {}) {
  const ctx = contextOf(on, options)
  const { clock, cwd, seen, files, store, state, interjectAt } = ctx
  for (const answer of [answerSession, answerCommands, answerUi, answerFiles, answerStore, answerTools, answerPermissions, answerCompaction, answerModel]) answer(on, ctx)

  return {
    cwd,
    clock,
    seen,
    files,
    store,
    interjectAt,
    /** The prompt box's draft now. */
    box: () => state.box,
    /** Puts `text` in the prompt box as the engine does, beneath every hook:
     * a dropped prompt put back, or the person typing. */
    putInBox(text: string) {
      state.box = text
    },
    setContextPercent(percent: number | undefined) {
      state.contextPercent = percent
    },
    /** From now on the engine is another session's (a new process in the same folder). */
    setSessionId(id: string) {
      state.sessionId = id
    },
    /** From now on the engine reports the session's folder spelled `spelled`:
     * another session's engine in the same folder (an editor's terminal may
     * give the drive letter another case). The fake disk's paths keep `cwd`. */
    setReportedCwd(spelled: string) {
      ctx.cwd = spelled
    },
    /** Puts a file on the fake disk as the skill's Write would, stamped at the clock's now. */
    writeFile(relPath: string, text: string, extra: Partial<DiskFile> = {}) {
      files.set(`${cwd}${files.separator}${relPath.split('/').join(files.separator)}`, { text, mtimeMs: clock.now(), ...extra })
    },
  }
}

export type World = ReturnType<typeof world>

/** The swap log this test's session writes (one file a session), as on the fake disk. */
export function swapLogText(w: World, sessionId = 'session-1'): string {
  return w.files.get(`${w.cwd}/.claude/handoffs/swap-log/${sessionId}.jsonl`)?.text ?? ''
}

/** The entries of the swap log this test's session writes, oldest first. */
export function swapLogEntries(w: World, sessionId = 'session-1'): Record<string, unknown>[] {
  return swapLogText(w, sessionId).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>)
}
