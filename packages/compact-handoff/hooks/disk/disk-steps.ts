// Looks at a project file's path on disk for the one rule (disk-rule.ts
// decides), and writes only what the rule lets through, right after its look.
// The engine offers no exclusive create (`$.fs.write` takes a path and a text,
// and follows links), so a write is as safe as the look just before it: what
// changes between that look and the write itself is not seen.
import type { EngineInterface, FsEntry, FsStat } from 'claude-code'
import { diskPartsOf, failedWriteWhyOf, partVerdictOf, writeRefusalOf, type DiskVerdict, type PartAnswer, type ProjectFolder, type WriteLeftover } from './disk-rule.js'
import { folderIgnoresCase, inFolder } from '../protocol/protocol-paths.js'
import { messageOf } from '../text/text-clip.js'

type $ = EngineInterface

const ENOENT_RE = /ENOENT/

/** The session folder as the path checks compare with it, read where a run or
 * a resume starts: its real path, and whether its file system ignores letter
 * case (protocol-paths.ts folderIgnoresCase decides). */
export async function folderInputOf($: $, cwd: string): Promise<ProjectFolder> {
  const [stat, info] = await Promise.all([$.fs.stat(cwd, { resolve: true }).catch(() => undefined), $.session.info().catch(() => undefined)])
  return { cwd, cwdRealPath: stat?.realPath ?? cwd, ignoresCase: folderIgnoresCase(cwd, info?.platform) }
}

/** The rule's verdict on `relPath` (as the call spells it, `/`-separated;
 * a folder's with `last` 'folder'), and its own stat when it is present. Part by part, each looked at
 * only while the ones above it pass. */
export async function projectFileOnDisk($: $, folder: ProjectFolder, relPath: string, last: 'file' | 'folder' = 'file'): Promise<{ verdict: DiskVerdict; stat?: FsStat }> {
  let stat: FsStat | undefined
  for (const part of diskPartsOf(folder.cwd, relPath, last)) {
    const answer: PartAnswer = await $.fs.stat(part.path, { resolve: true }).then(
      (found) => (stat = found),
      (error: unknown) => (ENOENT_RE.test(messageOf(error)) ? 'missing' : 'unknown'),
    )
    const verdict = partVerdictOf(part, answer, folder)
    if (verdict !== undefined) return { verdict }
  }
  return { verdict: { kind: 'present' }, stat }
}

/** Writes `text` to `relPath` when the rule passes it right now and it is
 * as the writer found it (`expected`); else says why nothing was written. A
 * write that fails leaves no new file behind (leftoverOfFailedWrite): a file
 * of ours cut short in a folder people commit would look like a handoff. */
export async function writeProjectFile($: $, folder: ProjectFolder, relPath: string, text: string, expected: 'absent' | 'present'): Promise<{ isWritten: true } | { isWritten: false; why: string }> {
  const { verdict } = await projectFileOnDisk($, folder, relPath)
  const why = writeRefusalOf(relPath, verdict, expected)
  if (why !== undefined) return { isWritten: false, why }
  try {
    await $.fs.write(inFolder(folder.cwd, relPath), text)
  } catch (error) {
    const left = expected === 'absent' ? await leftoverOfFailedWrite($, folder, relPath) : 'kept'
    return { isWritten: false, why: failedWriteWhyOf(relPath, messageOf(error), left, expected) }
  }
  return { isWritten: true }
}

/** Takes away the file a failed write created, when the one rule still
 * passes it: removed by `rm` (the engine has no removal of its own; `rm`
 * never follows a link it is given), else emptied, which always fits, since
 * the write's own blocks are given back first. */
async function leftoverOfFailedWrite($: $, folder: ProjectFolder, relPath: string): Promise<WriteLeftover> {
  const path = inFolder(folder.cwd, relPath)
  const left = async () => (await projectFileOnDisk($, folder, relPath)).verdict.kind
  const found = await left()
  if (found !== 'present') return found === 'absent' ? 'none' : 'kept'
  await $.process.run(['rm', '-f', '--', path]).catch(() => undefined)
  const after = await left()
  if (after !== 'present') return after === 'absent' ? 'none' : 'kept'
  return $.fs.write(path, '').then(
    () => 'emptied' as const,
    () => 'kept' as const,
  )
}

/** Reads `relPath` when the one rule finds it present and `isWanted` takes
 * its stat (a size cap, a kind): the verdict, and the stat and text it got. */
export async function readProjectFile($: $, folder: ProjectFolder, relPath: string, isWanted: (stat: FsStat) => boolean): Promise<{ verdict: DiskVerdict; stat?: FsStat; text?: string }> {
  const found = await projectFileOnDisk($, folder, relPath)
  if (found.stat === undefined || !isWanted(found.stat)) return found
  const text = await $.fs.read(inFolder(folder.cwd, relPath)).catch(() => undefined)
  return typeof text === 'string' ? { ...found, text } : found
}

/** Lists the folder `relPath` when the one rule passes it (a linked folder
 * would list another's files); none when it is missing or refused. */
export async function listProjectFolder($: $, folder: ProjectFolder, relPath: string): Promise<FsEntry[]> {
  const { verdict } = await projectFileOnDisk($, folder, relPath, 'folder')
  return verdict.kind === 'present' ? [...(await $.fs.list(inFolder(folder.cwd, relPath)).catch(() => []))] : []
}
