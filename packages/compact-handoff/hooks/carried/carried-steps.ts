// Records what a main-loop tool call changes of what every stub carries (the
// deferred tools a ToolSearch loaded, the plan an ExitPlanMode approved, the
// worktree entered or left; loaded-tools.ts, plan.ts and worktree.ts decide),
// masked, in `$.state`. The engine lists what a module reads and writes by
// scanning each read/update for an atom declared in the same file, so every
// access to these atoms lives here (types/index.d.ts spells their shapes).
import { atom, read, update, type EngineInterface } from 'claude-code'
import { approvedPlanOf, keptPlanOf, loadedToolsOf, MAX_PLAN_CHARS, withToolsLoaded, worktreeAfter, type CarriedPlan, type CarriedWorktree } from './carried.js'
import { maskedText } from '../text/mask-steps.js'
import { headOf } from '../text/text-clip.js'

type $ = EngineInterface

const loadedToolsAtom = atom({ plugin: 'compact-handoff', key: 'loadedTools' } as const, [] as readonly string[])
const planAtom = atom({ plugin: 'compact-handoff', key: 'plan' } as const, null as CarriedPlan | null)
const worktreeAtom = atom({ plugin: 'compact-handoff', key: 'worktree' } as const, null as CarriedWorktree | null)

/** The plan is masked past its kept length by this much, so a credential the cut reaches is still whole where the masking looks. */
const MASK_MARGIN_CHARS = 2_000

/** The tools whose outcome changes a stub's carried context. */
export const CARRIED_TOOLS = ['ToolSearch', 'ExitPlanMode', 'EnterWorktree', 'ExitWorktree'] as const
export type CarriedTool = (typeof CARRIED_TOOLS)[number]

/** The three records, each read on its own: a failed read costs its section. */
export function carriedNow($: $): Promise<[readonly string[], CarriedPlan | null, CarriedWorktree | null]> {
  return Promise.all([read($, loadedToolsAtom).catch(() => []), read($, planAtom).catch(() => null), read($, worktreeAtom).catch(() => null)])
}

/** A refused or failed call changed nothing. The newest approved plan or
 * worktree replaces any earlier one, as the plan file and the working folder do. */
export async function recordCarriedCall($: $, tool: CarriedTool, outcome: { deny?: string; isError?: true; result?: unknown }): Promise<void> {
  if (outcome.deny !== undefined || outcome.isError === true) return
  if (tool === 'ToolSearch') {
    const loaded = loadedToolsOf(outcome.result)
    if (loaded.length > 0) await update($, loadedToolsAtom, (tools) => withToolsLoaded(tools, loaded))
    return
  }
  if (tool === 'ExitPlanMode') {
    const plan = approvedPlanOf(outcome.result)
    if (plan === undefined) return
    const [text, filePath] = await Promise.all([maskedText($, headOf(plan.text, MAX_PLAN_CHARS + MASK_MARGIN_CHARS)), plan.filePath === undefined ? undefined : maskedText($, plan.filePath)])
    const kept = keptPlanOf({ text, ...(filePath !== undefined ? { filePath } : {}) }, plan.text.length)
    await update($, planAtom, () => kept)
    return
  }
  const after = worktreeAfter(tool, outcome.result)
  if (after === undefined) return
  if (after === null) {
    await update($, worktreeAtom, () => null)
    return
  }
  const [path, branch] = await Promise.all([maskedText($, after.path), after.branch === undefined ? undefined : maskedText($, after.branch)])
  await update($, worktreeAtom, () => ({ path, ...(branch !== undefined ? { branch } : {}) }))
}
