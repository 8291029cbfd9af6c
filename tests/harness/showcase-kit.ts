/**
 * Shared pieces of `pnpm demo` and `pnpm bench`: the three plugins of this repo loaded
 * with --plugin-dir, arrival times of the mock's requests, and small helpers to show what
 * the model was sent (request-messages.ts reads the messages themselves).
 */
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { MockApi, MockRequest } from './mock-api.js'
import { repoRoot } from './repo-root.js'

/** The two mods and the skill pack, as a user loading them from a clone would. */
export const PLUGIN_PATHS = ['packages/compact-handoff', 'packages/compact-handoff-answer', 'skills'] as const

export function pluginDirs(): string[] {
  return PLUGIN_PATHS.map((p) => join(repoRoot(), p))
}

/**
 * Run dirs go under the system temp folder, outside any git repository: a project inside
 * this repo would make Claude Code attach this repo's git status to every request.
 */
export function runRoot(): string {
  return join(tmpdir(), 'compact-handoff-showcase')
}

/** Polls this often where a figure is being timed (Session.readyAt's `everyMs`), finer than the tests' polling. */
export const TIMING_POLL_MS = 20

export function removeRun(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}

/**
 * Records when each request reached the mock (performance.now(), ms). The mock pushes a
 * request onto its `requests` array as soon as the body is read and writes the scripted
 * reply right after, in the same tick, so this is both "request arrived" and "reply sent".
 */
export function stampArrivals(mock: MockApi): Map<MockRequest, number> {
  const at = new Map<MockRequest, number>()
  const push = mock.requests.push.bind(mock.requests)
  mock.requests.push = (...items: MockRequest[]): number => {
    const now = performance.now()
    for (const item of items) at.set(item, now)
    return push(...items)
  }
  return at
}

/** The screen without trailing blanks, leading and trailing empty rows, and with each run
 * of three or more empty rows folded into one marker row. */
export function trimScreen(screen: string): string {
  return screen
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/\n+$/, '')
    .replace(/^\n+/, '')
    .replace(/\n{4,}/g, '\n\n(…empty rows…)\n\n')
}

/** Claude Code's own `<system-reminder>` blocks (git status, attribution…), folded to one line each. */
export function foldReminders(text: string): string {
  return text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>\n*/g, (block) => `[<system-reminder> added by Claude Code, ${block.length} chars]\n`)
}

export function indent(text: string, prefix = '    '): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : prefix + l))
    .join('\n')
}

export function bytesOf(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value ?? null), 'utf8')
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  if (s.length === 0) return NaN
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}
