// Routes a main-loop tool call that changes what every stub carries to the
// step that records it: the deferred tools a ToolSearch loaded, the plan an
// ExitPlanMode approved, the worktree entered or left.
import type { EngineInterface } from 'claude-code'
import { recordToolsLoaded } from './tool-steps.js'
import { recordPlan } from './plan-steps.js'
import { recordWorktree } from './worktree-steps.js'

type $ = EngineInterface

/** The tools whose outcome changes a stub's carried context. */
export const CARRIED_TOOLS = ['ToolSearch', 'ExitPlanMode', 'EnterWorktree', 'ExitWorktree'] as const
export type CarriedTool = (typeof CARRIED_TOOLS)[number]

export async function recordCarriedCall($: $, tool: CarriedTool, outcome: { deny?: string; isError?: true; result?: unknown }): Promise<void> {
  if (tool === 'ToolSearch') return recordToolsLoaded($, outcome)
  if (tool === 'ExitPlanMode') return recordPlan($, outcome)
  return recordWorktree($, tool, outcome)
}
