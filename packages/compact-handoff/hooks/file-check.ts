// Decides whether a handoff or plan file on disk may replace the conversation.
// The wiring gathers the facts ($.fs.stat with resolve, $.fs.read); this
// judges them, so every refusal is testable without an engine.
import { HANDOFF_DIRS, MAX_HANDOFF_BYTES, type HandoffPath } from './protocol.js'
import { formatProblems } from './handoff-format.js'
import type { Run } from './run.js'

export type FileStat = { kind: 'file' | 'dir' | 'other'; size: number; mtimeMs: number; realPath?: string }

export type FileFacts = {
  file: HandoffPath
  /** undefined when the path does not exist (stat rejected). */
  stat: FileStat | undefined
  /** The session folder's own real path (stat with resolve). */
  cwdRealPath: string
  /** undefined when not read (missing, too large) or unreadable. */
  text: string | undefined
}

function isDirectlyUnderHandoffDir(realPath: string, cwdRealPath: string): boolean {
  const root = cwdRealPath.replace(/[\\/]+$/, '')
  return HANDOFF_DIRS.some((dir) => {
    const prefix = `${root}/${dir}/`
    return realPath.startsWith(prefix) && !realPath.slice(prefix.length).includes('/')
  })
}

/** Whether the file must be read at all: only a regular file within the cap. */
export function isReadable(stat: FileStat | undefined): boolean {
  return stat !== undefined && stat.kind === 'file' && stat.size <= MAX_HANDOFF_BYTES
}

/** Everything wrong with one file, each reason naming it; empty when it may be used. */
export function fileProblemsOf(facts: FileFacts, run: Run): string[] {
  const { file, stat } = facts
  const name = file.relPath
  if (stat === undefined) return [`${name} does not exist`]
  if (stat.kind !== 'file') return [`${name} is not a regular file`]
  if (stat.realPath === undefined || !isDirectlyUnderHandoffDir(stat.realPath.replace(/\\/g, '/'), facts.cwdRealPath.replace(/\\/g, '/'))) {
    return [`${name} resolves outside plans/handoffs/ and .claude/handoffs/ of this project`]
  }
  const isRecorded = run.files.some((f) => f.relPath === name)
  if (!isRecorded && stat.mtimeMs < run.startedAtMs) {
    return [`${name} was not written during this run (it is older than the run)`]
  }
  if (stat.size > MAX_HANDOFF_BYTES) return [`${name} is ${stat.size} bytes, over the ${MAX_HANDOFF_BYTES}-byte cap`]
  if (facts.text === undefined) return [`${name} could not be read`]
  return formatProblems(facts.text, file.kind).map((problem) => `${name}: ${problem}`)
}
