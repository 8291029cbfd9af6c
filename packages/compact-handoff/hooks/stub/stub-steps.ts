// What a stub carries beyond the conversation, read from the records beneath
// (background/, carried/) at the moment the stub is built; swap-text.ts renders it.
import type { EngineInterface } from 'claude-code'
import { STUB_OPENING, type StubContext } from './swap-text.js'
import { runningNow } from '../background/running-steps.js'
import { skillsNow } from '../carried/skill-steps.js'
import { carriedNow } from '../carried/carried-steps.js'

type $ = EngineInterface

/** What a stub says beyond the conversation, read at the moment it is built,
 * before the compaction: what runs, the transcript file it replaces, the
 * deferred tools loaded, the plan approved, the worktree entered and the skills invoked (a failed read costs the stub that section, never the swap). */
export async function stubContextNow($: $): Promise<StubContext> {
  const [running, info, skills, [loadedTools, plan, worktree]] = await Promise.all([
    runningNow($),
    $.session.info().catch(() => undefined),
    skillsNow($, STUB_OPENING).catch(() => undefined),
    carriedNow($),
  ])
  return {
    running,
    loadedTools,
    ...(typeof info?.transcriptPath === 'string' ? { transcriptPath: info.transcriptPath } : {}),
    ...(skills !== undefined ? { skills } : {}),
    ...(plan !== null ? { plan } : {}),
    ...(worktree !== null ? { worktree } : {}),
  }
}
