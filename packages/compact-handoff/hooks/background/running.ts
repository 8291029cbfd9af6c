// What the session still has going on when its conversation is replaced: the
// background shells and subagents still running. A swap ends the conversation, not the work: a
// shell started with `run_in_background` gets its tool result at once and goes
// on, and its notification later reaches the next context, which must know it
// started and has not yet ended (seen live, 2.1.332). Pure: running-steps.ts
// asks the engine and records.
import { MAX_COMMAND_CHARS, boundedListOf, boundedSectionOf, headOf } from '../text/text-clip.js'

/** A main-loop shell the engine runs in the background, as recorded at the
 * first main-loop turn's end that listed it (the engine has no call that
 * lists shells; only the end of a main-loop turn, `classic.Stop`, says which
 * are in flight): its start is that turn's end. */
export type RunningShell = { id: string; command: string; startedAtMs: number }

/** A task `classic.Stop` lists in flight. */
export type InFlightTask = { id: string; type: string }

/** A subagent the main loop started that `$.agent.list()` says is still going. */
export type RunningAgent = { id: string; task: string; type: string; startedAtMs: number }

export type Running = { shells: readonly RunningShell[]; agents: readonly RunningAgent[] }

/** Shells recorded at once; the newest are kept. */
export const MAX_RUNNING_SHELLS = 20
/** Subagents named in a stub; the newest are kept. */
export const MAX_RUNNING_AGENTS = 10
/** An id as the engine gave it, bounded: ids are short, a stub never trusts it. */
const MAX_ID_CHARS = 100
/** The running section never grows past this many characters. */
export const MAX_RUNNING_SECTION_CHARS = 2_500
/** The line naming what the section left out is cut to this many characters, whole ids, the rest counted. */
const MAX_LEFT_OUT_IDS_CHARS = 600

/** The id of the background task a Bash call's result names: the engine
 * answers at once with it while the command keeps running. Absent for a command
 * that ran to its end. */
export function backgroundTaskIdOf(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined
  const id = (result as { backgroundTaskId?: unknown }).backgroundTaskId
  return typeof id === 'string' && id !== '' ? headOf(id, MAX_ID_CHARS) : undefined
}

/** The shells `inFlight` lists that none of `shells` records yet. */
export function shellsNotRecordedOf(shells: readonly RunningShell[], inFlight: readonly InFlightTask[]): InFlightTask[] {
  const recorded = new Set(shells.map((s) => s.id))
  return inFlight.filter((t) => t.type === 'shell' && !recorded.has(t.id))
}

/** The shells at a main-loop turn's end: the recorded ones it still lists,
 * then those it lists first (`started`, the main loop's, each with its command
 * masked, stamped `nowMs`), newest last, at most MAX_RUNNING_SHELLS. */
export function shellsAtTurnEndOf(shells: readonly RunningShell[], inFlight: readonly InFlightTask[], started: readonly { id: string; command: string }[], nowMs: number): RunningShell[] {
  const ids = new Set(inFlight.map((t) => t.id))
  const kept = shells.filter((s) => ids.has(s.id))
  const fresh = started.filter((t) => !kept.some((s) => s.id === t.id)).map((t) => ({ id: t.id, command: t.command, startedAtMs: nowMs }))
  return [...kept, ...fresh].slice(-MAX_RUNNING_SHELLS)
}

type ListedAgent = { id: string; description: string; type: string; status: string; startTime?: number; parentId?: string; spawnedBy?: string }

/** Statuses of a subagent that has not ended: a teammate waiting for a message
 * (`idle`) is resting, not running. */
const GOING_STATUSES: ReadonlySet<string> = new Set(['pending', 'running', 'waiting'])

/** The subagents the main loop started that are still going, newest last,
 * bounded. A subagent's own children report to it, and a plugin's to the
 * plugin, so neither notifies the main conversation. `task` is as listed:
 * the caller masks it. */
export function runningAgentsOf(listed: readonly ListedAgent[]): RunningAgent[] {
  return listed
    .filter((a) => GOING_STATUSES.has(a.status) && a.parentId === undefined && a.spawnedBy === undefined)
    .map((a) => ({ id: headOf(a.id, MAX_ID_CHARS), task: a.description, type: a.type, startedAtMs: a.startTime ?? 0 }))
    .sort((a, b) => a.startedAtMs - b.startedAtMs)
    .slice(-MAX_RUNNING_AGENTS)
}

function startedText(ms: number): string {
  return ms > 0 ? `started ${new Date(ms).toISOString().slice(0, 19)}Z` : 'start time unknown'
}

/** `text` as one line of at most MAX_COMMAND_CHARS, a cut shown. Only a head
 * is looked at, so a long text costs no more than a short one. */
function oneLine(text: string): string {
  const flat = headOf(text, 2 * MAX_COMMAND_CHARS).replace(/\s+/g, ' ').trim()
  const isCut = text.length > 2 * MAX_COMMAND_CHARS || flat.length > MAX_COMMAND_CHARS
  return isCut ? `${headOf(flat, MAX_COMMAND_CHARS)} […]` : flat
}

/** The section a stub carries for what still runs, newest first, or undefined
 * when nothing does. Each entry says it is running: none has an exit status
 * yet. Entries past the size bound are left out, and it says so. */
export function runningSectionOf(running: Running): string | undefined {
  const entries = [
    ...running.shells.map((s) => ({ at: s.startedAtMs, name: `shell ${s.id}`, line: `- background shell ${s.id}, running, ${startedText(s.startedAtMs)}: ${oneLine(s.command)}` })),
    ...running.agents.map((a) => ({ at: a.startedAtMs, name: `subagent ${a.id}`, line: `- subagent ${a.id} (${oneLine(a.type)}), running, ${startedText(a.startedAtMs)}: ${oneLine(a.task)}` })),
  ]
  if (entries.length === 0) return undefined
  // Stable: entries started at the same moment keep the order they were recorded in, newest last, reversed.
  const sorted = entries.reverse().sort((a, b) => b.at - a.at)
  const head =
    'Still running in the background at this moment, newest first, recorded by code (none has finished or has an exit status yet; each sends a notification when it ends, and that notification is about work started before this point):'
  // An id is what the next context needs to wait on or stop a task: the ones left out are named, bounded.
  const moreMarkOf = (leftOut: number) => boundedListOf(`- and ${leftOut} more still running, not shown: `, sorted.slice(sorted.length - leftOut).map((e) => e.name), MAX_LEFT_OUT_IDS_CHARS)
  return boundedSectionOf(head, sorted.map((e) => e.line), MAX_RUNNING_SECTION_CHARS, moreMarkOf)
}

/** `prompt` with the running section after it, when anything runs. */
export function withRunningSection(prompt: string, running: Running): string {
  const section = runningSectionOf(running)
  return section === undefined ? prompt : `${prompt}\n\n${section}`
}
