// The permission step for the skill's write of its own file (own-write.ts
// decides): reads the run and looks at the target's path on disk by the one
// rule for project files, in the spelling the call uses.
import type { EngineInterface } from 'claude-code'
import { isOwnWrite, ownWriteTargetOf } from './own-write.js'
import { relativeToCwd } from '../protocol/protocol-paths.js'
import { projectFileOnDisk } from '../disk/disk-steps.js'
import { readPhase } from '../run/run-state.js'

type $ = EngineInterface

export async function isRunOwnWrite($: $, path: string): Promise<boolean> {
  const phase = await readPhase($)
  const file = ownWriteTargetOf(phase, path)
  if (file === undefined || phase.kind !== 'writing') return false
  const { run } = phase
  // classifyHandoffPath names the folder as HANDOFF_DIRS spells it; the disk is looked at as the call spells it.
  const spelled = relativeToCwd(path, run.cwd, run.ignoresCase)
  if (spelled === undefined) return false
  const { verdict } = await projectFileOnDisk($, run, spelled)
  return isOwnWrite(run, file, verdict)
}
