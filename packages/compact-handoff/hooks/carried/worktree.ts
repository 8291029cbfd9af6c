// The git worktree the main loop entered, carried into every stub: after the
// engine's /compact its environment block names the worktree as the working
// directory at once; after a swap the first request named only the branch (in
// the git status), and the path came back a turn later (both seen live,
// 2.1.332). Taken from the EnterWorktree result the session saw; ExitWorktree
// ends it. Pure: carried-steps.ts records.

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
