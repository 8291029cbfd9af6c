// Decides whether a handoff or plan file on disk may replace the conversation.
// The wiring gathers each file's input ($.fs.stat with resolve, $.fs.read); this
// judges it, so every refusal is testable without an engine. Two kinds of
// problem: a refusal is about safety (where the file really is, who wrote it,
// its size) and ends the run; a fix is about the text, and the skill is asked
// to repair it in place (turn-verdict.ts repairPromptOf).
import { MAX_HANDOFF_BYTES } from '../protocol/protocol-contents.js'
import { isInHandoffFolder, type HandoffPath } from '../protocol/protocol-paths.js'
import { formatProblems } from '../format/handoff-format.js'
import type { Run } from './run.js'

export type FileStat = { kind: 'file' | 'dir' | 'other'; size: number; mtimeMs: number; realPath?: string }

export type FileInput = {
  file: HandoffPath
  stat: FileStat | undefined
  cwdRealPath: string
  ignoresCase: boolean
  /** undefined when not read (missing, too large) or unreadable. */
  text: string | undefined
  /** Why the one rule for project files (disk/disk-rule.ts) refuses the
   * file's path: a link on the way, a part that is not where it says. */
  diskRefusal?: string
}

/** One file's problems that a repair turn may fix, each saying how. */
export type FileFix = { path: string; problems: string[] }

export type FileReport = { refusals: string[]; fixes: FileFix[] }

export function isReadable(stat: FileStat | undefined): boolean {
  return stat !== undefined && stat.kind === 'file' && stat.size <= MAX_HANDOFF_BYTES
}

const NOTHING: FileReport = { refusals: [], fixes: [] }

function refused(why: string): FileReport {
  return { refusals: [why], fixes: [] }
}

function toFix(path: string, problems: string[]): FileReport {
  return problems.length === 0 ? NOTHING : { refusals: [], fixes: [{ path, problems }] }
}

/** Where the file really is and whether it can be used at all: safety, never
 * repaired. The one rule's refusal comes first, before "does not exist": a
 * repair would have the skill write through the link. */
function placeRefusalOf(input: FileInput): string | undefined {
  const { stat } = input
  const name = input.file.relPath
  if (input.diskRefusal !== undefined) return input.diskRefusal
  if (stat === undefined) return undefined
  if (stat.kind !== 'file') return `${name} is not a regular file`
  if (stat.realPath === undefined || !isInHandoffFolder(stat.realPath, input.cwdRealPath, input.ignoresCase)) {
    return `${name} resolves outside plans/handoffs/ and .claude/handoffs/ of this project`
  }
  if (stat.size > MAX_HANDOFF_BYTES) return `${name} is ${stat.size} bytes, over the ${MAX_HANDOFF_BYTES}-byte cap`
  return undefined
}

export function fileReportOf(input: FileInput, run: Run): FileReport {
  const { file, stat } = input
  const name = file.relPath
  const place = placeRefusalOf(input)
  if (place !== undefined) return refused(place)
  if (stat === undefined) return toFix(name, ['does not exist: write it with the Write tool'])
  const recorded = run.files.find((f) => f.relPath === name)
  if (recorded === undefined && stat.mtimeMs < run.startedAtMs) return refused(`${name} was not written during this run (it is older than the run)`)
  // An Edit keeps what the file held around its change: a cloned handoff
  // Edited once is still the stranger's text, whatever the skill was told.
  if (recorded?.wrote === 'edited') return refused(`${name} was changed with Edit in this run but never written whole with the Write tool: only a file this run wrote whole is swapped in`)
  if (input.text === undefined) return refused(`${name} could not be read`)
  // Only what the skill's own main-loop Write/Edit produced is swapped in: a
  // file made by a shell command or a subagent was never seen being written.
  const notWritten = recorded !== undefined ? [] : ['was not written with the Write tool in this run: write the whole file again with the Write tool']
  return toFix(name, [...notWritten, ...formatProblems(input.text, file.kind, { projectDir: run.cwd })])
}

/** Everything that keeps a handoff from being resumed in a fresh session: the
 * same place and format checks as a swap, with nobody to repair it. */
export function resumeProblemsOf(input: FileInput, projectDir: string): string[] {
  const name = input.file.relPath
  const place = placeRefusalOf(input)
  if (place !== undefined) return [place]
  if (input.stat === undefined) return [`${name} does not exist`]
  if (input.text === undefined) return [`${name} could not be read`]
  return formatProblems(input.text, input.file.kind, { projectDir }).map((p) => `${name}: ${p}`)
}

/** Every problem as one line each, refusals first: what an abort or a refused apply lists. */
export function problemLinesOf(report: FileReport): string[] {
  return [...report.refusals, ...report.fixes.flatMap((f) => f.problems.map((p) => `${f.path}: ${p}`))]
}
