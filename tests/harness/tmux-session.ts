/**
 * Drives a real, interactive Claude Code session inside a private tmux server, set up
 * as a real session needs it (measured on Claude Code 2.1.332): the run folder
 * (run-dir.ts), the environment (environment.ts) and staged plugin copies (staging.ts)
 * are put together here into a launch script that tmux runs.
 *
 * Oracles: the visible screen (`capture-pane`), the `--debug-file` log (every mod call,
 * hook and toast), and the mock API's request log.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join, resolve, sep } from 'node:path'
import { performance } from 'node:perf_hooks'
import { claudeBin, installFromMarketplace, type InstallSpec } from './claude-cli.js'
import { CLOSED_BASE_URL, sessionEnv } from './environment.js'
import { escapeRe } from './escape-re.js'
import { POLL_MS, pollUntil } from './poll.js'
import { createRunDir, type RunDir } from './run-dir.js'
import { modIdOf, stageCopy } from './staging.js'

const DEFAULT_WAIT_MS = 15_000
/** Start to prompt box was 0.9–1.4 s idle; a busy 2-core machine needs far more headroom. */
const READY_WAIT_MS = 45_000
const PANE_COLUMNS = 160
const PANE_ROWS = 50
const TMUX_SESSION = 'cc'
/** The prompt glyph is followed by a no-break space, not a space. */
export const PROMPT_RE = /❯\u00a0/
const TOAST_RE = /\$\.ui\.toast \(([^)]+)\): (.*)$/gm
/** A mod's transcript line (`$.ui.log` without `to: 'debug'`): "[<plugin>] $.ui.log: <text>". */
const TRANSCRIPT_LOG_RE = /\[([^\]]+)\] \$\.ui\.log: (.*)$/gm

export interface Toast {
  mod: string
  text: string
}

export interface ReadyOptions {
  /** Mod ids to wait for; every staged mod with a hooks module by default. */
  mods?: string[]
  timeoutMs?: number
  /** Poll interval; timed figures (demo, bench) poll finer than the tests. */
  everyMs?: number
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

  /** A transcript line a mod logged (a toast's detail among them), by its plugin's name. */
  async waitForTranscriptLine(text: RegExp, options: { plugin?: string; timeoutMs?: number; since?: number } = {}): Promise<Toast> {
    return this.poll(`transcript line ${text}`, options.timeoutMs ?? DEFAULT_WAIT_MS, () =>
      [...this.debugLog().slice(options.since ?? 0).matchAll(TRANSCRIPT_LOG_RE)]
        .map((m) => ({ mod: m[1] ?? '', text: m[2] ?? '' }))
        .find((t) => text.test(t.text) && (options.plugin === undefined || t.mod === options.plugin)),
    )
  }

  async waitForToast(text: RegExp, options: { mod?: string; timeoutMs?: number; since?: number } = {}): Promise<Toast> {
    return this.poll(`toast ${text}`, options.timeoutMs ?? DEFAULT_WAIT_MS, () =>
      this.toasts(options.since).find((t) => text.test(t.text) && (options.mod === undefined || t.mod === options.mod)),
    )
  }

  /** A hook of `mod` on `event` settled after `since`. Mods hooking the same event share
   * one line ("hooks module a@inline, b@inline turn.complete settled"). */
  async waitForHookSettled(mod: string, event: string, options: { since?: number; timeoutMs?: number } = {}): Promise<void> {
    await this.waitForDebugLog(new RegExp(`hooks module [^\\n]*${escapeRe(mod)}[^\\n]* ${escapeRe(event)} settled`), options)
  }

  /** Resolves with ms since launch once the session is ready, as readyAt defines it. */
  async waitForReady(options: ReadyOptions = {}): Promise<number> {
    await this.readyAt(options)
    return Date.now() - this.startedAt
  }

