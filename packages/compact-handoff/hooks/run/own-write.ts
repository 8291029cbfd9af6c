// Which Write/Edit calls compact-handoff lets run without a permission dialog:
// exactly the handoff skill's write of its own file while the run's skill or
// repair turn runs, and only past the permission mode's own ask. Claude Code
// asks before any write under `.claude/` (even in accept-edits mode), so an
// auto handoff would otherwise wait for a person who may not be there.
import { classifyHandoffPath, mayBeHandoffPath, type HandoffPath } from '../protocol/protocol-paths.js'
import type { DiskVerdict } from '../disk/disk-rule.js'
import type { Phase, Run } from './run.js'

export type CheckedCall = { tool: string; input: unknown; agentId?: string; tool_use_id?: string; ceiling?: string; op?: string }

/** Decided from the call alone, before any `$` call (every Write/Edit passes
 * here): the model's own main-loop call (not a plugin's query), under no
 * organization ceiling, of a path that looks like a handoff path. */
export function ownWriteCandidateOf(call: CheckedCall, origin: string): string | undefined {
  if (call.tool !== 'Write' && call.tool !== 'Edit') return undefined
  if (origin !== 'engine' || call.agentId !== undefined || call.tool_use_id === undefined || call.ceiling !== undefined || call.op !== undefined) return undefined
  const path = typeof call.input === 'object' && call.input !== null ? (call.input as { file_path?: unknown }).file_path : undefined
  return typeof path === 'string' && mayBeHandoffPath(path) ? path : undefined
}

/** Whether `verdict` is the permission mode's own ask, the one ask lifted: no
 * rule, hook, setting, plugin or organization ceiling stands behind it. The
 * person's ask rule for the folder, a PreToolUse hook's ask (a secret
 * scanner), an option's own check or another plugin's ask stays an ask, and
 * so does one with any field this build does not name (fail closed). */
export function isModeAsk(verdict: { decision: string; [field: string]: unknown }): boolean {
  return verdict.decision === 'ask' && Object.keys(verdict).every((key) => key === 'decision' || key === 'reason')
}

/** Only once the run's own skill or repair turn started (a task notification
 * or another plugin's prompt that runs first keeps the session's verdict). */
export function ownWriteTargetOf(phase: Phase, path: string): HandoffPath | undefined {
  return phase.kind === 'writing' && phase.turnId !== undefined ? classifyHandoffPath(path, phase.run.cwd, phase.run.ignoresCase) : undefined
}

/** A new file is the run's own; an existing one only when this run wrote it
 * whole: a handoff someone else left is not overwritten unasked, nor Edited
 * again unasked after one Edit the person allowed. */
export function isOwnWrite(run: Run, file: HandoffPath, verdict: DiskVerdict): boolean {
  if (verdict.kind === 'refused') return false
  return verdict.kind === 'absent' || run.files.some((f) => f.relPath === file.relPath && f.wrote === 'whole')
}
