// Where handoff and plan files live and what they are called: the one
// definition of "a handoff path in a handoff folder", used by the mod when it
// records the skill's writes and checks the sentinel, and by packages/handoff-tools.
// Lexical only (no file system), so it is pure and linear in the path.

/** Folders (relative to the session's folder) that hold handoff and plan files,
 * in the order the skills prefer them. */
export const HANDOFF_DIRS = ['plans/handoffs', '.claude/handoffs'] as const

export type FileKind = 'handoff' | 'plan'

/** `HANDOFF_` or `PLAN_`, any safe stem, `.md`: the skills write the
 * slug/date form (tests' skill-protocol.ts SKILL_FILE_NAME_RE). */
const FILE_NAME_RE = /^(HANDOFF|PLAN)_[A-Za-z0-9][A-Za-z0-9._-]*\.md$/

/** What a file name says the file is, or undefined when it is not one of ours. */
export function fileKindOfName(name: string): FileKind | undefined {
  const match = FILE_NAME_RE.exec(name)
  if (!match) return undefined
  return match[1] === 'PLAN' ? 'plan' : 'handoff'
}

/** Claude Code runs on Windows too: a folder that starts with a drive letter
 * (`C:\`, `c:/`) or two separators (UNC, `\\server\share`) is read by
 * Windows' rules, any other by POSIX's. Both read `\` and `/` as separators. */
const WINDOWS_FOLDER_RE = /^(?:[A-Za-z]:[\\/]|[\\/]{2}[^\\/])/

export function isWindowsPath(folder: string): boolean {
  return WINDOWS_FOLDER_RE.test(folder)
}

/** The one definition of where folders are compared without regard to letter
 * case: where the file system ignores it, Windows always (told by the folder's
 * shape) and macOS by default (told by `$.session.info().platform`). Only ASCII
 * letters are folded: a folder that differs in any other letter is treated as
 * another folder, so a spelling is at worst refused, never let outside. */
export function folderIgnoresCase(folder: string, platform?: string): boolean {
  return isWindowsPath(folder) || platform === 'macos' || platform === 'windows'
}

function foldedAscii(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())
}

/** Whether two spellings name the same thing, folding ASCII letter case where
 * the file system ignores it. */
export function isSameName(a: string, b: string, ignoresCase: boolean): boolean {
  return a === b || (ignoresCase && a.length === b.length && foldedAscii(a) === foldedAscii(b))
}

/** A long path (`\\?\C:\…`, `\\?\UNC\server\share\…`) names its file verbatim:
 * Windows rewrites nothing in it. It is read as the plain path it spells when
 * it holds nothing a rewrite would have changed (`/`, an empty, `.` or `..`
 * segment), and refused otherwise. */
const LONG_PATH_RE = /^\\\\\?\\(?:(UNC)\\)?/i
/** Other paths into Windows' object namespace (`\\.\`, `\??\`, `//?/`) are
 * refused, never guessed at. */
const DEVICE_PATH_RE = /^(?:[\\/]{2}[?.](?:[\\/]|$)|[\\/]\?\?[\\/])/
const UNC_ROOT_RE = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)/
const DRIVE_RE = /^([A-Za-z]):/
const SEPARATORS_RE = /[\\/]+/

/** Where a path starts: `''` relative, `'/'` at a root with no drive named,
 * `'c:'` a drive (letters are lower-cased: Windows ignores their case),
 * `'//server/share'` a UNC share. */
type Split = { root: string; segments: string[] }

function isSeparator(char: string | undefined): boolean {
  return char === '/' || char === '\\'
}

function splitOf(rest: string, root: string): Split {
  return { root, segments: rest.split(SEPARATORS_RE) }
}

function uncSplitOf(path: string): Split | undefined {
  const unc = UNC_ROOT_RE.exec(path)
  return unc ? splitOf(path.slice(unc[0].length), `//${unc[1]}/${unc[2]}`) : undefined
}

/** A drive with no separator after it (`C:foo`) is relative to that drive's
 * own current folder, which is unknown: undefined. */
function driveSplitOf(path: string): Split | undefined {
  const drive = DRIVE_RE.exec(path)
  return drive && isSeparator(path[2]) ? splitOf(path.slice(2), `${drive[1]!.toLowerCase()}:`) : undefined
}

function longPathSplitOf(path: string, long: RegExpExecArray): Split | undefined {
  const rest = path.slice(long[0].length)
  if (rest.includes('/')) return undefined
  const split = long[1] !== undefined ? uncSplitOf(`\\\\${rest}`) : driveSplitOf(rest)
  const isVerbatim = (segment: string, i: number, all: readonly string[]) => segment !== '.' && segment !== '..' && (segment !== '' || i === 0 || i === all.length - 1)
  return split?.segments.every(isVerbatim) ? split : undefined
}

/** Windows' reading, or undefined for a path it would not read as written: a
 * device path, a UNC name with no share, or a drive with no separator after it. */
function windowsSplitOf(path: string): Split | undefined {
  const long = LONG_PATH_RE.exec(path)
  if (long) return longPathSplitOf(path, long)
  if (DEVICE_PATH_RE.test(path)) return undefined
  if (isSeparator(path[0]) && isSeparator(path[1])) return uncSplitOf(path)
  if (DRIVE_RE.test(path)) return driveSplitOf(path)
  return splitOf(path, isSeparator(path[0]) ? '/' : '')
}

/** Windows drops a trailing dot or blank from a name, and a colon names a
 * stream or a drive: such a segment would not name what it spells, so it is
 * refused rather than read one way here and another on disk. */
