// What still runs in the background, as the engine tells it (running.ts
// decides): subagents from `$.agent.list()`, the engine's own view; shells,
// which no engine call lists, recorded when the engine moves one to the
// background and dropped once a main-loop turn's end no longer lists it.
// The shells are in `$.state`, their atom declared here beside its only reads
// and writes (the engine lists a module's state access from the atoms each
// file declares).
import { atom, read, update, type EngineInterface } from 'claude-code'
import { runningAgentsOf, shellsStillRunning, withShellStarted, type Running, type RunningShell } from './running.js'
import { maskedText } from '../text/mask-steps.js'

type $ = EngineInterface

const shellsAtom = atom({ plugin: 'compact-handoff', key: 'shells' } as const, [] as readonly RunningShell[])

// Whether a shell may stand recorded, so that a turn's end with none, the
// common case, reads nothing. A module variable: losing it costs one read, as
// it starts true (a hot reload empties it; `$.state` keeps the shells), and
// every write raises it again before it lands.
let mayHoldShells = true
let shellWrites = 0

/** The recorded shells; none, without a read, once a read found none and no
 * write came since. */
async function readShellsIfAny($: $): Promise<readonly RunningShell[]> {
  if (!mayHoldShells) return []
  const writesBefore = shellWrites
  const shells = await read($, shellsAtom)
  // A write begun while this read was in flight keeps the flag up.
  if (shells.length === 0 && writesBefore === shellWrites) mayHoldShells = false
  return shells
}

async function updateShells($: $, change: (shells: readonly RunningShell[]) => readonly RunningShell[]): Promise<void> {
  shellWrites++
  mayHoldShells = true
  await update($, shellsAtom, change)
}

/** A main-loop Bash call the engine answered at once while it keeps running:
 * `command` is already masked and clipped (work-steps.ts). */
export async function recordShellStarted($: $, id: string, command: string): Promise<void> {
  const startedAtMs = await $.clock.now()
  await updateShells($, (shells) => withShellStarted(shells, { id, command, startedAtMs }))
}

/** A main-loop turn's end (`classic.Stop`): the engine lists the background
 * work still in flight, so recorded shells it leaves out have ended; a
 * payload that leaves the list out (`undefined`) says nothing, so nothing is
 * dropped on it. Costs no engine call once none is recorded, the common case. */
export async function dropEndedShells($: $, inFlight: readonly { id: string }[] | undefined): Promise<void> {
  if (inFlight === undefined) return
  const shells = await readShellsIfAny($)
  if (shellsStillRunning(shells, inFlight).length === shells.length) return
  await updateShells($, (found) => shellsStillRunning(found, inFlight))
}

/** What runs now: the recorded shells and the engine's subagents, each task's
 * words masked before they go anywhere. The reads go out together. */
export async function runningNow($: $): Promise<Running> {
  const [listed, shells] = await Promise.all([$.agent.list().catch(() => []), read($, shellsAtom)])
  const agents = runningAgentsOf(listed)
  const tasks = await Promise.all(agents.map((a) => maskedText($, a.task)))
  return { shells, agents: agents.map((a, i) => ({ ...a, task: tasks[i] ?? '' })) }
}
