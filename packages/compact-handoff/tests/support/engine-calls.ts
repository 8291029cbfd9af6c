// The test's own calls into the engine, raised as Claude Code raises them.
import { parseSkillArgs } from './skill-protocol.js'
import type { Engine } from 'claude-code/testing'

import { CWD } from './world.js'

const PRESENTATION = { isFullscreen: false, columns: 80 }

export function typeCommand($: Engine, command: string, args = '') {
  return $.command.run({ command, args, origin: { kind: 'composer' }, presentation: PRESENTATION })
}

/** The skill's Write, as the engine raises it on the main loop (or a subagent's). */
export function skillWrite($: Engine, relPath: string, content: string, agentId?: string) {
  return $.tool.call({ tool: 'Write', tool_use_id: `tu-${relPath}`, file_path: `${CWD}/${relPath}`, content, ...(agentId ? { agentId } : {}) })
}

/** A main-loop Edit of a file on the fake disk, as the engine raises it (beneath, world.ts, applies it). */
export function skillEdit($: Engine, relPath: string, oldString: string, newString: string) {
  return $.tool.call({ tool: 'Edit', tool_use_id: `tu-edit-${relPath}`, file_path: `${CWD}/${relPath}`, old_string: oldString, new_string: newString })
}

/** A main-loop (or a subagent's) Read of `relPath`, as the engine raises it. */
export function readFile($: Engine, relPath: string, agentId?: string) {
  return $.tool.call({ tool: 'Read', tool_use_id: `tu-read-${relPath}`, file_path: `${CWD}/${relPath}`, ...(agentId ? { agentId } : {}) })
}

/** A main-loop shell command; one starting with "fail" exits 1. */
export function runCommand($: Engine, command: string) {
  return $.tool.call({ tool: 'Bash', tool_use_id: `tu-bash-${command}`, command })
}

/** A main-loop (or a subagent's) shell command with `run_in_background`: answered at once, it goes on running. */
export function runInBackground($: Engine, command: string, agentId?: string) {
  return $.tool.call({ tool: 'Bash', tool_use_id: `tu-bg-${command}`, command, run_in_background: true, ...(agentId ? { agentId } : {}) })
}

/** A main-loop turn's end as the engine raises the classic Stop: `inFlight`,
 * the ids of the background work still going (absent: the payload leaves it out). */
export function turnStops($: Engine, inFlight?: string[]) {
  const tasks = inFlight?.map((id) => ({ id, type: 'shell', status: 'running', description: id }))
  return $.classic.Stop({ stop_hook_active: false, ...(tasks !== undefined ? { background_tasks: tasks } : {}) })
}

/** A prompt as the engine raises it; `kind` is where it came from. */
export function submitPrompt($: Engine, text: string, kind: 'composer' | 'sdk' | 'bridge' | 'task-notification' = 'composer') {
  return $.prompt.submit({ text, wait: false, origin: { kind } })
}

/** The turn id the skill's turn carries in these tests; startTurn raises its start. */
export const SKILL_TURN = 't-skill'

/** A main-loop turn's start, with the text the engine shows the model: for a
 * command, its name and `<command-args>`; for a plugin's prompt, that prompt. */
export function startTurn($: Engine, text: string, turnId = SKILL_TURN) {
  return $.turn.start({ text, turnId })
}

export function endTurn($: Engine, answer: string, reason: 'answer' | 'aborted' | 'error' = 'answer', agentId?: string, turnId = SKILL_TURN) {
  return $.turn.complete({ answer, durationMs: 1200, isAborted: reason === 'aborted', turnId, reason, ...(agentId ? { agentId } : {}) })
}

/** The skill runs the test saw, as command and focus: the values the mod adds
 * before the focus (run tag, created, chain, seq, parent) are checked apart. */
export function skillRunsOf(w: { seen: { commandRuns: { command: string; args: string }[] } }) {
  return w.seen.commandRuns.map((r) => ({ command: r.command, focus: parseSkillArgs(r.args)?.focus }))
}
