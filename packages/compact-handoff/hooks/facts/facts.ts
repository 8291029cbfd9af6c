// The work's hard facts, recorded by code from the main loop's tool calls that
// succeeded (work-steps.ts), as the person's words are: after a compaction a summary keeps few
// file paths and almost no commands or their results, so the stub carries them.
// Bounded on every axis; each list keeps its newest entries, newest last.
// Every command and path here was masked by the engine's redact when it was
// recorded (work-steps.ts), so the facts, the stub and the meter hold masked forms.
import { classifyHandoffPath, mayBeHandoffPath, relativeToCwd } from '../protocol/protocol-paths.js'
import { MAX_COMMAND_CHARS, boundedListOf, boundedSectionOf, headOf } from '../text/text-clip.js'

export const MAX_CHANGED_FILES = 40
export const MAX_READ_FILES = 40
export const MAX_COMMANDS = 20
/** The stub's facts section never grows past this many characters (and the
 * line that says what it left out). */
export const MAX_FACTS_SECTION_CHARS = 4_000
/** Each list of paths in it is cut to this many characters, whole paths, the
 * rest counted: three lists take under two thirds of the section, so no list
 * of paths crowds out the commands and their exit statuses. */
export const MAX_PATH_LIST_CHARS = 800
/** The line for commands left out names at most this many of the failed or
 * started ones, each cut to DROPPED_COMMAND_CHARS. */
const NAMED_DROPPED = 3
const DROPPED_COMMAND_CHARS = 80

/** A command and how it ended; one the engine moved to the background
 * (`shellId`, its task's id) had not ended when its result came, so it has no
 * exit status (`exitCode` null): it is a started command, not a finished one. */
export type Command = { line: string; exitCode: number | null; shellId?: string }

/** What the record's own bounds let go of, counted: the oldest commands past
 * MAX_COMMANDS (how many of them failed or went to the background) and the
 * files changed past MAX_CHANGED_FILES, so a stub can say so. */
export type Dropped = { commands: number; failed: number; background: number; changed: number }

export type Facts = {
  changed: { path: string; count: number }[]
  read: string[]
  commands: Command[]
  /** Absent while nothing was let go (and in a record kept before it was counted). */
  dropped?: Dropped
}

export const NO_FACTS: Facts = { changed: [], read: [], commands: [] }

const NOTHING_DROPPED: Dropped = { commands: 0, failed: 0, background: 0, changed: 0 }

function withDropped(facts: Facts, more: Partial<Dropped>): Facts {
  const dropped = { ...NOTHING_DROPPED, ...facts.dropped }
  for (const key of Object.keys(more) as (keyof Dropped)[]) dropped[key] += more[key] ?? 0
  return { ...facts, dropped }
}

/** Whether a command did not end well: a non-zero exit, or an error that named none. */
function hasFailed(command: Command): boolean {
  return command.shellId === undefined && command.exitCode !== 0
}

/** The tools whose calls are heard as they happen: a write of a handoff is
 * recorded first (run/run-steps.ts recordWrite), and a run's phase moves
 * with it. Every call's facts are read from the conversation (transcript-calls.ts). */
export const CHANGE_TOOLS = ['Write', 'Edit'] as const

/** A path as the facts name it: relative to the session folder when inside it. */
export function shownPath(path: string, cwd: string): string {
  return relativeToCwd(path, cwd) ?? path
}

/** `items` with `item` moved (or added) to the end, at most `max` kept. */
function newestLast<T>(items: readonly T[], item: T, isSame: (a: T) => boolean, max: number): T[] {
  const rest = items.filter((x) => !isSame(x))
  return [...rest, item].slice(-max)
}

export function withChange(facts: Facts, path: string): Facts {
  const count = (facts.changed.find((c) => c.path === path)?.count ?? 0) + 1
  const changed = newestLast(facts.changed, { path, count }, (c) => c.path === path, MAX_CHANGED_FILES)
  const isNewPast = count === 1 && facts.changed.length === MAX_CHANGED_FILES
  return isNewPast ? withDropped({ ...facts, changed }, { changed: 1 }) : { ...facts, changed }
}

