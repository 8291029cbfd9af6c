// The permission step for the skill's write of its own file (own-write.ts
// decides): reads the run and looks at the target's path on disk.
import type { EngineInterface } from 'claude-code'
import { isOwnWrite, ownWriteTargetOf, partsOnDiskOf, type FoundPart } from './own-write.js'
import { readPhase } from '../state.js'

type $ = EngineInterface

/** Whether `path` is a file the writing run may write without asking. A stat
 * that rejects reads as a missing part; one that answers decides. */
export async function isRunOwnWrite($: $, path: string): Promise<boolean> {
  const phase = await readPhase($)
  const file = ownWriteTargetOf(phase, path)
  if (file === undefined || phase.kind !== 'writing') return false
  let found: FoundPart | undefined
  for (const part of partsOnDiskOf(phase.run, file)) {
    const stat = await $.fs.stat(part.path, { resolve: true }).catch(() => undefined)
    if (stat === undefined) continue
    found = { relPath: part.relPath, kind: stat.kind, ...(stat.realPath !== undefined ? { realPath: stat.realPath } : {}) }
    break
  }
  return isOwnWrite(phase.run, file, found)
}
