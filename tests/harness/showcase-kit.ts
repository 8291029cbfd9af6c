/**
 * Shared pieces of `pnpm demo` and `pnpm bench`: the three plugins of this repo loaded
 * with --plugin-dir, arrival times of the mock's requests, a finer readiness probe than
 * Session.waitForReady, and small helpers to show what the model was sent.
 */
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { MockApi, MockRequest } from './mock-api.js'
import { PROMPT_RE, pollUntil, repoRoot, type Session } from './session.js'

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

/** Polls this often where a figure is being timed, finer than the tests' polling. */
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

/**
 * Ready as Session.waitForReady defines it (prompt box drawn, and every mod's
 * `session.start` hook settled, or loaded when it has none), polled every 20 ms instead
 * of 100 ms. Resolves with performance.now() when the prompt box was first seen and when
 * the whole was.
 */
export async function readyAt(session: Session, timeoutMs = 45_000): Promise<{ box: number; ready: number }> {
  const mods = session.modIds.map((id) => ({ id, loaded: new RegExp(`hooks module ${escapeRe(id)} loaded .*; events: (.*)$`, 'm') }))
  let box: number | undefined
  const ready = await pollUntil('the session to be ready', timeoutMs, () => {
    if (box === undefined) {
      if (!PROMPT_RE.test(session.screen())) return undefined
      box = performance.now()
    }
    const log = mods.length > 0 ? session.debugLog() : ''
    for (const mod of mods) {
      const loaded = mod.loaded.exec(log)
      if (loaded === null) return undefined
      const hooksStart = (loaded[1] ?? '').split(',').includes('session.start')
      if (hooksStart && !log.includes(`hooks module ${mod.id} session.start settled`)) return undefined
    }
    return performance.now()
  }, TIMING_POLL_MS)
  return { box: box ?? ready, ready }
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
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

type Message = { role: string; content: unknown }

/** The text a message carries: string content, or its text blocks; other blocks by type. */
export function textOf(message: Message): string {
  if (typeof message.content === 'string') return message.content
  if (!Array.isArray(message.content)) return ''
  return message.content
    .map((b: unknown) => {
      const block = b as { type?: string; text?: string; name?: string }
      if (block.type === 'text') return block.text ?? ''
      return `[${block.type ?? 'block'}${block.name === undefined ? '' : ` ${block.name}`}]`
    })
    .join('\n')
}

/** The conversation messages of a request, without the engine's `role: "system"` entries. */
export function conversationOf(request: MockRequest): Message[] {
  return (request.body?.messages ?? []).filter((m) => m.role === 'user' || m.role === 'assistant')
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