/** The same facts when `path` is already the newest read. */
export function withRead(facts: Facts, path: string): Facts {
  if (facts.read.at(-1) === path) return facts
  return { ...facts, read: newestLast(facts.read, path, (p) => p === path, MAX_READ_FILES) }
}

/** Cuts a command line to MAX_COMMAND_CHARS, never inside a surrogate pair.
 * Given a masked line: cut first, a token could lose the part its mask finds. */
export function clippedCommandOf(line: string): string {
  return clippedTo(line.trim(), MAX_COMMAND_CHARS)
}

/** `line` as clippedCommandOf left it: the meter compares that same text. */
export function withCommand(facts: Facts, line: string, exitCode: number | null, shellId?: string): Facts {
  const command = shellId === undefined ? { line, exitCode } : { line, exitCode: null, shellId }
  const all = [...facts.commands, command]
  const gone = all.slice(0, Math.max(0, all.length - MAX_COMMANDS))
  const next = { ...facts, commands: all.slice(-MAX_COMMANDS) }
  if (gone.length === 0) return next
  return withDropped(next, { commands: gone.length, failed: gone.filter(hasFailed).length, background: gone.filter((c) => c.shellId !== undefined).length })
}

const EXIT_CODE_RE = /Exit code (\d{1,3})/

/** A Bash call's exit status from its outcome: 0 when it answered without
 * error, the code its error text names, or null when it names none. */
export function exitCodeOf(outcome: { isError?: true; text?: string }): number | null {
  if (outcome.isError !== true) return 0
  const match = EXIT_CODE_RE.exec((outcome.text ?? '').slice(0, 200))
  return match ? Number(match[1]) : null
}

/** The handoff's Files section, lower-cased, or the whole text when it has none:
 * a linear scan of its lines. */
