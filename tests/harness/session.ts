/**
 * Drives a real, interactive Claude Code session inside a private tmux server, set up as
 * docs/real-session-testing.md prescribes (measured on 2.1.332): one folder per run holding
 * the project, a seeded HOME, TMPDIR and XDG_RUNTIME_DIR, so nothing leaks into the
 * user's ~/.claude or the shared /tmp, and staged copies of the plugins, because the
 * engine writes types and a tsconfig into every mod folder it loads.
 *
 * Oracles: the visible screen (`capture-pane`), the `--debug-file` log (every mod call,
 * hook and toast), and the mock API's request log.
 */
import { execFile, execFileSync } from 'node:child_process'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { basename, dirname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const POLL_MS = 100
const DEFAULT_WAIT_MS = 15_000
/** Start to prompt box was 0.9–1.4 s idle; a busy 2-core machine needs far more headroom. */
const READY_WAIT_MS = 45_000
const PANE_COLUMNS = 160
const PANE_ROWS = 50
const TMUX_SESSION = 'cc'
const KEY_PREFIX = 'sk-ant-api03-e2e-mock-key-'
/** Padded to a real key's length so the client's key-shape checks see nothing odd. */
const API_KEY = KEY_PREFIX.padEnd(108, '0')
/** The prompt glyph is followed by a no-break space, not a space. */
export const PROMPT_RE = /❯\u00a0/
const TOAST_RE = /\$\.ui\.toast \(([^)]+)\): (.*)$/gm

export function repoRoot(): string {
  // Walk up instead of a fixed `..` count: this file runs from tests/harness (vitest) and
  // from dist/tests/harness (compiled).
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const up = dirname(dir)
    if (up === dir) throw new Error('harness: no pnpm-workspace.yaml above ' + fileURLToPath(import.meta.url))
    dir = up
  }
  return dir
}

/**
 * The native binary behind `node_modules/.bin/claude`: that shell wrapper keeps claude as
 * its child instead of exec'ing it, so after the pane dies claude would still be writing
 * into the run dir while the harness waits on the wrong pid.
 */
