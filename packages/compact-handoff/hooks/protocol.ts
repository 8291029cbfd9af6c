// The protocol between this mod, the answer mod and the handoff skills: the
// compaction marker, the skills and their compact-mode argument, the sentinel
// line, the continue-prompt block, and where handoff files live. It is the one
// source of truth on this side; tests/contract/contract.test.ts holds the skills'
// SKILL.md text, the answer mod's marker and the Node validator to it.
// Pure: no `$`, no 'claude-code' import, so vitest can load it under Node.
import { isBlankFrom, isSpaceOrTab, linesOf, skipBlanks } from './markdown-blocks.js'

/** First line of the instructions we pass to `$.session.compact`; the answer mod
 * looks for it (alone on that line) to know the compaction is ours. */
export const MARKER = 'compact-handoff:v1'

/** The first argument that puts a handoff skill in compact mode. */
export const COMPACT_MODE_ARG = 'compact-mode'

/** What the mod knows better than the model, handed to the skill right after
 * `compact-mode` as `key=value` words, which the skill copies into the
 * frontmatter: the model has no clock unless it runs one, and it cannot know
 * which handoff this session was swapped in from. `run` tags the skill's turn
 * (and each repair turn) so the mod can tell it from any other turn. */
export type SkillValues = {
  run: string
  /** ISO 8601 UTC with seconds, as `created` should read. */
  created: string
  /** The parent's chain id, or NEW_CHAIN: the new file names the chain. */
  chain: string
  seq: number
  /** The parent handoff's path relative to the project, or NO_PARENT. */
  parent: string
}

/** The keys, in the order they are written. */
export const SKILL_VALUE_KEYS = ['run', 'created', 'chain', 'seq', 'parent'] as const

/** `chain` of a first handoff: the skill names the chain after its new file. */
export const NEW_CHAIN = 'new'

/** The skill's arguments in compact mode: `compact-mode`, the values, then the
 * focus (free text, possibly empty). */
export function formatSkillArgs(values: SkillValues, focus: string): string {
  const pairs = SKILL_VALUE_KEYS.map((key) => `${key}=${values[key]}`).join(' ')
  const words = focus.trim()
  return words === '' ? `${COMPACT_MODE_ARG} ${pairs}` : `${COMPACT_MODE_ARG} ${pairs} ${words}`
}

/** formatSkillArgs' inverse, for the contract test and the skills' examples:
 * the values and the focus, or undefined when the arguments are not compact mode
 * or a value is missing. Linear: one split into words. */
export function parseSkillArgs(args: string): { values: SkillValues; focus: string } | undefined {
  const words = args.trim().split(/\s+/)
  if (words[0] !== COMPACT_MODE_ARG) return undefined
  const found = new Map<string, string>()
  let i = 1
  for (; i < words.length; i++) {
    const word = words[i] ?? ''
    const eq = word.indexOf('=')
    const key = word.slice(0, eq)
    if (eq <= 0 || !(SKILL_VALUE_KEYS as readonly string[]).includes(key) || found.has(key)) break
    found.set(key, word.slice(eq + 1))
  }
  const seq = Number(found.get('seq'))
  const [run, created, chain, parent] = [found.get('run'), found.get('created'), found.get('chain'), found.get('parent')]
  if (run === undefined || created === undefined || chain === undefined || parent === undefined || !Number.isInteger(seq) || seq < 1) return undefined
  return { values: { run, created, chain, seq, parent }, focus: words.slice(i).join(' ') }
}

export type Mode = 'resume' | 'plan'

/** The skill each mode runs; plugin skills are listed as `<plugin>:<skill>`. */
export const SKILL_OF_MODE: Readonly<Record<Mode, string>> = {
  resume: 'handoff',
  plan: 'handoffplan',
}

export const READY_PREFIX = 'COMPACT-HANDOFF-READY:'
export const FAILED_PREFIX = 'COMPACT-HANDOFF-FAILED:'

/** The line that opens the continue-prompt block; the prompt sits between the
 * next two rules of dashes. */
export const CONTINUE_PROMPT_HEADER = 'PASTE THIS INTO YOUR NEXT SESSION:'

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

export type Sentinel =
  | { kind: 'ready'; paths: string[] }
  | { kind: 'failed'; reason: string }

/** `s` without any run of `char` at either end. A loop, not `/^c+|c+$/g`: that
 * regex backtracks quadratically on a long run of `char` inside a line, and a
 * 100 000-character line then stalls the turn.complete hook for seconds. */
