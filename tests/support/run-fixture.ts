// A run as the Node-side suites build it: a first handoff of a new chain,
// started at `startedAtMs`, nothing recorded or held yet.
import type { Run } from '../../packages/compact-handoff/hooks/run/run.js'

export function runFixture(changes: Partial<Run> = {}): Run {
  return {
    id: 'r1',
    mode: 'handoff',
    focus: '',
    startedAtMs: 1_000,
    cwd: '/srv/proj',
    cwdRealPath: '/srv/proj',
    ignoresCase: false,
    values: { run: 'tag-r1', created: '2026-11-29T10:00:00Z', chain: 'new', seq: 1, parent: 'none' },
    files: [],
    apply: 'now',
    trigger: 'command',
    held: [],
    heldCommands: [],
    repairs: 0,
    contextPercentBefore: null,
    ...changes,
  }
}
