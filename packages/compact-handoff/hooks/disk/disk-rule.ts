// The one rule for every file the mods read or write in the project (a
// handoff, a plan, the swap log): each part of its path that exists, from its
// first folder down to the file, is what it says and where it says. A
// project may come from a clone, and a clone carries symbolic links:
// `$.fs.write` follows them (a link to a file overwrites its target, a
// dangling one creates it outside), and the engine's Write tool follows a
// linked folder. So no part may be a link, each must really lie at the
// project's real path plus its own spelling, and the file must be a regular
// file. The parts are checked as the call spells them, never as a canonical
// spelling: on a case-sensitive volume `.CLAUDE/handoffs` is another folder.
// Pure: disk-steps.ts gathers the `$.fs.stat` answers.
import { inFolder, isSameName, relativeToCwd } from '../protocol/protocol-paths.js'

/** The project folder as the rule compares with it: as the engine names it,
 * its real path (`$.fs.stat` with resolve), and whether its file system
 * ignores letter case (protocol-paths.ts folderIgnoresCase). */
export type ProjectFolder = { cwd: string; cwdRealPath: string; ignoresCase: boolean }

/** A part of a file's path inside the project: a folder, or the file itself (last). */
export type DiskPart = { relPath: string; path: string; isFile: boolean }

/** What `$.fs.stat(path, { resolve: true })` said of one part: its answer,
 * `missing` when it rejected ENOENT, `unknown` when it rejected otherwise. */
export type PartAnswer = { kind: 'file' | 'dir' | 'other'; isLink: boolean; realPath?: string } | 'missing' | 'unknown'

/** `absent`: the file is not there, and every part that is lies where it
 * says (a write creates the rest inside the project); `present`: the file is
 * a regular file where it says; `refused`: why neither may be used. */
export type DiskVerdict = { kind: 'absent' } | { kind: 'present' } | { kind: 'refused'; why: string }

/** The parts of `relPath` (`/`-separated, as the call spells it), its first
 * folder first and the file last, each with its path in the project folder;
 * with `last` 'folder', `relPath` names a folder (one to list or write in). */
export function diskPartsOf(cwd: string, relPath: string, last: 'file' | 'folder' = 'file'): DiskPart[] {
  const segments = relPath.split('/')
  return segments.map((_, i) => {
    const part = segments.slice(0, i + 1).join('/')
    return { relPath: part, path: inFolder(cwd, part), isFile: last === 'file' && i === segments.length - 1 }
  })
}

/** The verdict one part's answer settles, or undefined when the part lies
 * where it says and the next part decides (the file is `present` once every
 * part passes): the disk is looked at part by part, first folder first, and no
 * part past a missing or a refused one needs a look. */
export function partVerdictOf(part: DiskPart, answer: PartAnswer, folder: ProjectFolder): DiskVerdict | undefined {
  if (answer === 'missing') return { kind: 'absent' }
  const why = partRefusalOf(part, answer, folder)
  return why === undefined ? undefined : { kind: 'refused', why }
}

function partRefusalOf(part: DiskPart, answer: Exclude<PartAnswer, 'missing'>, folder: ProjectFolder): string | undefined {
  const what = part.isFile ? 'file' : 'folder'
  if (answer === 'unknown') return `${part.relPath} could not be looked at`
  if (answer.isLink) return `${part.relPath} is a symbolic link, and compact-handoff never writes or reads through one`
  if (part.isFile ? answer.kind !== 'file' : answer.kind !== 'dir') return `${part.relPath} is not a ${part.isFile ? 'regular file' : 'folder'}`
  const realRel = answer.realPath === undefined ? undefined : relativeToCwd(answer.realPath, folder.cwdRealPath, folder.ignoresCase)
  if (realRel === undefined || !isSameName(realRel, part.relPath, folder.ignoresCase)) return `${part.relPath} leads out of this project (the ${what}'s real path is elsewhere)`
  return undefined
}

/** Whether a write may go ahead right after a look that found `now`, given
 * what the writer found before (`expected`): a file that appeared since is
 * never overwritten, a file that went away is never made again from a copy. */
export function writeRefusalOf(relPath: string, now: DiskVerdict, expected: 'absent' | 'present'): string | undefined {
  if (now.kind === 'refused') return now.why
  if (now.kind === expected) return undefined
  return expected === 'absent' ? `${relPath} appeared meanwhile, and is never overwritten` : `${relPath} went away meanwhile, and is not made again`
}

/** What is left at a file's path after a write of it failed: `$.fs.write`
 * truncates or creates the file first and on a full disk stops at the last
 * block it got (seen live on 2.1.332: a new handoff left empty, a log cut at
 * 4096 bytes). `none`: a file the writer found absent is absent again;
 * `emptied`: it could not be removed (no `rm` on the host), so it holds
 * nothing, which no check passes; `kept`: a file the writer found present,
 * or one the rule no longer passes, is left as the write left it. */
export type WriteLeftover = 'none' | 'emptied' | 'kept'

/** Why nothing was written, for the person: the write's error, and what is
 * left at the path and what to do about it. */
export function failedWriteWhyOf(relPath: string, error: string, left: WriteLeftover, expected: 'absent' | 'present'): string {
  const failed = `the write failed (${error})`
  if (left === 'none') return `${failed}; nothing of it is left`
  if (left === 'emptied') return `${failed}; the empty file it left at ${relPath} is no handoff and was not recorded: delete it`
  return expected === 'present' ? failed : `${failed}; what it left at ${relPath} may be cut short: delete it`
}