function isPlainWindowsSegment(segment: string): boolean {
  if (segment === '.' || segment === '..') return true
  const last = segment[segment.length - 1]
  return last !== '.' && last !== ' ' && !segment.includes(':')
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

/** `path` resolved lexically against the folder: where it starts and its
 * segments, or undefined when it cannot be read safely (or, with
 * `isAbsoluteOnly`, when it does not name its drive or root itself). */
function resolvedOf(path: string, folder: Split, isWindows: boolean, isAbsoluteOnly = false): Split | undefined {
  const split = isWindows ? windowsSplitOf(path) : splitOf(path, isSeparator(path[0]) ? '/' : '')
  if (!split || (isWindows && !split.segments.every(isPlainWindowsSegment))) return undefined
  if (isAbsoluteOnly && (split.root === '' || (isWindows && split.root === '/'))) return undefined
  // A root with no drive named is the folder's own drive or share on Windows.
  const root = split.root === '' || (isWindows && split.root === '/') ? folder.root : split.root
  const segments = collapseDots(split.root === '' ? [...folder.segments, ...split.segments] : split.segments)
  return segments && { root, segments }
}

/** `path`'s segments below `folder`, or undefined when it is not inside it
 * (the folder itself is not inside). */
function segmentsBelow(path: string, folder: string, ignoresCase: boolean, isAbsoluteOnly: boolean): string[] | undefined {
  const isWindows = isWindowsPath(folder)
  const base = resolvedOf(folder, { root: '', segments: [] }, isWindows)
  const p = path.trim()
  const full = base && p !== '' ? resolvedOf(p, base, isWindows, isAbsoluteOnly) : undefined
  if (!base || !full || !isSameName(full.root, base.root, ignoresCase) || full.segments.length <= base.segments.length) return undefined
  for (let i = 0; i < base.segments.length; i++) if (!isSameName(full.segments[i]!, base.segments[i]!, ignoresCase)) return undefined
  return full.segments.slice(base.segments.length)
}

/** The path relative to `cwd` ("plans/handoffs/HANDOFF_x.md"), or undefined when
 * `path` is not inside `cwd`. Accepts absolute paths and paths relative to cwd,
 * in POSIX or Windows form (read by the folder's form, see isWindowsPath). */
export function relativeToCwd(path: string, cwd: string, ignoresCase = folderIgnoresCase(cwd)): string | undefined {
  return segmentsBelow(path, cwd, ignoresCase, false)?.join('/')
}

export type HandoffPath = { kind: FileKind; relPath: string }

/** The absolute path of `relPath` inside `folder` (a session folder as the engine
 * reports it), joined with the folder's own separator. */
export function inFolder(folder: string, relPath: string): string {
  let end = folder.length
  while (end > 0 && isSeparator(folder[end - 1])) end--
  const separator = isWindowsPath(folder) && folder.includes('\\') ? '\\' : '/'
  return `${folder.slice(0, end)}${separator}${separator === '/' ? relPath : relPath.split('/').join(separator)}`
}

/** The handoff folder (as HANDOFF_DIRS spells it) that `dir` names, if any. */
function handoffDirOf(dir: readonly string[], ignoresCase: boolean): string | undefined {
  return HANDOFF_DIRS.find((known) => isSameName(dir.join('/'), known, ignoresCase))
}

/** Classifies a written path: a handoff or plan file directly under one of the
 * handoff folders of the session's folder, or undefined. Lexical only; the
 * on-disk check resolves symlinks before anything is replaced. Where case is
 * ignored, the folder part is returned as HANDOFF_DIRS spells it. */
export function classifyHandoffPath(path: string, cwd: string, ignoresCase = folderIgnoresCase(cwd)): HandoffPath | undefined {
  const below = segmentsBelow(path, cwd, ignoresCase, false)
  const name = below?.at(-1)
  const dir = below && handoffDirOf(below.slice(0, -1), ignoresCase)
  const kind = name === undefined || dir === undefined ? undefined : fileKindOfName(name)
  return kind && { kind, relPath: `${dir}/${name}` }
}

/** Whether a file's real path (`$.fs.stat` with resolve) lies directly in a
 * handoff folder of the session folder's own real path. Absolute paths only. */
export function isInHandoffFolder(realPath: string, folderRealPath: string, ignoresCase: boolean): boolean {
  const below = segmentsBelow(realPath, folderRealPath, ignoresCase, true)
  return below !== undefined && handoffDirOf(below.slice(0, -1), ignoresCase) !== undefined
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
 * `handoffs` segment (in any letter case where case is ignored) and a
 * `HANDOFF_`/`PLAN_` segment ending in `.md`, which
 * may be followed by more segments (`x/..`, a trailing `/`) or by blanks
 * (classifyHandoffPath trims). */
const MAYBE_HANDOFF_DIR_RE = /[\\/]handoffs[\\/]/i
const MAYBE_HANDOFF_NAME_RE = /[\\/](?:HANDOFF|PLAN)_[^\\/]*\.md(?:[\\/]|\s*$)/

/** A cheap first look at a written path, made before any `$` call so ordinary
 * writes cost the Write/Edit hook nothing; classifyHandoffPath decides. A
 * pre-filter: true for every path classifyHandoffPath accepts, and for some it
 * does not. */
export function mayBeHandoffPath(path: string): boolean {
  return MAYBE_HANDOFF_DIR_RE.test(path) && MAYBE_HANDOFF_NAME_RE.test(path)
}
