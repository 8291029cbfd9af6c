// Finds the command that runs a handoff skill, and what the skill is told. A
// plugin's skill is listed as `<plugin>:<skill>` (never bare), and the pack's
// plugin name depends on how it was installed, so the name is looked up in
// `$.command.list()`, not guessed.
import { NEW_CHAIN, SKILL_OF_MODE, type SkillValues } from './protocol.js'
import type { Mode } from './run.js'
import { NO_PARENT } from './protocol-contents.js'
import { frontmatterOf } from './handoff-format.js'
import type { LastSwap } from './swap-text.js'

/** The skill pack this repository ships; preferred when several plugins offer the skill. */
export const SKILL_PACK_PLUGIN = 'compact-handoff-skills'

export type ListedCommand = { name: string; source: string; plugin?: string }

export function skillCommandOf(commands: readonly ListedCommand[], mode: Mode): string | undefined {
  const skill = SKILL_OF_MODE[mode]
  const ours = commands.find((c) => c.name === `${SKILL_PACK_PLUGIN}:${skill}`)
  const anyPlugin = commands.find((c) => c.name.endsWith(`:${skill}`))
  const bare = commands.find((c) => c.name === skill)
  return (ours ?? anyPlugin ?? bare)?.name
}

/** The prompt submitted when the skill's command cannot be run directly. It
 * may not start with "/": `$.prompt.submit` refuses that. */
export function skillFallbackPromptOf(mode: Mode, commandName: string | undefined, args: string): string {
  const skill = commandName ?? SKILL_OF_MODE[mode]
  return `Run the ${skill} skill now (Skill tool) with the arguments "${args}", and follow its compact-mode instructions exactly.`
}

/** ISO 8601 in UTC to the second, the form the skills write. */
export function createdValueOf(nowMs: number): string {
  return `${new Date(nowMs).toISOString().slice(0, 19)}Z`
}

const POSITIVE_INT_RE = /^[1-9]\d{0,8}$/

/** Where a new handoff sits in its chain (the frontmatter's `chain`, `seq`,
 * `parent`). The parent is this session's last swap or resume, when its file
 * still says which chain it belongs to and where in it; otherwise the new
 * handoff starts a chain (`chain` NEW_CHAIN: its own file name names it).
 * `parentText` is the parent's text (undefined when there is no swap or it
 * could not be read). */
export function chainValuesOf(lastSwap: LastSwap, parentText: string | undefined): Pick<SkillValues, 'chain' | 'seq' | 'parent'> {
  const first = { chain: NEW_CHAIN, seq: 1, parent: NO_PARENT }
  if (lastSwap.kind !== 'swapped' || parentText === undefined) return first
  const fields = frontmatterOf(parentText)
  const chain = fields?.get('chain')
  const seq = fields?.get('seq') ?? ''
  if (chain === undefined || chain === '' || !POSITIVE_INT_RE.test(seq)) return first
  return { chain, seq: Number(seq) + 1, parent: lastSwap.handoff }
}

/** The frontmatter values the skill copies: the run's tag, the time, and the chain. */
export function skillValuesOf(tag: string, nowMs: number, lastSwap: LastSwap, parentText: string | undefined): SkillValues {
  return { run: tag, created: createdValueOf(nowMs), ...chainValuesOf(lastSwap, parentText) }
}
