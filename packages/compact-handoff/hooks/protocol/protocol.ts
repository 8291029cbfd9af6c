// The exchange between this mod, the answer mod and the handoff skills: the
// compaction marker, the skills and their compact-mode argument, the sentinel
// line and the continue-prompt block. With protocol-paths.ts (where handoff
// files live and what they are called) and protocol-contents.ts (what a
// handoff file holds and the forms its values may take) it is the one source
// of truth on this side; tests/contract/contract.test.ts holds the skills'
// SKILL.md text, the answer mod's marker and the Node validator to all three.
// Pure: no `$`, no 'claude-code' import, so vitest can load it under Node.

/** First line of the instructions we pass to `$.session.compact`; the answer mod
 * looks for it (alone on that line) to know the compaction is ours. */
export const MARKER = 'compact-handoff:v1'

/** The first line of every fork prompt compact-handoff sends when it answers
 * the engine's compaction with a handoff (fork-prompt.ts): the scripted model
 * of the real-session suite knows a fork request by it. */
export const FORK_HANDOFF_OPENING = 'compact-handoff: write the handoff file for this session now.'

/** The first line of the one repair fork, sent when the first reply fails the
 * format check. */
export const FORK_REPAIR_OPENING = 'compact-handoff: the handoff you wrote fails the format check.'

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

/** The two kinds of run, named by what they write: a handoff run writes a
 * handoff; a plan run writes a handoff and a phased plan (SKILL_OF_MODE
 * names the skill of each). Not "resume", which is
 * /compact-handoff resume, picking a handoff up without writing one. */
export type Mode = 'handoff' | 'plan'

/** The skill of each kind of run (its keys are Mode): `handoff` writes
 * a handoff; `handoffplan` writes a handoff and a phased plan. Plugin skills
 * are listed as `<plugin>:<skill>`. */
export const SKILL_OF_MODE = {
  handoff: 'handoff',
  plan: 'handoffplan',
} as const

export const READY_PREFIX = 'COMPACT-HANDOFF-READY:'
export const FAILED_PREFIX = 'COMPACT-HANDOFF-FAILED:'

/** The line that opens the continue-prompt block; the prompt sits between the
 * next two rules of dashes. */
export const CONTINUE_PROMPT_HEADER = 'PASTE THIS INTO YOUR NEXT SESSION:'

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

/** Models often wrap the line in backticks or a bullet; those only are tolerated. */
function stripTicks(line: string): string {
  return line.trim().replace(/^(?:[-*]\s+)?`{1,3}/, '').replace(/`{1,3}$/, '').trim()
}

/** The skill's verdict: the last line of the answer that is a READY or FAILED
 * sentinel (backticks around it tolerated), or undefined when none is. */
export function parseSentinel(answer: string): Sentinel | undefined {
  const line = answer.split(/\r?\n/).map(stripTicks).findLast((l) => l.startsWith(READY_PREFIX) || l.startsWith(FAILED_PREFIX))
  if (line === undefined) return undefined
  if (line.startsWith(FAILED_PREFIX)) {
    const reason = line.slice(FAILED_PREFIX.length).trim()
    return { kind: 'failed', reason: reason === '' ? 'no reason given' : reason }
  }
  const paths = line.slice(READY_PREFIX.length).split('|').map((p) => trimRuns(p.trim(), '`').trim())
  return { kind: 'ready', paths: paths.filter((p) => p !== '') }
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
  const header = lines.findLastIndex((line) => trimRuns(stripTicks(line), '*').trim() === CONTINUE_PROMPT_HEADER)
  const open = header < 0 ? -1 : lines.findIndex((line, i) => i > header && RULE_RE.test(line))
  // Between the header and the opening rule: only blank lines and a code fence's opening.
  if (open < 0 || lines.slice(header + 1, open).some((line) => line.trim() !== '' && !/^`{3}/.test(line.trim()))) return undefined
  const close = lines.findIndex((line, i) => i > open && RULE_RE.test(line))
  const body = close < 0 ? '' : lines.slice(open + 1, close).join('\n').trim()
  return body === '' ? undefined : body
}
