// What a stub carries beyond the conversation, read from the records beneath
// (background/, carried/) at the moment the stub is built (swap-text.ts
// renders it), and the handoff this session continues from, in `$.state`
// (swap-text.ts LastHandoff), read where it is named (swap-text.ts decides
// what may be taken from it): each file through the one rule for project
// files, then its text held to the ownership record. The engine lists what a
// module reads and writes by scanning each read/update for an atom declared in
// the same file, so every access to this atom lives here (types/index.d.ts
// spells its shape).
import { atom, read, update, type EngineInterface, type FsStat } from 'claude-code'
import { MAX_HANDOFF_BYTES } from '../protocol/protocol-contents.js'
import { readProjectFile } from '../disk/disk-steps.js'
import type { ProjectFolder } from '../disk/disk-rule.js'
import { ownershipOnDisk } from '../ownership/ownership-steps.js'
import { runningNow } from '../background/running-steps.js'
import { skillsNow } from '../carried/skill-steps.js'
import { carriedNow } from '../carried/carried-steps.js'
import { NO_HANDOFF, STUB_OPENING, type CheckedFile, type CheckedLastHandoff, type LastHandoff, type StubContext } from './swap-text.js'

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

const lastHandoffAtom = atom({ plugin: 'compact-handoff', key: 'lastHandoff' } as const, NO_HANDOFF)

export async function setLastHandoff($: $, lastHandoff: LastHandoff): Promise<void> {
  await update($, lastHandoffAtom, () => lastHandoff)
}

/** A file over the cap is never swapped in, resumed or recorded: never own. */
function isWithinCap(stat: FsStat): boolean {
  return stat.kind === 'file' && stat.size <= MAX_HANDOFF_BYTES
}

/** `relPath` read now, and whether it is the person's own; a failed read or record read is "not own". */
export async function checkedFileOf($: $, folder: ProjectFolder, relPath: string): Promise<CheckedFile> {
  const { text } = await readProjectFile($, folder, relPath, isWithinCap).catch(() => ({ text: undefined }))
  if (text === undefined) return { relPath, isOwn: false }
  const ownership = await ownershipOnDisk($, folder.cwd, relPath, text).catch(() => undefined)
  return { relPath, isOwn: ownership === 'own', text }
}

export async function lastHandoffNow($: $, folder: ProjectFolder): Promise<CheckedLastHandoff> {
  const lastHandoff = await read($, lastHandoffAtom)
  if (lastHandoff.kind !== 'handoff') return { kind: 'none' }
  const [handoff, plan] = await Promise.all([
    checkedFileOf($, folder, lastHandoff.handoff),
    lastHandoff.plan !== undefined ? checkedFileOf($, folder, lastHandoff.plan) : undefined,
  ])
  return { kind: 'handoff', handoff, ...(plan !== undefined ? { plan } : {}) }
}
