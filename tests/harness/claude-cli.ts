/**
 * The claude binary outside tmux: its path and version, and `claude <args>` run with a
 * run's HOME and env (plugin marketplace add, plugin install, plugin eval, …).
 */
import { execFile, execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CLOSED_BASE_URL, sessionEnv } from './environment.js'
import { repoRoot } from './repo-root.js'
import type { RunDir } from './run-dir.js'
import { stageCopy } from './staging.js'

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

export interface CommandResult {
  stdout: string
  stderr: string
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

export interface InstallSpec {
  /** A marketplace folder (for example the repo root); a copy is installed from. */
  marketplace: string
  /** Plugin names in that marketplace; dependencies come along by themselves. */
  plugins: string[]
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
