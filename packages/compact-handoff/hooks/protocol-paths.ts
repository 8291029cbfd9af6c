// Where handoff and plan files live and what they are called: the one
// definition of "a handoff path in a handoff folder", used by the mod when it
// records the skill's writes and checks the sentinel, and by packages/handoff-tools.
// Lexical only (no file system), so it is pure and linear in the path.

/** Folders (relative to the session's folder) that hold handoff and plan files,
 * in the order the skills prefer them. */
export const HANDOFF_DIRS = ['plans/handoffs', '.claude/handoffs'] as const

export type FileKind = 'handoff' | 'plan'

/** `HANDOFF_<slug>_<YYYY-MM-DD>.md`, with `_<n>` before `.md` when the name is
 * taken. The mod accepts any safe stem after the prefix; the skills write the
 * slug/date form, which tests/contract/contract.test.ts checks. */
const FILE_NAME_RE = /^(HANDOFF|PLAN)_[A-Za-z0-9][A-Za-z0-9._-]*\.md$/
export const SKILL_FILE_NAME_RE = /^(HANDOFF|PLAN)_[a-z0-9]+(?:-[a-z0-9]+)*_\d{4}-\d{2}-\d{2}(?:_\d+)?\.md$/

/** What a file name says the file is, or undefined when it is not one of ours. */
export function fileKindOfName(name: string): FileKind | undefined {
  const match = FILE_NAME_RE.exec(name)
  if (!match) return undefined
  return match[1] === 'PLAN' ? 'plan' : 'handoff'
}

function normalizeSlashes(path: string): string {
  return path.replace(/\\/g, '/').replace(/\/{2,}/g, '/')
}

/** Lexically resolves `.` and `..`; returns undefined when `..` climbs above the start. */
function collapseDots(segments: readonly string[]): string[] | undefined {
  const out: string[] = []
  for (const segment of segments) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      if (out.length === 0) return undefined
      out.pop()
    } else out.push(segment)
  }
  return out
}

/** The path relative to `cwd` ("plans/handoffs/HANDOFF_x.md"), or undefined when
 * `path` is not inside `cwd`. Accepts absolute paths and paths relative to cwd. */
export function relativeToCwd(path: string, cwd: string): string | undefined {
  const p = normalizeSlashes(path.trim())
  const root = collapseDots(normalizeSlashes(cwd).split('/'))
  if (!root || p === '') return undefined
  const isAbsolute = p.startsWith('/')
  const full = collapseDots(isAbsolute ? p.split('/') : [...root, ...p.split('/')])
  if (!full || full.length <= root.length) return undefined
  for (let i = 0; i < root.length; i++) if (full[i] !== root[i]) return undefined
  return full.slice(root.length).join('/')
}

export type HandoffPath = { kind: FileKind; relPath: string }

/** The absolute path of `relPath` inside `folder` (a session folder as the engine reports it). */
export function inFolder(folder: string, relPath: string): string {
  return `${folder.replace(/[\\/]+$/, '')}/${relPath}`
}

/** Classifies a written path: a handoff or plan file directly under one of the
 * handoff folders of the session's folder, or undefined. Lexical only; the
 * on-disk check resolves symlinks before anything is replaced. */
export function classifyHandoffPath(path: string, cwd: string): HandoffPath | undefined {
  const relPath = relativeToCwd(path, cwd)
  const kind = relPath === undefined ? undefined : fileKindOfRelPath(relPath)
  return relPath !== undefined && kind ? { kind, relPath } : undefined
}

/** What a path relative to the project names: a handoff or plan file directly
 * in one of HANDOFF_DIRS, or undefined. The one definition of "a handoff path
 * in a handoff folder"; classifyHandoffPath and parentRelPathOf build on it. */
export function fileKindOfRelPath(relPath: string): FileKind | undefined {
  const cut = relPath.lastIndexOf('/')
  if (!(HANDOFF_DIRS as readonly string[]).includes(relPath.slice(0, Math.max(cut, 0)))) return undefined
  return fileKindOfName(relPath.slice(cut + 1))
}

/** Every segment classifyHandoffPath keeps is written out in the path itself
 * (`.`/`..` only remove segments), so an accepted path always holds a
 * `handoffs` segment and a `HANDOFF_`/`PLAN_` segment ending in `.md`, which
 * may be followed by more segments (`x/..`, a trailing `/`) or by blanks
 * (classifyHandoffPath trims). */
const MAYBE_HANDOFF_DIR_RE = /[\\/]handoffs[\\/]/
const MAYBE_HANDOFF_NAME_RE = /[\\/](?:HANDOFF|PLAN)_[^\\/]*\.md(?:[\\/]|\s*$)/

/** A cheap first look at a written path, made before any `$` call so ordinary
 * writes cost the Write/Edit hook nothing; classifyHandoffPath decides. A
 * pre-filter: true for every path classifyHandoffPath accepts, and for some it
 * does not. */
export function mayBeHandoffPath(path: string): boolean {
  return MAYBE_HANDOFF_DIR_RE.test(path) && MAYBE_HANDOFF_NAME_RE.test(path)
}