function trimRuns(s: string, char: string): string {
  let start = 0
  let end = s.length
  while (start < end && s[start] === char) start++
  while (end > start && s[end - 1] === char) end--
  return s.slice(start, end)
}

function stripTicks(line: string): string {
  let s = line.trim()
  // Models often wrap the line in backticks or a bullet; tolerate those only.
  s = s.replace(/^(?:[-*]\s+)?`{1,3}/, '').replace(/`{1,3}$/, '').trim()
  return s
}

/** The skill's verdict: the last line of the answer that is a READY or FAILED
 * sentinel (backticks around it tolerated), or undefined when none is. */
export function parseSentinel(answer: string): Sentinel | undefined {
  const lines = answer.split(/\r?\n/)
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = stripTicks(lines[i] ?? '')
    if (line.startsWith(READY_PREFIX)) {
      const paths = line
        .slice(READY_PREFIX.length)
        .split('|')
        .map((p) => trimRuns(p.trim(), '`').trim())
        .filter((p) => p !== '')
      return { kind: 'ready', paths }
    }
    if (line.startsWith(FAILED_PREFIX)) {
      const reason = line.slice(FAILED_PREFIX.length).trim()
      return { kind: 'failed', reason: reason === '' ? 'no reason given' : reason }
    }
  }
  return undefined
}

/** The sentinel line the skills print; the inverse of parseSentinel. */
export function formatSentinel(sentinel: Sentinel): string {
  return sentinel.kind === 'ready'
    ? `${READY_PREFIX} ${sentinel.paths.join(' | ')}`
    : `${FAILED_PREFIX} ${sentinel.reason}`
}

const RULE_RE = /^\s*-{3,}\s*$/

/** The continue-prompt the skill printed: the text between the first two rules
 * of dashes after the last `PASTE THIS INTO YOUR NEXT SESSION:` line, trimmed;
 * undefined when the block is missing, unclosed or empty. */
export function parseContinuePrompt(answer: string): string | undefined {
  const lines = answer.split(/\r?\n/)
  let header = -1
  for (let i = lines.length - 1; i >= 0; i--) {
    if (trimRuns(stripTicks(lines[i] ?? ''), '*').trim() === CONTINUE_PROMPT_HEADER) {
      header = i
      break
    }
  }
  if (header < 0) return undefined
  let open = -1
  for (let i = header + 1; i < lines.length; i++) {
    const line = lines[i] ?? ''
    if (RULE_RE.test(line)) {
      if (open < 0) open = i
      else {
        const body = lines.slice(open + 1, i).join('\n').trim()
        return body === '' ? undefined : body
      }
    } else if (open < 0 && line.trim() !== '' && !/^`{3}/.test(line.trim())) {
      return undefined
    }
  }
  return undefined
}

/** The continue-prompt block as the skills print it; parseContinuePrompt's inverse. */
export function formatContinuePrompt(prompt: string): string {
  const rule = '-'.repeat(40)
  return `${CONTINUE_PROMPT_HEADER}\n${rule}\n${prompt.trim()}\n${rule}`
}

/** A handoff or plan file must hold at least this much text (blank space not
 * counted) to replace a conversation. */
export const MIN_NONBLANK_CHARS = 200

/** Section headings (level 2, in this order) every handoff file has; a section
 * with nothing to say holds "None". */
export const HANDOFF_SECTIONS = [
  'Goal',
  'Constraints',
  'State',
  'In progress',
  'Tried and ruled out',
  'Decisions',
  'Open questions',
  'Files',
  'Next step',
  'Verify',
] as const

/** Section headings every plan file has; Phases holds `### Phase 1: …` and on. */
export const PLAN_SECTIONS = ['Goal', 'Phases', 'Risks'] as const

/** Frontmatter keys of a handoff (`kind: handoff`) and of a plan (`kind: plan`). */
export const HANDOFF_FRONTMATTER_KEYS = ['kind', 'created', 'status', 'chain', 'seq', 'parent', 'focus'] as const
export const PLAN_FRONTMATTER_KEYS = ['kind', 'created', 'chain', 'focus'] as const

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

/** Far above any real handoff (the largest seen in use are under 20 KiB); a
 * file past it would crowd the context it is meant to free. */
export const MAX_HANDOFF_BYTES = 256 * 1024

/** What a handoff says about its work: still going, stopped until the user
 * answers (its Next step starts "Wait for the user:"), or finished. */
export const HANDOFF_STATUSES = ['in-progress', 'waiting-for-user', 'done'] as const

/** `parent` of the first handoff of a chain. */
export const NO_PARENT = 'none'

// The forms a handoff's frontmatter and headings may take. Both checks (the
// mod's hooks/handoff-format.ts and packages/handoff-tools) call these, so
// each rule has one definition. A model writes a date without a clock, a
// parent path the way it last saw it, a heading in title case; where the
// meaning is plain, the value is accepted rather than sent back.

/** A date, or a date and a time to the minute or second (any fraction), `T`
 * or one space between, with `Z`, an offset like `+01:00`, or no zone.
 * Anchored and without nested repeats, so linear on any input. */
const CREATED_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2}))?)?$/

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}

