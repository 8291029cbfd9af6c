// Records the plan a main-loop ExitPlanMode had approved (plan.ts decides),
// masked, so every stub can carry it.
import type { EngineInterface } from 'claude-code'
import { approvedPlanOf, keptPlanOf, MAX_PLAN_CHARS } from './plan.js'
import { updatePlan } from './carried-state.js'
import { maskedText } from '../text/mask-steps.js'
import { headOf } from '../text/text-clip.js'

type $ = EngineInterface

/** Masked past the kept length by this much, so a credential the cut reaches is still whole where the masking looks. */
const MASK_MARGIN_CHARS = 2_000

/** An ExitPlanMode call's outcome; a refused or failed call approved nothing. */
export async function recordPlan($: $, outcome: { deny?: string; isError?: true; result?: unknown }): Promise<void> {
  if (outcome.deny !== undefined || outcome.isError === true) return
  const plan = approvedPlanOf(outcome.result)
  if (plan === undefined) return
  const [text, filePath] = await Promise.all([maskedText($, headOf(plan.text, MAX_PLAN_CHARS + MASK_MARGIN_CHARS)), plan.filePath === undefined ? undefined : maskedText($, plan.filePath)])
  const kept = keptPlanOf({ text, ...(filePath !== undefined ? { filePath } : {}) }, plan.text.length)
  // The newest approval replaces any earlier plan, as the plan file does.
  await updatePlan($, () => kept)
}
