// A swap-log entry for the unit tests, numbered: its time `n` steps of `stepMs`
// after a fixed moment, its handoff named by `n`.
import type { LogEntry } from '../../packages/compact-handoff/hooks/swap-log/swap-log.js'

export function logEntryOf(n: number, stepMs: number, changes: Partial<LogEntry> = {}): LogEntry {
  return {
    time: new Date(Date.UTC(2026, 10, 29, 10) + n * stepMs).toISOString(),
    sessionId: 's1',
    mode: 'handoff',
    trigger: 'command',
    files: [{ path: `plans/handoffs/HANDOFF_${n}.md`, bytes: 1_000 + n }],
    contextPercentBefore: 80,
    outcome: 'swapped',
    messagesHeld: 0,
    repairs: 0,
    ...changes,
  }
}