/** Whether a `created` value is a real calendar date or date-time in one of
 * the forms CREATED_RE allows (no 30 February, no 24:00, no leap second). */
export function isCreatedValue(value: string): boolean {
  const match = CREATED_RE.exec(value)
  if (!match) return false
  const field = (index: number) => Number(match[index] ?? 0)
  const [year, month, day, hour, minute, second, zoneHour, zoneMinute] = [1, 2, 3, 4, 5, 6, 7, 8].map(field) as [number, number, number, number, number, number, number, number]
  const dateOk = month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
  return dateOk && hour <= 23 && minute <= 59 && second <= 59 && zoneHour <= 23 && zoneMinute <= 59
}

/** The sections of both kinds, by the lower-case name a heading is matched on. */
export type SectionName = (typeof HANDOFF_SECTIONS)[number] | (typeof PLAN_SECTIONS)[number]
const SECTION_OF_KEY: ReadonlyMap<string, SectionName> = new Map(
  [...HANDOFF_SECTIONS, ...PLAN_SECTIONS].map((name) => [name.toLowerCase(), name] as const),
)

/** What may trail a section's name in its heading without changing which
 * section it is (`## Goal:`, `## Verify.`, `## Goal :`). */
const TRAILING_MARKS = new Set([' ', '\t', '.', ',', ':', ';', '!', '?'])

/** The section a heading's text names, or undefined when it names none:
 * letter case and trailing punctuation do not count. `headingText` is the
 * heading's text as a reader sees it (markup already dropped). */
export function sectionNameOf(headingText: string): SectionName | undefined {
  const text = headingText.trim()
  let end = text.length
  while (end > 0 && TRAILING_MARKS.has(text.charAt(end - 1))) end--
  return SECTION_OF_KEY.get(text.slice(0, end).toLowerCase())
}

/** `projectDir` without trailing slashes, backslashes read as slashes. A loop,
 * not `/\/+$/`, which backtracks quadratically on a long run of slashes. */
function folderPathOf(projectDir: string): string {
  const path = projectDir.replace(/\\/g, '/')
  let end = path.length
  while (end > 0 && path.charAt(end - 1) === '/') end--
  return path.slice(0, end)
}

/** Whether a `seq` value is a whole number from 1, written without sign,
 * leading zero or blanks. */
export function isSeqValue(value: string): boolean {
  return /^[1-9]\d*$/.test(value)
}

/** Whether a `chain` value is a chain id: a handoff file's name without `.md`. */
export function isChainValue(value: string): boolean {
  return fileKindOfName(`${value}.md`) === 'handoff'
}

/** Whether a `focus` value says something (blank in any script is empty). */
export function isFocusValue(value: string): boolean {
  return value.trim() !== ''
}

/**
 * A `parent` value as the protocol means it: NO_PARENT, or the parent
 * handoff's path relative to the project (`plans/handoffs/HANDOFF_x.md`);
 * undefined when the value is neither.
 *
 * The path may be written relative, with a leading `./`, or absolute inside
 * the project; `projectDir` is the project, the absolute path of the folder the
 * session runs in. Nothing else is resolved: a `..`, a `.` segment further in,
 * a doubled slash or a backslash leaves the value refused, so no spelling can
 * reach outside the project or name a file other than the one it shows.
 */
export function parentRelPathOf(value: string, projectDir: string): string | undefined {
  if (value === NO_PARENT) return NO_PARENT
  const absolutePrefix = `${folderPathOf(projectDir)}/`
  const relPath = value.startsWith(absolutePrefix) ? value.slice(absolutePrefix.length) : value.startsWith('./') ? value.slice(2) : value
  return fileKindOfRelPath(relPath) === 'handoff' ? relPath : undefined
}