export function claudeBin(): string {
  return join(repoRoot(), 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe')
}

let cachedVersion: string | undefined
export function claudeVersion(): string {
  cachedVersion ??= /(\d+\.\d+\.\d+)/.exec(execFileSync(claudeBin(), ['--version'], { encoding: 'utf8' }))?.[1]
  if (cachedVersion === undefined) throw new Error('harness: could not read the version from `claude --version`')
  return cachedVersion
}

export interface RunDir {
  dir: string
  proj: string
  home: string
  tmp: string
  xdg: string
  plugins: string
}

/**
 * Makes `<root>/<name>-<n>` (first free n) with a seeded HOME. Each seeded key answers a
 * screen that otherwise blocks startup (onboarding needs the network; custom API key,
 * bypass-permissions warning and workspace-trust dialogs default to "no"). The default root
 * is outside any git work tree: a session inside one reads that tree's status into its
 * system prompt, so runs under this repository would see the project's own git state.
 */
export function createRunDir(name: string, root = join(tmpdir(), 'compact-handoff-e2e')): RunDir {
  mkdirSync(root, { recursive: true })
  let dir = ''
  for (let n = 1; dir === ''; n++) {
    const candidate = join(root, `${name}-${n}`)
    try {
      mkdirSync(candidate)
      dir = realpathSync(candidate)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
  }
  const run: RunDir = {
    dir,
    proj: join(dir, 'proj'),
    home: join(dir, 'home'),
    tmp: join(dir, 'tmp'),
    xdg: join(dir, 'xdg'),
    plugins: join(dir, 'plugins'),
  }
  for (const d of [run.proj, run.home, run.tmp, run.xdg, run.plugins, join(run.home, '.claude')]) mkdirSync(d, { recursive: true })
  const claudeJson = {
    hasCompletedOnboarding: true,
    lastOnboardingVersion: claudeVersion(),
    theme: 'dark',
    numStartups: 1,
    customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
    bypassPermissionsModeAccepted: true,
    // The trust lookup walks up from the cwd, so trusting the run dir covers proj/.
    projects: { [dir]: { hasTrustDialogAccepted: true, allowedTools: [], hasCompletedProjectOnboarding: true } },
  }
  writeFileSync(join(run.home, '.claude.json'), JSON.stringify(claudeJson, null, 2))
  writeFileSync(join(run.home, '.claude', 'settings.json'), JSON.stringify({ skipDangerousModePermissionPrompt: true }, null, 2))
  return run
}

/** Writes a mod into the run's plugins/ folder; `files` maps paths inside the mod to contents. */
export function writeMod(run: RunDir, name: string, files: Record<string, string>): string {
  const root = join(run.plugins, name)
  const all: Record<string, string> = {
    '.claude-plugin/plugin.json': JSON.stringify({ name, version: '0.0.0', description: 'e2e throwaway mod', author: { name: 'e2e' } }),
    'hooks/hooks.json': JSON.stringify({ modules: ['./register.ts'] }),
    ...files,
  }
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

const SKIPPED_IN_COPIES = new Set(['node_modules', '.git', 'dist', '.types'])

/**
 * Copies a plugin or marketplace folder, leaving out dependencies, build output and the
 * types the engine wrote into the working tree on an earlier load. Walked by hand, so
 * that the skip list applies at every depth.
 */
export function stageCopy(src: string, dest: string): string {
  mkdirSync(dest, { recursive: true })
  for (const entry of readdirSync(src, { withFileTypes: true })) {
    const from = join(src, entry.name)
    const to = join(dest, entry.name)
    if (SKIPPED_IN_COPIES.has(entry.name) || from.endsWith(join('.claude-plugin', 'types'))) continue
    if (entry.isDirectory()) stageCopy(from, to)
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(from), to)
    else if (entry.isFile()) copyFileSync(from, to)
  }
  return dest
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`
}

function sessionEnv(run: RunDir, baseUrl: string): Record<string, string> {
  const env: Record<string, string> = {
    HOME: run.home,
    // `claude` on PATH for Bash tool calls and hooks that shell out to it.
    PATH: `${join(repoRoot(), 'node_modules', '.bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    SHELL: '/bin/bash',
    USER: userInfo().username,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    // Without these claude uses the shared <tmp>/claude-<uid> and leaves
    // <tmp>/cc-socks/<pid>.sock behind when killed.
    TMPDIR: run.tmp,
    CLAUDE_CODE_TMPDIR: run.tmp,
    XDG_RUNTIME_DIR: run.xdg,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    // Else every start tries to git-clone the official marketplace from GitHub.
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
  }
  // bypassPermissions refuses to run as root unless the host says it is a sandbox.
  if (process.getuid?.() === 0) env.IS_SANDBOX = '1'
  return env
}

/** Where no mock is needed: nothing listens on port 9, so any request fails fast. */
const CLOSED_BASE_URL = 'http://127.0.0.1:9'

export interface InstallSpec {
  /** A marketplace folder (for example the repo root); a copy is installed from. */
  marketplace: string
  /** Plugin names in that marketplace; dependencies come along by themselves. */
  plugins: string[]
}

export interface StartOptions {
  /** Run folder; made from `name` under `runRoot` when absent. */
  run?: RunDir
  name?: string
  runRoot?: string
  /** Plugin folders to load with --plugin-dir; staged into the run unless already there. */
  plugins?: string[]
  /** Install these from a staged marketplace copy before the session starts. */
  install?: InstallSpec
  /** The mock API; without it requests go to a closed port. */
  mock?: { url: string }
  extraArgs?: string[]
}

export interface CommandResult {
  stdout: string
  stderr: string
}

export interface Toast {
  mod: string
  text: string
}

const live = new Set<Session>()
// A crashed or interrupted test must not leave a tmux server (and claude) running.
process.once('exit', () => {
  for (const s of live) s.killNow()
})

export class Session {
  readonly run: RunDir
  readonly debugFile: string
  readonly socket: string
  /** `<name>@inline` of every staged mod with a hooks module, for waitForReady. */
  readonly modIds: string[]
  readonly startedAt = Date.now()
  private panePid: number | undefined

  constructor(run: RunDir, n: number, modIds: string[]) {
    this.run = run
    this.debugFile = join(run.dir, `debug-${n}.log`)
    this.socket = join(run.dir, `tmux-${n}.sock`)
    this.modIds = modIds
  }

  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, ...args], { encoding: 'utf8' })
  }

  /** @internal called by startSession once the launch script exists */
  launch(script: string, conf: string): void {
    this.tmux('-f', conf, 'new-session', '-d', '-s', TMUX_SESSION, '-x', String(PANE_COLUMNS), '-y', String(PANE_ROWS), script)
    live.add(this)
    this.panePid = Number(this.tmux('display-message', '-p', '-t', TMUX_SESSION, '#{pane_pid}').trim())
  }

  /** The visible pane only: toasts are overlays, scrollback would show stale frames. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', TMUX_SESSION)
  }

  debugLog(): string {
    return existsSync(this.debugFile) ? readFileSync(this.debugFile, 'utf8') : ''
  }

  /** Current end of the debug log, to pass as `since` so a wait sees only newer lines. */
  logMark(): number {
    return this.debugLog().length
  }

  toasts(since = 0): Toast[] {
    return [...this.debugLog().slice(since).matchAll(TOAST_RE)].map((m) => ({ mod: m[1] ?? '', text: m[2] ?? '' }))
  }

  async waitForScreen(re: RegExp, timeoutMs = DEFAULT_WAIT_MS): Promise<string> {
    return this.poll(`screen ${re}`, timeoutMs, () => {
      const s = this.screen()
      return re.test(s) ? s : undefined
    })
  }

  async waitForDebugLog(re: RegExp, options: { timeoutMs?: number; since?: number } = {}): Promise<RegExpMatchArray> {
    return this.poll(`debug log ${re}`, options.timeoutMs ?? DEFAULT_WAIT_MS, () => this.debugLog().slice(options.since ?? 0).match(re) ?? undefined)
  }

  async waitForToast(text: RegExp, options: { mod?: string; timeoutMs?: number; since?: number } = {}): Promise<Toast> {
    return this.poll(`toast ${text}`, options.timeoutMs ?? DEFAULT_WAIT_MS, () =>
      this.toasts(options.since).find((t) => text.test(t.text) && (options.mod === undefined || t.mod === options.mod)),
    )
  }

  /**
   * Ready = the prompt box is drawn and every mod has loaded and, if it hooks
   * `session.start`, that hook has settled: the box can appear before the mods have
   * registered their commands. A mod without a `session.start` hook never logs "settled",
   * so the events list on its "loaded" line decides. Resolves with ms since launch.
   */
  async waitForReady(options: { mods?: string[]; timeoutMs?: number } = {}): Promise<number> {
    const timeoutMs = options.timeoutMs ?? READY_WAIT_MS
    await this.waitForScreen(PROMPT_RE, timeoutMs)
    for (const mod of options.mods ?? this.modIds) {
      const id = escapeRe(mod)
      const loaded = await this.waitForDebugLog(new RegExp(`hooks module ${id} loaded .*; events: (.*)$`, 'm'), { timeoutMs })
      if (!(loaded[1] ?? '').split(',').includes('session.start')) continue
      await this.waitForDebugLog(new RegExp(`hooks module ${id} session\\.start settled`), { timeoutMs })
    }
    return Date.now() - this.startedAt
  }

  /**
   * Types text into the prompt and, by default, submits it. Enter is sent only once the
   * text is on screen: on a loaded machine keys can arrive while the input is still being
   * drawn, and an Enter landing inside the slash menu runs the highlighted entry instead.
   */
  async type(text: string, options: { enter?: boolean; timeoutMs?: number } = {}): Promise<void> {
    if (/[\r\n]/.test(text)) throw new Error('harness: type() takes one line; a newline would submit early')
    this.tmux('send-keys', '-t', TMUX_SESSION, '-l', '--', text)
    if (options.enter === false) return
    const tail = squash(text).slice(-40)
    // Only below the last prompt glyph: the same words higher up are an earlier prompt.
    const isTyped = (screen: string): boolean => squash(screen.slice(screen.lastIndexOf('❯\u00a0'))).includes(tail)
    await this.poll(`typed text "${text}" on screen`, options.timeoutMs ?? DEFAULT_WAIT_MS, () => (isTyped(this.screen()) ? true : undefined))
    this.tmux('send-keys', '-t', TMUX_SESSION, 'Enter')
  }

  /** tmux key names: `Escape`, `C-c`, `Enter`, `Down`, … */
  pressKeys(...keys: string[]): void {
    this.tmux('send-keys', '-t', TMUX_SESSION, ...keys)
  }

  /** Kills the tmux server and waits for claude to go; safe to call twice. */
  async stop(): Promise<void> {
    if (!live.has(this)) return
    try {
      writeFileSync(this.debugFile.replace(/debug-(\d+)\.log$/, 'screen-$1.txt'), this.screen())
    } catch {
      // The pane may already be gone; the debug log is the post-mortem then.
    }
    this.killNow()
    const pid = this.panePid
    if (pid === undefined) return
    await this.poll('claude to exit', 5_000, () => (isAlive(pid) ? undefined : true)).catch(() => process.kill(pid, 'SIGKILL'))
  }

  /** @internal synchronous kill for the exit handler */
  killNow(): void {
    live.delete(this)
    try {
      this.tmux('kill-server')
    } catch {
      // Already gone: remain-on-exit keeps the server only until kill-server or the pane closes.
    }
  }

  private async poll<T>(what: string, timeoutMs: number, probe: () => T | undefined): Promise<T> {
    try {
      return await pollUntil(what, timeoutMs, probe)
    } catch (err) {
      let screen: string
      try {
        screen = this.screen()
      } catch {
        screen = '(no pane)'
      }
      throw new Error(`${(err as Error).message}\nrun dir: ${this.run.dir}\n--- screen ---\n${screen}`)
    }
  }
}

