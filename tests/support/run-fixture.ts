// A run as the Node-side suites build it: a first handoff of a new chain,
// started at `startedAtMs`, nothing recorded or held yet. A file given in
// `files` was written whole by a Write unless it says otherwise.
import type { HandoffPath } from '../../packages/compact-handoff/hooks/protocol/protocol-paths.js'
import type { Run, RunFile } from '../../packages/compact-handoff/hooks/run/run.js'

export type FixtureFile = HandoffPath & { wrote?: RunFile['wrote'] }

export function runFixture(changes: Omit<Partial<Run>, 'files'> & { files?: readonly FixtureFile[] } = {}): Run {
  const { files = [], ...rest } = changes
  return {
    id: 'r1',
    mode: 'handoff',
    focus: '',
    startedAtMs: 1_000,
    cwd: '/srv/proj',
    cwdRealPath: '/srv/proj',
    ignoresCase: false,
    values: { run: 'tag-r1', created: '2026-11-29T10:00:00Z', chain: 'new', seq: 1, parent: 'none' },
    apply: 'now',
    trigger: 'command',
    held: [],
    heldCommands: [],
    repairs: 0,
    contextPercentBefore: null,
    ...rest,
    files: files.map((f) => ({ ...f, wrote: f.wrote ?? 'whole' })),
  }
}