function trimBlanksEnd(s: string): string {
  let end = s.length
  while (end > 0 && isSpaceOrTab(s[end - 1])) end--
  return s.slice(0, end)
}

// A flat reader for the one-line `key: value` pairs a frontmatter holds. It
// accepts a subset of what YAML accepts and reads it as YAML does; anything
// else (a nested structure, a multi-line or block value, a tag, an anchor, a
// character YAML does not print) is refused rather than misread.

/** Whether the UTF-16 unit at `i` is one YAML may hold in a scalar (c-printable,
 * tab included, byte-order mark excluded); a lone surrogate is not. */
function isPrintableAt(s: string, i: number): boolean {
  const code = s.charCodeAt(i)
  if (code === 0x09) return true
  if (code < 0x20 || code === 0x7f || (code >= 0x80 && code <= 0x9f && code !== 0x85)) return false
  if (code === 0xfeff || code === 0xfffe || code === 0xffff) return false
  if (code >= 0xd800 && code <= 0xdbff) return (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00
  if (code >= 0xdc00 && code <= 0xdfff) return (s.charCodeAt(i - 1) & 0xfc00) === 0xd800
  return true
}

/** After a quoted scalar: nothing, or blanks and a comment. */
function endsCleanly(raw: string, from: number): boolean {
  return from === raw.length || (isSpaceOrTab(raw[from]) && raw[skipBlanks(raw, from)] === '#')
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b', ' ': ' ',
  '"': '"', '/': '/', '\\': '\\', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
}
const HEX_ESCAPE_DIGITS: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 }

/** A double-quoted YAML escape at `raw[at]` (the backslash): its text and where it ends. */
function escapeAt(raw: string, at: number): { text: string; end: number } | undefined {
  const letter = raw[at + 1] ?? ''
  const simple = SIMPLE_ESCAPES[letter]
  if (simple !== undefined) return { text: simple, end: at + 2 }
  const digits = HEX_ESCAPE_DIGITS[letter]
  if (digits === undefined) return undefined
  const hex = raw.slice(at + 2, at + 2 + digits)
  if (hex.length !== digits || !/^[0-9a-fA-F]+$/.test(hex)) return undefined
  const code = parseInt(hex, 16)
  return code > 0x10ffff ? undefined : { text: String.fromCodePoint(code), end: at + 2 + digits }
}

function doubleQuotedOf(raw: string): string | undefined {
  const parts: string[] = []
  let from = 1
  for (let i = 1; i < raw.length; i++) {
    const char = raw[i]
    if (char === '"') return endsCleanly(raw, i + 1) ? [...parts, raw.slice(from, i)].join('') : undefined
    if (char === '\\') {
      const escape = escapeAt(raw, i)
      if (!escape) return undefined
      parts.push(raw.slice(from, i), escape.text)
      from = escape.end
      i = escape.end - 1
    } else if (!isPrintableAt(raw, i)) return undefined
  }
  return undefined
}

function singleQuotedOf(raw: string): string | undefined {
  const parts: string[] = []
  let from = 1
  for (let i = 1; i < raw.length; i++) {
    if (raw[i] === "'") {
      parts.push(raw.slice(from, i))
      if (raw[i + 1] !== "'") return endsCleanly(raw, i + 1) ? parts.join('') : undefined
      parts.push("'")
      from = i + 2
      i++
    } else if (!isPrintableAt(raw, i)) return undefined
  }
  return undefined
}

/** Characters that cannot start a plain YAML scalar; `-`, `?` and `:` can when
 * a non-blank follows. */
const YAML_INDICATORS = new Set(['-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`'])

function plainOf(raw: string): string | undefined {
  const first = raw[0]!
  const isIndicatorStart = YAML_INDICATORS.has(first) && !('-?:'.includes(first) && raw.length > 1 && !isSpaceOrTab(raw[1]))
  if (isIndicatorStart) return undefined
  let end = raw.length
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === '#' && isSpaceOrTab(raw[i - 1])) {
      end = i
      break
    }
    const isMappingColon = raw[i] === ':' && (i + 1 === raw.length || isSpaceOrTab(raw[i + 1]))
    if (isMappingColon || !isPrintableAt(raw, i)) return undefined
  }
  return trimBlanksEnd(raw.slice(0, end))
}

/** A value as YAML reads it: '' for none (YAML's null), undefined when this
 * reader does not take it. `raw` has no blanks at either end. */
