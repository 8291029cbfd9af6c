// What still runs in the background, as the engine tells it (running.ts
// decides): subagents from `$.agent.list()`, the engine's own view; shells,
// which no engine call lists, recorded at the first main-loop turn's end that
// lists one the main loop started, and dropped once a turn's end no longer does.
// The shells are in `$.state`, their atom declared here beside its only reads
// and writes (the engine lists a module's state access from the atoms each
// file declares).
import { atom, read, update, type EngineInterface } from 'claude-code'
import { runningAgentsOf, shellsAtTurnEndOf, shellsNotRecordedOf, type InFlightTask, type Running, type RunningShell } from './running.js'
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

// Shells listed in flight that turned out not to be the main loop's (a
// subagent's reports to the subagent): looked up once each.
const notMainLoops = new Set<string>()

/** A main-loop turn's end (`classic.Stop`): the engine lists the background
 * work in flight, so a recorded shell it leaves out has ended, and a shell it
 * lists first is recorded now if the main loop started it (`mainLoopShellsOf`
 * says which, with their commands masked); a payload that leaves the list out
 * (`undefined`) says nothing, so nothing changes on it. Costs no engine call
 * while none is recorded or listed, the common case. */
export async function shellsAtTurnEnd($: $, inFlight: readonly InFlightTask[] | undefined, mainLoopShellsOf: (ids: readonly string[]) => Promise<readonly { id: string; command: string }[]>): Promise<void> {
  if (inFlight === undefined) return
  const shells = await readShellsIfAny($)
  const unknown = shellsNotRecordedOf(shells, inFlight).filter((t) => !notMainLoops.has(t.id))
  const started = unknown.length > 0 ? await mainLoopShellsOf(unknown.map((t) => t.id)) : []
  for (const t of unknown) if (!started.some((s) => s.id === t.id)) notMainLoops.add(t.id)
  if (started.length === 0 && shellsAtTurnEndOf(shells, inFlight, [], 0).length === shells.length) return
  const nowMs = await $.clock.now()
  await updateShells($, (found) => shellsAtTurnEndOf(found, inFlight, started, nowMs))
}

/** What runs now: the recorded shells and the engine's subagents, each task's
 * words masked before they go anywhere. The reads go out together. */
export async function runningNow($: $): Promise<Running> {
  const [listed, shells] = await Promise.all([$.agent.list().catch(() => []), read($, shellsAtom)])
  const agents = runningAgentsOf(listed)
  const tasks = await Promise.all(agents.map((a) => maskedText($, a.task)))
  return { shells, agents: agents.map((a, i) => ({ ...a, task: tasks[i] ?? '' })) }
}
