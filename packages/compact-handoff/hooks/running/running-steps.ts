// What still runs in the background, as the engine tells it (running.ts
// decides): subagents from `$.agent.list()`, the engine's own view; shells,
// which no engine call lists, recorded when the engine moves one to the
// background and dropped once a main-loop turn's end no longer lists it.
import type { EngineInterface } from 'claude-code'
import { runningAgentsOf, shellsStillRunning, withShellStarted, type Running } from './running.js'
import type { StubContext } from '../stub/swap-text.js'
import { readLoadedTools, readPlan, readShells, readWorktree, updateShells } from '../state.js'
import { maskedText } from '../text/mask-steps.js'
import { skillsNow } from '../carried/skill-steps.js'

type $ = EngineInterface

/** A main-loop Bash call the engine answered at once while it keeps running:
 * `command` is already masked and clipped (work-steps.ts). */
export async function recordShellStarted($: $, id: string, command: string): Promise<void> {
  const startedAtMs = await $.clock.now()
  await updateShells($, (shells) => withShellStarted(shells, { id, command, startedAtMs }))
}

/** A main-loop turn's end (`classic.Stop`): the engine lists the background
 * work still in flight, so recorded shells it leaves out have ended. Costs one
 * read when nothing is recorded, the common case. */
export async function dropEndedShells($: $, inFlight: readonly { id: string }[] | undefined): Promise<void> {
  if (inFlight === undefined) return
  const shells = await readShells($)
  if (shellsStillRunning(shells, inFlight).length === shells.length) return
  await updateShells($, (found) => shellsStillRunning(found, inFlight))
}

/** What runs now: the recorded shells and the engine's subagents, each task's
 * words masked before they go anywhere. The reads go out together. */
export async function runningNow($: $): Promise<Running> {
  const [listed, shells] = await Promise.all([$.agent.list().catch(() => []), readShells($)])
  const agents = runningAgentsOf(listed)
  const tasks = await Promise.all(agents.map((a) => maskedText($, a.task)))
  return { shells, agents: agents.map((a, i) => ({ ...a, task: tasks[i] ?? '' })) }
}

/** What a stub says beyond the conversation, read at the moment it is built,
 * before the compaction: what runs, the transcript file it replaces, the
 * deferred tools loaded, the plan approved, the worktree entered and the skills invoked (a failed read costs the stub that section, never the swap). */
export async function stubContextNow($: $): Promise<StubContext> {
  const [running, info, skills, loadedTools, plan, worktree] = await Promise.all([
    runningNow($),
    $.session.info().catch(() => undefined),
    skillsNow($).catch(() => undefined),
    readLoadedTools($).catch(() => []),
    readPlan($).catch(() => null),
    readWorktree($).catch(() => null),
  ])
  return {
    running,
    loadedTools,
    ...(typeof info?.transcriptPath === 'string' ? { transcriptPath: info.transcriptPath } : {}),
    ...(skills !== undefined ? { skills } : {}),
    ...(plan !== null ? { plan } : {}),
    ...(worktree !== null ? { worktree } : {}),
  }
}
