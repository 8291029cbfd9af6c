// What a handoff or plan file holds: its sections, its frontmatter keys and
// statuses, its size limits, and the forms each value may take. The mod's
// format check (handoff-format.ts) and the Node validator (packages/handoff-tools)
// both call these, so each rule has one definition.
import { HANDOFF_SECTIONS } from './handoff-spec.js'
import { fileKindOfName, fileKindOfRelPath } from './protocol-paths.js'

/** A handoff or plan file must hold at least this much text (blank space not
 * counted) to replace a conversation. */
export const MIN_NONBLANK_CHARS = 200

/** The characters of a file's text that count toward MIN_NONBLANK_CHARS: all
 * but blank space, as JavaScript's `\s` means it (which takes in a byte-order
 * mark, so a file's leading one never counts). */
export function nonBlankCharsOf(text: string): number {
  return text.replace(/\s+/g, '').length
}

/** How a handoff is written, whoever writes it (the skills, a fork, the
 * engine's summariser): the values the next context cannot look up again. Its
 * reader starts without the tool output they were seen in, so a value put in
 * other words is a value lost. Every value, on no condition: asked only for
 * those "the next step depends on", writers left out the ones it did not need
 * yet (a path seen only in search output, a CI job's exit status). */
export const EXACT_VALUES_RULE =
  'Exact values: copy every exact value the next context may need exactly as the conversation or its tool output showed it, never a shorter description of it: identifiers, paths seen anywhere (in search and listing output too), error texts with their codes, exit statuses of commands and of CI jobs, ids, hashes, counts, sizes and durations. Keep each one even where the next step does not need it yet; the next context starts without the output it was seen in.'

/** Which of the person's words counts when two disagree. */
export const LATEST_WORD_RULE = "The latest word: where the user's latest message changes the task or the plan, it wins over what was said or planned before it; write the handoff from it."

/** The language a handoff is written in; the headings are the protocol's and stay as they are spelled. */
export const LANGUAGE_RULE = 'Language: write the handoff in the language the conversation is in; only the section headings and the frontmatter keys stay exactly as given.'

/** The one heading shape the format check reads (format/handoff-markdown.ts); where Markdown readers may disagree, it sends the file back. */
export const HEADINGS_RULE =
  'Headings: start each section heading with its "#" at the very start of the line, outside lists, quotes, code blocks and HTML, and leave a blank line between text and a line of only dashes or equals signs, which Markdown reads as a heading.'

/** The writing rules every handoff's writer is given, in this order. */
export const HANDOFF_WRITING_RULES = [EXACT_VALUES_RULE, LATEST_WORD_RULE, LANGUAGE_RULE, HEADINGS_RULE] as const

/** Section headings every plan file has; Phases holds `### Phase 1: …` and on. */
export const PLAN_SECTIONS = ['Goal', 'Phases', 'Risks'] as const

/** A plan's phase heading (level 3, under Phases): `Phase <n>: <title>`. */
const PHASE_TITLE_RE = /^Phase (\d+):[ \t]*\S/

/** The number a phase heading's text gives its phase, or undefined when the
 * text is no phase title. Surrounding blanks do not count. */
export function phaseNumberOf(headingText: string): number | undefined {
  const match = PHASE_TITLE_RE.exec(headingText.trim())
  return match ? Number(match[1]) : undefined
}

/** Frontmatter keys of a handoff (`kind: handoff`) and of a plan (`kind: plan`). */
export const HANDOFF_FRONTMATTER_KEYS = ['kind', 'created', 'status', 'chain', 'seq', 'parent', 'focus'] as const
export const PLAN_FRONTMATTER_KEYS = ['kind', 'created', 'chain', 'focus'] as const

/** Far above any real handoff (the largest seen in use are under 20 KiB); a
 * file past it would crowd the context it is meant to free. */
export const MAX_HANDOFF_BYTES = 256 * 1024

/** What a handoff says about its work: still going, stopped until the user
 * answers (its Next step starts "Wait for the user:"), or finished. */
export const HANDOFF_STATUSES = ['in-progress', 'waiting-for-user', 'done'] as const

/** `parent` of the first handoff of a chain. */
export const NO_PARENT = 'none'

// The forms a handoff's frontmatter and headings may take. A model writes a date without a clock, a
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

/** A problem as data: the rule it breaks (the validator's name where it has
 * the same rule), the 1-based line it is on, and what to do about it. */
export type RuleProblem = { rule: string; line: number; message: string }
