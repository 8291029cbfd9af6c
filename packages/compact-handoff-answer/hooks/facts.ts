// The work's facts that compact-handoff records from the main loop's tool calls
// (its `work` state: files changed and read, commands with their exit status),
// as a section of the instructions of a compaction that is not ours. A summary
// keeps few paths and almost no commands, so they are handed to the summariser
// as compact-handoff hands them to its own stub.
//
// A hooks module reaches only its own files, so this restates compact-handoff's
// evidence.ts evidenceSectionOf and protocol-paths.ts relativeToCwd;
// tests/contract/answer-sections-agree.test.ts holds the two to the same text for the
// same input. Pure and free of 'claude-code' so vitest can load it under Node.

/** compact-handoff's recorded facts as this mod reads them (`work.facts`):
 * each list newest last, paths absolute as the tools got them. */
export type FactsView = {
  changed: readonly { path: string; count: number }[]
  read: readonly string[]
  commands: readonly { line: string; exitCode: number | null; shellId?: string }[]
}

/** The section never grows past this many characters (compact-handoff's
 * MAX_EVIDENCE_SECTION_CHARS). */
export const MAX_FACTS_SECTION_CHARS = 4_000

// Windows paths too: a folder with a drive letter (`C:\`) or a UNC root
// (`\\server\share`) is read by Windows' rules, `\` and `/` alike, letter case
// ignored (ASCII only); any other folder by POSIX's rules. A long path
// (`\\?\C:\…`, `\\?\UNC\…`) is read as the path it spells when it holds no
// `/`, empty, `.` or `..` segment; other device paths are refused.
const WINDOWS_FOLDER_RE = /^(?:[A-Za-z]:[\\/]|[\\/]{2}[^\\/])/
const LONG_PATH_RE = /^\\\\\?\\(?:(UNC)\\)?/i
const DEVICE_PATH_RE = /^(?:[\\/]{2}[?.](?:[\\/]|$)|[\\/]\?\?[\\/])/
const UNC_ROOT_RE = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)/
const DRIVE_RE = /^([A-Za-z]):/
const SEPARATORS_RE = /[\\/]+/

type Rooted = { root: string; segments: string[] }

const isSeparator = (char: string | undefined): boolean => char === '/' || char === '\\'

function sameName(a: string, b: string, ignoresCase: boolean): boolean {
  const fold = (text: string) => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())
  return a === b || (ignoresCase && a.length === b.length && fold(a) === fold(b))
}

/** Where the path starts ('' relative, '/' a root with no drive, 'c:' a drive,
 * '//server/share') and its segments; undefined for a device path, a UNC name
 * with no share, a drive with no separator after it, or a segment Windows
 * would rewrite (a trailing dot or blank, a colon). */
function rootedOf(path: string, isWindows: boolean): Rooted | undefined {
  const rootless = (rest: string, root: string): Rooted => ({ root, segments: rest.split(SEPARATORS_RE) })
  if (!isWindows) return rootless(path, isSeparator(path[0]) ? '/' : '')
  const long = LONG_PATH_RE.exec(path)
  const rest = long ? path.slice(long[0].length) : path
  const spelled = long?.[1] !== undefined ? `\\\\${rest}` : rest
  let rooted: Rooted | undefined
  const unc = UNC_ROOT_RE.exec(spelled)
  const drive = DRIVE_RE.exec(spelled)
  if (long && (rest.includes('/') || (long[1] === undefined && !drive))) rooted = undefined
  else if (!long && DEVICE_PATH_RE.test(path)) rooted = undefined
  else if (isSeparator(spelled[0]) && isSeparator(spelled[1])) rooted = unc ? rootless(spelled.slice(unc[0].length), `//${unc[1]}/${unc[2]}`) : undefined
  else if (drive) rooted = isSeparator(spelled[2]) ? rootless(spelled.slice(2), `${drive[1]!.toLowerCase()}:`) : undefined
  else rooted = rootless(spelled, isSeparator(spelled[0]) ? '/' : '')
  const isPlain = (s: string) => s === '.' || s === '..' || !(s.endsWith('.') || s.endsWith(' ') || s.includes(':'))
  const isVerbatim = (s: string, i: number, all: readonly string[]) => s !== '.' && s !== '..' && (s !== '' || i === 0 || i === all.length - 1)
  return rooted?.segments.every(isPlain) && (!long || rooted.segments.every(isVerbatim)) ? rooted : undefined
}

/** Lexically resolves `.` and `..`; undefined when `..` climbs above the start. */
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

/** `path` relative to `cwd`, or undefined when it is not inside `cwd`. */
function relativeToCwd(path: string, cwd: string): string | undefined {
  const isWindows = WINDOWS_FOLDER_RE.test(cwd)
  const folder = rootedOf(cwd, isWindows)
  const base = folder && collapseDots(folder.segments)
  const p = path.trim()
  const rooted = p === '' ? undefined : rootedOf(p, isWindows)
  if (!folder || !base || !rooted) return undefined
  const root = rooted.root === '' || (isWindows && rooted.root === '/') ? folder.root : rooted.root
  const full = collapseDots(rooted.root === '' ? [...base, ...rooted.segments] : rooted.segments)
  if (!full || !sameName(root, folder.root, isWindows) || full.length <= base.length) return undefined
  for (let i = 0; i < base.length; i++) if (!sameName(full[i]!, base[i]!, isWindows)) return undefined
  return full.slice(base.length).join('/')
}

/** A path as the section names it: relative to the session folder when inside it. */
export function shownPathOf(path: string, cwd: string): string {
  return relativeToCwd(path, cwd) ?? path
}

/** The facts with every path as the section shows it. */
export function shownFactsOf(facts: FactsView, cwd: string): FactsView {
  return {
    changed: facts.changed.map((c) => ({ ...c, path: shownPathOf(c.path, cwd) })),
    read: facts.read.map((p) => shownPathOf(p, cwd)),
    commands: facts.commands,
  }
}

/** A command moved to the background (`shellId`) had not ended when recorded. */
function outcomeText(command: FactsView['commands'][number]): string {
  if (command.shellId !== undefined) return `started in the background as shell ${command.shellId}`
  return command.exitCode === null ? 'failed' : `exit ${command.exitCode}`
}

/** The facts section, newest first, or undefined when nothing was recorded.
 * Lines that would pass the size bound are left out, and it says so. Worded as
 * compact-handoff's stub words it. */
export function factsSectionOf(facts: FactsView): string | undefined {
  const lines: string[] = []
  if (facts.changed.length > 0) lines.push(`Files changed: ${[...facts.changed].reverse().map((c) => (c.count > 1 ? `${c.path} (${c.count}×)` : c.path)).join(', ')}`)
  if (facts.read.length > 0) lines.push(`Files read: ${[...facts.read].reverse().join(', ')}`)
  if (facts.commands.length > 0) {
    lines.push('Last commands, newest first:', ...[...facts.commands].reverse().map((c) => `- ${c.line}  → ${outcomeText(c)}`))
  }
  if (lines.length === 0) return undefined
  const head = 'What this session did, recorded by code from its tool calls (facts, not notes):'
  const kept: string[] = [head]
  let size = head.length
  for (const line of lines) {
    if (size + line.length + 1 > MAX_FACTS_SECTION_CHARS) {
      kept.push('[more was recorded than fits here]')
      break
    }
    kept.push(line)
    size += line.length + 1
  }
  return kept.join('\n')
}