/**
 * Polls `probe` until it returns a value. Every wait in the harness goes through here with
 * a deadline: on a busy 2-core machine a fixed sleep is either too short or wasted.
 */
export async function pollUntil<T>(what: string, timeoutMs: number, probe: () => T | undefined, everyMs = POLL_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const hit = probe()
    if (hit !== undefined) return hit
    if (Date.now() > deadline) throw new Error(`harness: timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, everyMs))
  }
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function squash(s: string): string {
  return s.replace(/[\s\u00a0]+/g, '')
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function modIdOf(pluginDir: string): string | undefined {
  if (!existsSync(join(pluginDir, 'hooks', 'hooks.json'))) return undefined
  const manifest = JSON.parse(readFileSync(join(pluginDir, '.claude-plugin', 'plugin.json'), 'utf8')) as { name: string }
  return `${manifest.name}@inline`
}

/** Runs `claude <args>` with the session's HOME and env (for `plugin marketplace add`, `plugin install`, …). */
export function runClaude(run: RunDir, args: string[], options: { baseUrl?: string; timeoutMs?: number } = {}): Promise<CommandResult> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      claudeBin(),
      args,
      { cwd: run.proj, env: sessionEnv(run, options.baseUrl ?? CLOSED_BASE_URL), timeout: options.timeoutMs ?? 60_000, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`claude ${args.join(' ')} failed: ${err.message}\n${stdout}\n${stderr}\nrun dir: ${run.dir}`))
        else resolvePromise({ stdout, stderr })
      },
    )
  })
}

/** Stages a copy of the marketplace, adds it, installs the plugins; returns the installed ids. */
export async function installFromMarketplace(run: RunDir, spec: InstallSpec): Promise<string[]> {
  const copy = stageCopy(spec.marketplace, join(run.dir, 'marketplace'))
  const manifest = JSON.parse(readFileSync(join(copy, '.claude-plugin', 'marketplace.json'), 'utf8')) as { name: string }
  await runClaude(run, ['plugin', 'marketplace', 'add', copy])
  const ids = spec.plugins.map((p) => `${p}@${manifest.name}`)
  for (const id of ids) await runClaude(run, ['plugin', 'install', id])
  return ids
}

export async function startSession(options: StartOptions = {}): Promise<Session> {
  const run = options.run ?? createRunDir(options.name ?? 'session', options.runRoot)
  if (options.install !== undefined) await installFromMarketplace(run, options.install)
  const pluginDirs = (options.plugins ?? []).map((p) => {
    const abs = resolve(p)
    return abs.startsWith(run.plugins + sep) ? abs : stageCopy(abs, join(run.plugins, basename(abs)))
  })

  let n = 1
  while (existsSync(join(run.dir, `launch-${n}.sh`))) n++
  const session = new Session(run, n, pluginDirs.map(modIdOf).filter((id): id is string => id !== undefined))

  const args = [
    ...pluginDirs.flatMap((d) => ['--plugin-dir', d]),
    '--debug-file',
    session.debugFile,
    '--permission-mode',
    'bypassPermissions',
    ...(options.extraArgs ?? []),
  ]
  const env = sessionEnv(run, options.mock?.url ?? CLOSED_BASE_URL)
  const script = join(run.dir, `launch-${n}.sh`)
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      `cd ${shellQuote(run.proj)}`,
      `exec env -i ${Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`).join(' ')} \\`,
      `  ${shellQuote(claudeBin())} ${args.map(shellQuote).join(' ')}`,
      '',
    ].join('\n'),
  )
  chmodSync(script, 0o755)
  const conf = join(run.dir, 'tmux.conf')
  // focus-events: else claude shows a "tmux focus-events off" notice on the notification
  // bar; remain-on-exit: keeps a crashed claude's last screen for capture-pane.
  writeFileSync(conf, ['set -g focus-events on', 'set -g remain-on-exit on', 'set -g history-limit 20000', 'set -g status off', ''].join('\n'))
  session.launch(script, conf)
  return session
}
