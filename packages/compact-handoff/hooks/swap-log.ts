// One JSON line per swap or abort in the project's .claude/handoffs/, so a
// person can see afterwards what each run did. Bounded: the oldest lines go.
import type { Mode } from './protocol.js'

export const SWAP_LOG_PATH = '.claude/handoffs/compact-handoff.log.jsonl'
export const MAX_LOG_LINES = 1_000

export type Outcome = 'swapped' | 'engine-summarized' | 'aborted' | 'resumed'

export type LogEntry = {
  time: string
  sessionId: string
  mode: Mode
  /** How the swap was asked for: straight from the command, or /compact-handoff apply after a review. */
  trigger: 'command' | 'apply' | 'auto'
  files: { path: string; bytes: number }[]
  contextPercentBefore: number | null
  outcome: Outcome
  reason?: string
  messagesHeld: number
  /** Repair turns the run asked for before it swapped or gave up. */
  repairs: number
}

/** What the new context did again after a swap or a resume (follow-up.ts), or
 * that its first turn ended without reading the handoff (handoff-unread). */
export type AfterSwapEntry = {
  time: string
  sessionId: string
  follows: { kind: 'swapped' | 'resumed'; handoff: string; time: string } | { kind: 'compacted'; time: string }
} & ({ outcome: 'follow-up'; reReads: string[]; repeatedCommands: string[] } | { outcome: 'handoff-unread' })

/** The log's text with `entry` appended and only the newest MAX_LOG_LINES kept. */
export function logTextWith(existing: string, entry: LogEntry | AfterSwapEntry): string {
  const lines = existing.split('\n').filter((line) => line.trim() !== '')
  lines.push(JSON.stringify(entry))
  return `${lines.slice(-MAX_LOG_LINES).join('\n')}\n`
}

/** One line per recent entry, newest last, for /compact-handoff status. Lines
 * that are not entries (a hand edit) are skipped. */
export function recentLogLinesOf(text: string, count: number): string[] {
  const out: string[] = []
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    try {
      const parsed = JSON.parse(line) as Partial<LogEntry> | Partial<AfterSwapEntry>
      if (typeof parsed.time !== 'string' || typeof parsed.outcome !== 'string') continue
      if (parsed.outcome === 'follow-up' || parsed.outcome === 'handoff-unread') {
        out.push(afterSwapLineOf(parsed as Partial<AfterSwapEntry>))
        continue
      }
      const e = parsed as Partial<LogEntry>
      const files = Array.isArray(e.files) ? e.files.map((f) => f.path).join(', ') : ''
      const repairs = typeof e.repairs === 'number' && e.repairs > 0 ? ` after ${e.repairs} repair(s)` : ''
      out.push(`${e.time} ${e.mode ?? '?'} ${e.outcome}${repairs}${e.reason ? ` (${e.reason})` : ''}${files ? `: ${files}` : ''}`)
    } catch {
      continue
    }
  }
  // slice(-0) would be the whole log: asked for none, give none.
  return count > 0 ? out.slice(-count) : []
}

function afterSwapLineOf(e: Partial<AfterSwapEntry>): string {
  const follows = e.follows === undefined ? '?' : 'handoff' in e.follows ? e.follows.handoff : `a ${e.follows.kind} at ${e.follows.time}`
  if (e.outcome === 'handoff-unread') return `${e.time} handoff-unread: the first turn after ${follows} did not read it`
  const reReads = 'reReads' in e && Array.isArray(e.reReads) ? e.reReads : []
  const repeated = 'repeatedCommands' in e && Array.isArray(e.repeatedCommands) ? e.repeatedCommands : []
  return `${e.time} follow-up of ${follows}: ${reReads.length} file(s) read again, ${repeated.length} command(s) run again`
}
