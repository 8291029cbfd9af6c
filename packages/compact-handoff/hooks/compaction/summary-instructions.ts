// What the engine's summariser is told on top of the person's instructions when
// it compacts the main loop instead of a handoff (option compactionHandoff, a
// run under way, a fork that gave no handoff): where the newest handoff is, the
// person's own words and the work's facts, which a summary would otherwise
// paraphrase or drop, worded as a stub words them, the line that names the
// recall tool, and the handoff's section
// outline, so the summary comes out in the shape the next context knows.
import { HANDOFF_WRITING_RULES } from '../protocol/protocol-contents.js'
import { HANDOFF_SECTIONS, HANDOFF_SECTION_HOLDS } from '../protocol/handoff-spec.js'
import { userWordsSectionOf, type UserWords } from '../words/user-words.js'
import { factsSectionOf, shownFactsOf, type Facts } from '../facts/facts.js'
import type { CheckedLastHandoff } from '../stub/swap-text.js'
import { recallLineOf } from '../recall/recall.js'

/** The outline as one block of the instructions: one line per section, from
 * the protocol's one definition of what each holds, then the rules every
 * handoff's writer follows. */
export const OUTLINE = [
  'Write the summary in the shape of a compact-handoff handoff, these sections in this order, each under its own "## " heading:',
  ...HANDOFF_SECTIONS.map((name) => `## ${name}: ${HANDOFF_SECTION_HOLDS[name]}.`),
  'Rules:',
  ...HANDOFF_WRITING_RULES.map((rule) => `- ${rule}`),
].join('\n')

/** What this mod's state adds, as it reads it; `cwd` is the session folder
 * the facts' paths are shown relative to. The last handoff's files were each
 * checked against the ownership record as the compaction began. */
export type SummaryState = { words: UserWords; lastHandoff: CheckedLastHandoff; facts: Facts; cwd: string }

/** The pointer to the last handoff, naming only what is the person's own now:
 * a stranger's file the person chose to look at (the conversation quotes it
 * as a claim) is never called compact-handoff's, nor one changed since it was
 * written; it is left out, and so is a plan beside it that is not own. */
function handoffPointerOf(lastHandoff: CheckedLastHandoff): string | undefined {
  if (lastHandoff.kind !== 'handoff' || !lastHandoff.handoff.isOwn) return undefined
  const lines = [
    "The newest handoff file of this session, the person's own by compact-handoff's record; name it in the summary so the next context can reopen it:",
    `Handoff file: ${lastHandoff.handoff.relPath}`,
  ]
  if (lastHandoff.plan?.isOwn === true) lines.push(`Plan file: ${lastHandoff.plan.relPath}`)
  return lines.join('\n')
}

/** The recall tool, for the summary to hand on: the next context finds it listed. */
export const RECALL_SECTION = `End the summary with this line, as written:\n${recallLineOf()}`

/**
 * The whole instructions of a main-loop compaction the engine summarises: the
 * person's instructions, then what the state adds (the handoff pointer, their
 * words, the work's facts) and the recall line, then the outline, which always
 * goes. The person's own instructions come first and unchanged: what they
 * typed after /compact is theirs to lead with.
 */
export function summaryInstructionsOf(own: string | undefined, state: SummaryState): string {
  const handoffPaths = state.lastHandoff.kind === 'handoff' ? [state.lastHandoff.handoff.relPath, ...(state.lastHandoff.plan !== undefined ? [state.lastHandoff.plan.relPath] : [])] : []
  const sections = [handoffPointerOf(state.lastHandoff), userWordsSectionOf(state.words), factsSectionOf(shownFactsOf(state.facts, state.cwd, handoffPaths)), RECALL_SECTION].filter(
    (section): section is string => section !== undefined,
  )
  const added = ['compact-handoff adds, so the summary keeps them:', ...sections, OUTLINE].join('\n\n')
  return own !== undefined && own.trim() !== '' ? `${own}\n\n${added}` : added
}
