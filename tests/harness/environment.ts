/**
 * The environment every claude process of a run gets (measured on Claude Code
 * 2.1.332): the run's own HOME, TMPDIR and XDG_RUNTIME_DIR so nothing leaks into the user's ~/.claude or the shared /tmp, the mock as the API, and
 * every background call to the network switched off.
 */
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { repoRoot } from './repo-root.js'
import type { RunDir } from './run-dir.js'

const KEY_PREFIX = 'sk-ant-api03-e2e-mock-key-'
/** Padded to a real key's length so the client's key-shape checks see nothing odd.
 * createRunDir approves its last 20 characters in the seeded ~/.claude.json. */
export const API_KEY = KEY_PREFIX.padEnd(108, '0')

/** Where no mock is needed: nothing listens on port 9, so any request fails fast. */
export const CLOSED_BASE_URL = 'http://127.0.0.1:9'

export function sessionEnv(run: RunDir, baseUrl: string): Record<string, string> {
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
