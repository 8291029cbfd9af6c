// The session folder as the path checks compare with it, read from the engine
// where a run or a resume starts: its real path, and whether its file system
// ignores letter case (protocol-paths.ts folderIgnoresCase decides).
import type { EngineInterface } from 'claude-code'
import { folderIgnoresCase } from '../protocol/protocol-paths.js'

export type FolderInput = { cwdRealPath: string; ignoresCase: boolean }

export async function folderInputOf($: EngineInterface, cwd: string): Promise<FolderInput> {
  const [stat, info] = await Promise.all([$.fs.stat(cwd, { resolve: true }).catch(() => undefined), $.session.info().catch(() => undefined)])
  return { cwdRealPath: stat?.realPath ?? cwd, ignoresCase: folderIgnoresCase(cwd, info?.platform) }
}
