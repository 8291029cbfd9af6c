/**
 * The project's swap logs as a test reads them from disk: one file per session in the
 * log folder (swap-log.ts), read together, every entry ordered by the time it says.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SWAP_LOG_FOLDER } from '../../packages/compact-handoff/hooks/swap-log/swap-log.js'

/** Every session log's path in `proj`, by name. */
export function swapLogFiles(proj: string): string[] {
  const folder = join(proj, SWAP_LOG_FOLDER)
  return existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.jsonl')).sort().map((name) => join(folder, name)) : []
}

/** The raw lines of every session log in `proj`, each log's own order kept, logs by name. */
export function swapLogRawLines(proj: string): string[] {
  return swapLogFiles(proj).flatMap((path) => readFileSync(path, 'utf8').split('\n').filter((line) => line.trim() !== ''))
}

/** Every entry of every session log in `proj`, parsed, oldest first by its `time`. */
export function swapLogEntriesOf<E extends { time?: unknown } = Record<string, unknown>>(proj: string): E[] {
  const entries = swapLogRawLines(proj).map((line, i) => ({ entry: JSON.parse(line) as E, i }))
  const timeOf = (e: E) => (typeof e.time === 'string' ? e.time : '')
  return entries.sort((a, b) => (timeOf(a.entry) < timeOf(b.entry) ? -1 : timeOf(a.entry) > timeOf(b.entry) ? 1 : a.i - b.i)).map(({ entry }) => entry)
}