function filesSectionOf(handoffText: string): string {
  const lines = handoffText.split('\n')
  const start = lines.findIndex((l) => /^##[ \t]+files\b/i.test(l.trimEnd().slice(0, 40)))
  if (start < 0) return handoffText.toLowerCase()
  const end = lines.findIndex((l, i) => i > start && /^##[ \t]/.test(l.slice(0, 4)))
  return lines.slice(start, end < 0 ? undefined : end).join('\n').toLowerCase()
}

/** Files changed this session that the handoff's Files section never mentions
 * (by path or by file name): a notice for the next context, never a refusal. */
export function changedNotInHandoff(facts: Facts, handoffText: string, handoffPaths: readonly string[]): string[] {
  const section = filesSectionOf(handoffText)
  return facts.changed
    .map((c) => c.path)
    .filter((path) => !handoffPaths.includes(path))
    .filter((path) => {
      // A path outside the folder is shown as given: a Windows one ends in `\\name`.
      const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1).toLowerCase()
      return !section.includes(path.toLowerCase()) && !section.includes(name)
    })
}

function outcomeText(command: Command): string {
  if (command.shellId !== undefined) return `started in the background as shell ${command.shellId}`
  return command.exitCode === null ? 'failed' : `exit ${command.exitCode}`
}

/** What the line for left-out commands says of the oldest `leftOut` of
 * `newestFirst`, and of those the record itself let go: how many, how many
 * failed or went to the background, the first few of those named. */
function leftOutLineOf(newestFirst: readonly Command[], leftOut: number, dropped: Dropped): string {
  const shown = newestFirst.slice(newestFirst.length - leftOut)
  const failed = shown.filter(hasFailed)
  const started = shown.filter((c) => c.shellId !== undefined)
  const total = leftOut + dropped.commands
  const parts = [`- and ${total} older ${total === 1 ? 'command' : 'commands'} not shown`]
  const named = (commands: readonly Command[]) => commands.slice(0, NAMED_DROPPED).map((c) => `${clippedTo(c.line, DROPPED_COMMAND_CHARS)} → ${outcomeText(c)}`)
  const partOf = (listed: readonly Command[], count: number, what: string) => {
    const more = count - Math.min(listed.length, NAMED_DROPPED)
    if (count > 0) parts.push(`${count} ${what}${listed.length > 0 ? `: ${named(listed).join('; ')}` : ''}${more > 0 && listed.length > 0 ? `; and ${more} more` : ''}`)
  }
  partOf(failed, failed.length + dropped.failed, 'of them failed')
  partOf(started, started.length + dropped.background, 'started in the background')
  return parts.join(', ')
}

function clippedTo(line: string, maxChars: number): string {
  return line.length > maxChars ? `${headOf(line, maxChars)} […]` : line
}

/** The stub's section of facts, newest first, or undefined when nothing was
 * recorded. Each list of paths says how many it left out, and the commands
 * past the size bound (or past the record's own) are counted, their failures
 * and background shells named. */
export function factsSectionOf(facts: Facts, notInHandoff: readonly string[] = []): string | undefined {
  const dropped = facts.dropped ?? NOTHING_DROPPED
  const lines: string[] = []
  if (notInHandoff.length > 0) lines.push(boundedListOf('Changed this session, not in the handoff: ', [...notInHandoff].reverse(), MAX_PATH_LIST_CHARS))
  if (facts.changed.length > 0) {
    const paths = [...facts.changed].reverse().map((c) => (c.count > 1 ? `${c.path} (${c.count}×)` : c.path))
    const line = boundedListOf('Files changed: ', paths, MAX_PATH_LIST_CHARS)
    lines.push(dropped.changed > 0 ? `${line} (and ${dropped.changed} changed earlier, not recorded: past the ${MAX_CHANGED_FILES} kept)` : line)
  }
  if (facts.read.length > 0) lines.push(boundedListOf('Files read: ', [...facts.read].reverse(), MAX_PATH_LIST_CHARS))
  const newestFirst = [...facts.commands].reverse()
  if (newestFirst.length > 0) lines.push('Last commands, newest first:')
  const commandLines = newestFirst.map((c) => `- ${c.line}  → ${outcomeText(c)}`)
  if (lines.length === 0) return undefined
  const head = 'What this session did, recorded by code from its tool calls (facts, not notes):'
  // The lists of paths are bounded to fit with room to spare, so whatever is left out is commands.
  let isCut = false
  const listed = boundedSectionOf(head, [...lines, ...commandLines], MAX_FACTS_SECTION_CHARS, (leftOut) => {
    isCut = true
    return leftOutLineOf(newestFirst, leftOut, dropped)
  })
  return dropped.commands > 0 && !isCut ? `${listed}\n${leftOutLineOf(newestFirst, 0, dropped)}` : listed
}

/** The facts as a stub or a summary's instructions show them: paths relative
 * to the session folder `cwd`, and the chain's own handoff and plan files left
 * out of the changes (the current ones, `handoffPaths`, are named apart; the
 * earlier ones are the chain's, not the work's). */
export function shownFactsOf(facts: Facts, cwd: string, handoffPaths: readonly string[]): Facts {
  return {
    changed: facts.changed
      .filter((c) => !(mayBeHandoffPath(c.path) && classifyHandoffPath(c.path, cwd) !== undefined) && !handoffPaths.includes(c.path))
      .map((c) => ({ ...c, path: shownPath(c.path, cwd) })),
    read: facts.read.map((p) => shownPath(p, cwd)),
    commands: facts.commands,
    ...(facts.dropped !== undefined ? { dropped: facts.dropped } : {}),
  }
}

/** The facts section of a stub for a swap to `handoffPaths` (relative to
 * `cwd`), the files the handoff's text never mentions called out. */
export function stubFactsOf(facts: Facts, cwd: string, handoffPaths: readonly string[], handoffText: string): string | undefined {
  const shown = shownFactsOf(facts, cwd, handoffPaths)
  return factsSectionOf(shown, changedNotInHandoff(shown, handoffText, handoffPaths))
}
