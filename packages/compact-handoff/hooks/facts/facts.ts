// The work's hard facts, recorded by code from the main loop's tool calls that
// succeeded, as the person's words are: after a compaction a summary keeps few
// file paths and almost no commands or their results, so the stub carries them.
// Bounded on every axis; each list keeps its newest entries, newest last.
// Every command and path here was masked by the engine's redact when it was
// recorded (work-steps.ts), so the facts, the stub and the meter hold masked forms.
import { classifyHandoffPath, mayBeHandoffPath, relativeToCwd } from '../protocol/protocol-paths.js'
import { boundedSectionOf, headOf } from './text-clip.js'

export const MAX_CHANGED_FILES = 40
export const MAX_READ_FILES = 40
export const MAX_COMMANDS = 20
/** A command line longer than this is cut (its head kept), visibly. */
export const MAX_COMMAND_CHARS = 200
/** The stub's facts section never grows past this many characters. */
export const MAX_FACTS_SECTION_CHARS = 4_000

/** A command and how it ended; one the engine moved to the background
 * (`shellId`, its task's id) had not ended when its result came, so it has no
 * exit status (`exitCode` null): it is a started command, not a finished one. */
export type Command = { line: string; exitCode: number | null; shellId?: string }

export type Facts = {
  changed: { path: string; count: number }[]
  read: string[]
  commands: Command[]
}

export const NO_FACTS: Facts = { changed: [], read: [], commands: [] }

/** The tools whose calls are recorded as facts; decided from the name before any engine call. */
export const FACT_TOOLS = ['Write', 'Edit', 'Read', 'Bash'] as const

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
  return { ...facts, changed: newestLast(facts.changed, { path, count }, (c) => c.path === path, MAX_CHANGED_FILES) }
}

export function withRead(facts: Facts, path: string): Facts {
  return { ...facts, read: newestLast(facts.read, path, (p) => p === path, MAX_READ_FILES) }
}

/** Cuts a command line to MAX_COMMAND_CHARS, never inside a surrogate pair.
 * Given a masked line: cut first, a token could lose the part its mask finds. */
export function clippedCommandOf(line: string): string {
  const flat = line.trim()
  if (flat.length <= MAX_COMMAND_CHARS) return flat
  return `${headOf(flat, MAX_COMMAND_CHARS)} […]`
}

/** `line` as clippedCommandOf left it: the meter compares that same text. */
export function withCommand(facts: Facts, line: string, exitCode: number | null, shellId?: string): Facts {
  const command = shellId === undefined ? { line, exitCode } : { line, exitCode: null, shellId }
  return { ...facts, commands: [...facts.commands, command].slice(-MAX_COMMANDS) }
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

/** The stub's section of facts, newest first, or undefined when nothing was
 * recorded. Lines that would pass the size bound are left out, and it says so. */
export function factsSectionOf(facts: Facts, notInHandoff: readonly string[] = []): string | undefined {
  const lines: string[] = []
  if (notInHandoff.length > 0) lines.push(`Changed this session, not in the handoff: ${[...notInHandoff].reverse().join(', ')}`)
  if (facts.changed.length > 0) lines.push(`Files changed: ${[...facts.changed].reverse().map((c) => (c.count > 1 ? `${c.path} (${c.count}×)` : c.path)).join(', ')}`)
  if (facts.read.length > 0) lines.push(`Files read: ${[...facts.read].reverse().join(', ')}`)
  if (facts.commands.length > 0) {
    lines.push('Last commands, newest first:', ...[...facts.commands].reverse().map((c) => `- ${c.line}  → ${outcomeText(c)}`))
  }
  if (lines.length === 0) return undefined
  const head = 'What this session did, recorded by code from its tool calls (facts, not notes):'
  return boundedSectionOf(head, lines, MAX_FACTS_SECTION_CHARS, '[more was recorded than fits here]')
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
  }
}

/** The facts section of a stub for a swap to `handoffPaths` (relative to
 * `cwd`), the files the handoff's text never mentions called out. */
export function stubFactsOf(facts: Facts, cwd: string, handoffPaths: readonly string[], handoffText: string): string | undefined {
  const shown = shownFactsOf(facts, cwd, handoffPaths)
  return factsSectionOf(shown, changedNotInHandoff(shown, handoffText, handoffPaths))
}
