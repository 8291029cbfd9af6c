// What the session carries beyond the conversation into every stub, one
// record each: the deferred tools loaded, the plan approved, the worktree
// entered. Pure: carried-steps.ts records, stub/swap-text.ts shows.
import { headOf } from '../text/text-clip.js'

// The deferred tools the main loop loaded with ToolSearch. The engine's own
// compaction keeps their schemas in the request's tools; after a compaction a
// mod answers they are gone, a turn later too, and the first request has no
// list of deferred tools either (seen live, 2.1.332). No mod call loads a
// schema, so the stub names them and says how to load them again.
/** Names kept; the newest loads win. Each name bounded: names are short, a stub never trusts one. */
export const MAX_LOADED_TOOLS = 30
const MAX_TOOL_NAME_CHARS = 100

/** The names a ToolSearch result says it loaded (`matches`), none for any other shape. */
export function loadedToolsOf(result: unknown): string[] {
  if (typeof result !== 'object' || result === null) return []
  const matches = (result as { matches?: unknown }).matches
  if (!Array.isArray(matches)) return []
  // A tool's name is one word (`WebFetch`, `mcp__server__tool`): anything else is not named.
  return matches.filter((m): m is string => typeof m === 'string' && m !== '' && !/\s/.test(m)).map((m) => headOf(m, MAX_TOOL_NAME_CHARS))
}

/** `tools` with `loaded` added as the newest, each name once, bounded. */
export function withToolsLoaded(tools: readonly string[], loaded: readonly string[]): string[] {
  if (loaded.length === 0) return [...tools]
  const fresh = new Set(loaded)
  return [...tools.filter((t) => !fresh.has(t)), ...fresh].slice(-MAX_LOADED_TOOLS)
}

/** The stub's lines: none when nothing was loaded. */
export function loadedToolsSectionOf(tools: readonly string[]): string | undefined {
  if (tools.length === 0) return undefined
  return [
    `Deferred tools loaded earlier in this session with ToolSearch, whose schemas the replaced conversation held: ${tools.join(', ')}.`,
    `They are not loaded now: to call one, load it again first with ToolSearch (query "select:${tools.join(',')}").`,
  ].join('\n')
}

// The plan made in plan mode, carried into every stub the way the engine's own
// compaction carries it: after its /compact the next request holds "A plan
// file exists from plan mode at: <path>", the plan's text, and "If this plan
// is relevant to the current work and not already complete, continue working
// on it"; after a swap only the path was left, as a changed file (both seen
// live, 2.1.332). Taken from the plan the session saw approved (ExitPlanMode's
// result), never the file read again, so an edit since is not passed off as
// what was approved.
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

// The git worktree the main loop entered, carried into every stub: after the
// engine's /compact its environment block names the worktree as the working
// directory at once; after a swap the first request named only the branch (in
// the git status), and the path came back a turn later (both seen live,
// 2.1.332). Taken from the EnterWorktree result the session saw; ExitWorktree
// ends it.
/** A worktree's path and branch as kept: a stub never trusts a length. */
const MAX_WORKTREE_CHARS = 1_000

/** The worktree the session works in: its path and branch, masked. */
export type CarriedWorktree = { path: string; branch?: string }

/** What an EnterWorktree or ExitWorktree result says of the session's
 * worktree: the one entered, `null` once left, `undefined` for any other shape. */
export function worktreeAfter(tool: 'EnterWorktree' | 'ExitWorktree', result: unknown): CarriedWorktree | null | undefined {
  if (typeof result !== 'object' || result === null) return undefined
  if (tool === 'ExitWorktree') return null
  const { worktreePath, worktreeBranch } = result as { worktreePath?: unknown; worktreeBranch?: unknown }
  if (typeof worktreePath !== 'string' || worktreePath === '') return undefined
  return { path: worktreePath.slice(0, MAX_WORKTREE_CHARS), ...(typeof worktreeBranch === 'string' && worktreeBranch !== '' ? { branch: worktreeBranch.slice(0, MAX_WORKTREE_CHARS) } : {}) }
}

/** The stub's line: none while the session works in its own folder. */
export function worktreeSectionOf(worktree: CarriedWorktree | null | undefined): string | undefined {
  if (worktree === null || worktree === undefined) return undefined
  const branch = worktree.branch === undefined ? '' : ` (branch ${worktree.branch})`
  return `The session is working in the git worktree ${worktree.path}${branch}, entered earlier with EnterWorktree: the tools run there, and paths in the handoff are relative to it.`
}
