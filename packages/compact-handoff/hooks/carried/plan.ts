// The plan made in plan mode, carried into every stub the way the engine's own
// compaction carries it: after its /compact the next request holds "A plan
// file exists from plan mode at: <path>", the plan's text, and "If this plan
// is relevant to the current work and not already complete, continue working
// on it"; after a swap only the path was left, as a changed file (both seen
// live, 2.1.332). Taken from the plan the session saw approved (ExitPlanMode's
// result), never the file read again, so an edit since is not passed off as
// what was approved. Pure: carried-steps.ts records.
import { headOf } from '../text/text-clip.js'

/** The plan's text is kept up to this many characters (UTF-16 units): the
 * same cut as a carried skill's, so one plan never outweighs the skills. */
export const MAX_PLAN_CHARS = 20_000
/** The plan file's path as kept: a stub never trusts a length. */
const MAX_PLAN_PATH_CHARS = 1_000

/** The approved plan as recorded: its text masked, and where it is kept. */
export type CarriedPlan = { text: string; isCut: boolean; filePath?: string }

/** The plan an ExitPlanMode result says was approved (`plan`, `filePath`),
 * none for a subagent's, an empty plan or any other shape. */
export function approvedPlanOf(result: unknown): { text: string; filePath?: string } | undefined {
  if (typeof result !== 'object' || result === null) return undefined
  const { plan, filePath, isAgent } = result as { plan?: unknown; filePath?: unknown; isAgent?: unknown }
  if (isAgent === true || typeof plan !== 'string' || plan.trim() === '') return undefined
  return { text: plan, ...(typeof filePath === 'string' && filePath !== '' ? { filePath } : {}) }
}

/** `plan` kept to the bounds; `fullChars` the length of the plan it was masked
 * from, when the text is a masked head of a longer one. */
export function keptPlanOf(plan: { text: string; filePath?: string }, fullChars = plan.text.length): CarriedPlan {
  return {
    text: headOf(plan.text, MAX_PLAN_CHARS),
    isCut: Math.max(fullChars, plan.text.length) > MAX_PLAN_CHARS,
    ...(plan.filePath !== undefined ? { filePath: headOf(plan.filePath, MAX_PLAN_PATH_CHARS) } : {}),
  }
}

export const PLAN_HEADING = 'The plan approved in plan mode earlier in this session'

/** The stub's section: none when no plan was approved. */
export function planSectionOf(plan: CarriedPlan | null | undefined): string | undefined {
  if (plan === null || plan === undefined) return undefined
  const where = plan.filePath === undefined ? '' : `, kept in the plan file ${plan.filePath}`
  const lines = [`${PLAN_HEADING}${where}, as it was approved (the file may have changed since):`, '', plan.text.trimEnd(), '']
  if (plan.isCut) lines.push(`[cut at ${MAX_PLAN_CHARS.toLocaleString('en-US')} characters${plan.filePath === undefined ? '' : ': read the plan file for the rest'}]`)
  lines.push("If this plan is relevant to the current work and not already complete, keep working on it, from where the handoff's Next step says; it is context, not a new request.")
  return lines.join('\n')
}