function scalarOf(raw: string): string | undefined {
  if (raw === '' || raw[0] === '#') return ''
  if (raw[0] === '"') return doubleQuotedOf(raw)
  if (raw[0] === "'") return singleQuotedOf(raw)
  return plainOf(raw)
}

function isKeyChar(char: string | undefined, isFirst: boolean): boolean {
  if (char === undefined) return false
  const isLetter = (char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z') || char === '_'
  return isLetter || (!isFirst && ((char >= '0' && char <= '9') || char === '-'))
}

function keyValueOf(line: string): { key: string; value: string } | undefined {
  let colon = 0
  while (isKeyChar(line[colon], colon === 0)) colon++
  if (colon === 0 || line[colon] !== ':') return undefined
  const afterColon = colon + 1
  if (afterColon < line.length && !isSpaceOrTab(line[afterColon])) return undefined
  const value = scalarOf(trimBlanksEnd(line.slice(skipBlanks(line, afterColon))))
  return value === undefined ? undefined : { key: line.slice(0, colon), value }
}

/** remark-frontmatter's fence: exactly three dashes, then only blanks. */
function isFrontmatterFence(line: string | undefined): boolean {
  return line !== undefined && line.startsWith('---') && isBlankFrom(line, 3)
}

/** A problem as data: the rule it breaks (the validator's name where it has
 * the same rule), the 1-based line it is on, and what to do about it. */
export type RuleProblem = { rule: string; line: number; message: string }

/** `keyLines`: the 1-based line each key is first on. */
export type Frontmatter = { fields: Map<string, string>; keyLines: Map<string, number>; bodyStart: number }

/** The frontmatter of a file split by markdown-blocks.ts' linesOf (byte-order
 * mark already dropped): its one-line `key: value` fields and the line the
 * body starts on, or undefined when there is none. What it cannot read is
 * pushed onto `problems`. The one frontmatter reader of the mod, the CLI and
 * the format check. */
export function readFrontmatter({ lines, ends }: { lines: readonly string[]; ends: readonly string[] }, problems: RuleProblem[]): Frontmatter | undefined {
  if (!isFrontmatterFence(lines[0])) {
    problems.push({ rule: 'frontmatter-missing', line: 1, message: 'has no frontmatter: start the file with a "---" line, the kind\'s keys, and a closing "---" line' })
    return undefined
  }
  const close = lines.findIndex((line, i) => i > 0 && isFrontmatterFence(line))
  if (close < 0) {
    // remark-frontmatter reads an unclosed fence as no frontmatter at all.
    problems.push({ rule: 'frontmatter-missing', line: 1, message: 'frontmatter is never closed: add a "---" line after its last key' })
    return undefined
  }
  // Markdown ends a line at a lone CR, YAML does not: the YAML reader would
  // see one long line where this reader sees several.
  const loneCr = ends.slice(0, close).indexOf('\r')
  if (loneCr >= 0) problems.push({ rule: 'frontmatter-line-end', line: loneCr + 1, message: `frontmatter line ${loneCr + 1} ends in a lone carriage return: end lines with LF or CRLF` })
  const fields = new Map<string, string>()
  const keyLines = new Map<string, number>()
  for (let i = 1; i < close; i++) {
    const line = lines[i] ?? ''
    const first = skipBlanks(line, 0)
    if (first === line.length || line[first] === '#') continue
    const pair = keyValueOf(line)
    if (!pair) {
      problems.push({ rule: 'frontmatter-unread', line: i + 1, message: `frontmatter line ${i + 1} is not a "key: value" pair: write each key on one line with a plain or quoted value` })
      continue
    }
    if (fields.has(pair.key)) problems.push({ rule: 'frontmatter-yaml', line: i + 1, message: `frontmatter key "${pair.key}" appears twice: keep one` })
    fields.set(pair.key, pair.value)
    if (!keyLines.has(pair.key)) keyLines.set(pair.key, i + 1)
  }
  return { fields, keyLines, bodyStart: close + 1 }
}

/** readFrontmatter over a whole file's text (a byte-order mark allowed). */
export function readFrontmatterOf(text: string): { frontmatter: Frontmatter | undefined; problems: RuleProblem[] } {
  const problems: RuleProblem[] = []
  const frontmatter = readFrontmatter(linesOf(text.replace(/^\uFEFF/, '')), problems)
  return { frontmatter, problems }
}