  /**
   * Ready = the prompt box is drawn and every mod has loaded and, if it hooks
   * `session.start`, that hook has settled: the box can appear before the mods have
   * registered their commands. A mod without a `session.start` hook never logs "settled",
   * so the events list on its "loaded" line decides. Resolves with performance.now() when
   * the prompt box was first seen and when the whole was.
   */
  async readyAt(options: ReadyOptions = {}): Promise<{ box: number; ready: number }> {
    // One dispatch's line names every module whose hook ran in it ("hooks module a@inline, b@inline session.start settled").
    const mods = (options.mods ?? this.modIds).map((id) => ({
      id,
      loaded: new RegExp(`hooks module ${escapeRe(id)} loaded .*; events: (.*)$`, 'm'),
      settled: new RegExp(`hooks module (?:[^\\n]*, )?${escapeRe(id)}(?:, [^\\n]*)? session\\.start settled`),
    }))
    let box: number | undefined
    const isReady = (): boolean => {
      if (box === undefined) {
        if (!PROMPT_RE.test(this.screen())) return false
        box = performance.now()
      }
      const log = mods.length > 0 ? this.debugLog() : ''
      return mods.every((mod) => {
        const loaded = mod.loaded.exec(log)
        if (loaded === null) return false
        const hooksStart = (loaded[1] ?? '').split(',').includes('session.start')
        return !hooksStart || mod.settled.test(log)
      })
    }
    const ready = await this.poll('the session to be ready', options.timeoutMs ?? READY_WAIT_MS, () => (isReady() ? performance.now() : undefined), options.everyMs)
    return { box: box ?? ready, ready }
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

  /** Kills claude with SIGKILL, as a crash or an out-of-memory kill would: no
   * session.end runs. Then the tmux server goes, as stop() does. */
  async crash(): Promise<void> {
    const pid = this.panePid
    if (pid === undefined) throw new Error('harness: no claude process to kill')
    process.kill(pid, 'SIGKILL')
    await this.poll('claude to die', 15_000, () => (isAlive(pid) ? undefined : true))
    await this.stop()
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

  /** pollUntil, with the run dir and the screen in the error: what a post-mortem starts from. */
  private async poll<T>(what: string, timeoutMs: number, probe: () => T | undefined, everyMs = POLL_MS): Promise<T> {
    try {
      return await pollUntil(what, timeoutMs, probe, everyMs)
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

function squash(s: string): string {
  return s.replace(/[\s\u00a0]+/g, '')
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  // A killed process stays a zombie until tmux reaps it, and signal 0 still reaches a zombie.
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return true
  }
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`
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
  /** The session's permission mode; bypassPermissions keeps the suite free of dialogs. */
  permissionMode?: PermissionMode
  extraArgs?: string[]
}

export type PermissionMode = 'default' | 'acceptEdits' | 'bypassPermissions'

/** Stages the plugins, writes the launch script and tmux.conf, and starts claude in tmux. */
export async function startSession(options: StartOptions = {}): Promise<Session> {
  const run = options.run ?? createRunDir(options.name ?? 'session', options.runRoot)
  if (options.install !== undefined) await installFromMarketplace(run, options.install)
  // Staged once a run: a second session of the run (two at once, or one after a
  // restart) loads the same copy, which a fresh copy would rewrite under the first's load
  // (seen: an empty hooks.json read, "JSON Parse error: Unexpected EOF").
  const pluginDirs = (options.plugins ?? []).map((p) => {
    const abs = resolve(p)
    if (abs.startsWith(run.plugins + sep)) return abs
    const staged = join(run.plugins, basename(abs))
    return existsSync(staged) ? staged : stageCopy(abs, staged)
  })

  let n = 1
  while (existsSync(join(run.dir, `launch-${n}.sh`))) n++
  const session = new Session(run, n, pluginDirs.map(modIdOf).filter((id): id is string => id !== undefined))
  const args = [
    ...pluginDirs.flatMap((d) => ['--plugin-dir', d]),
    '--debug-file',
    session.debugFile,
    '--permission-mode',
    options.permissionMode ?? 'bypassPermissions',
    ...(options.extraArgs ?? []),
  ]
  const script = writeLaunchScript(run, n, sessionEnv(run, options.mock?.url ?? CLOSED_BASE_URL), args)
  const conf = join(run.dir, 'tmux.conf')
  // focus-events: else claude shows a "tmux focus-events off" notice on the notification
  // bar; remain-on-exit: keeps a crashed claude's last screen for capture-pane.
  writeFileSync(conf, ['set -g focus-events on', 'set -g remain-on-exit on', 'set -g history-limit 20000', 'set -g status off', ''].join('\n'))
  session.launch(script, conf)
  return session
}

/** `launch-<n>.sh`: cd into the project and exec claude under `env -i`, so only `env` reaches it. */
function writeLaunchScript(run: RunDir, n: number, env: Record<string, string>, args: string[]): string {
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
  return script
}
