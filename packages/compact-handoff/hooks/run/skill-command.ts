// Finds the command that runs a handoff skill, and what is submitted when it
// cannot be run directly (the values it is told are frontmatter-values.ts'). A
// plugin's skill is listed as `<plugin>:<skill>` (never bare), and the pack's
// plugin name depends on how it was installed, so the name is looked up in
// `$.command.list()`, not guessed.
import { SKILL_OF_MODE, type Mode } from '../protocol/protocol.js'

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
