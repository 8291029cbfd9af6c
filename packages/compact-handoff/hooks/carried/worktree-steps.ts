// Records the worktree a main-loop EnterWorktree entered, or its ExitWorktree
// left (worktree.ts decides), masked, so every stub can name it.
import type { EngineInterface } from 'claude-code'
import { worktreeAfter } from './worktree.js'
import { updateWorktree } from './carried-state.js'
import { maskedText } from '../text/mask-steps.js'

type $ = EngineInterface

/** A worktree call's outcome; a refused or failed call moved nowhere. */
export async function recordWorktree($: $, tool: 'EnterWorktree' | 'ExitWorktree', outcome: { deny?: string; isError?: true; result?: unknown }): Promise<void> {
  if (outcome.deny !== undefined || outcome.isError === true) return
  const after = worktreeAfter(tool, outcome.result)
  if (after === undefined) return
  if (after === null) return updateWorktree($, () => null)
  const [path, branch] = await Promise.all([maskedText($, after.path), after.branch === undefined ? undefined : maskedText($, after.branch)])
  await updateWorktree($, () => ({ path, ...(branch !== undefined ? { branch } : {}) }))
}
