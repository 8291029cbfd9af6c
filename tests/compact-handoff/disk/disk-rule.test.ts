// The one rule for project files, decided from `$.fs.stat` answers: no part
// of the path a link, each part at the project's real path plus its own
// spelling, the file a regular file; on POSIX and Windows folders alike.
import { describe, expect, test } from 'vitest'
import { diskPartsOf, failedWriteWhyOf, partVerdictOf, writeRefusalOf, type DiskPart, type DiskVerdict, type PartAnswer, type ProjectFolder } from '../../../packages/compact-handoff/hooks/disk/disk-rule.js'

const LOG = '.claude/handoffs/compact-handoff.log.jsonl'
const POSIX: ProjectFolder = { cwd: '/tmp/proj', cwdRealPath: '/private/tmp/proj', ignoresCase: false }
const WINDOWS: ProjectFolder = { cwd: 'C:\\Users\\me\\proj', cwdRealPath: 'C:\\Users\\me\\proj', ignoresCase: true }

const dir = (realPath: string): PartAnswer => ({ kind: 'dir', isLink: false, realPath })
const file = (realPath: string): PartAnswer => ({ kind: 'file', isLink: false, realPath })

/** The verdict of the look disk-steps.ts takes, part by part, given each part's answer in turn. */
function lookOf(parts: readonly DiskPart[], answers: readonly PartAnswer[], folder: ProjectFolder): DiskVerdict {
  for (const [i, part] of parts.entries()) {
    const answer = answers[i]
    if (answer === undefined) throw new Error(`the look went on to ${part.relPath}, which has no answer here`)
    const verdict = partVerdictOf(part, answer, folder)
    if (verdict !== undefined) return verdict
  }
  return { kind: 'present' }
}

function verdictOf(folder: ProjectFolder, relPath: string, answers: PartAnswer[]) {
  return lookOf(diskPartsOf(folder.cwd, relPath), answers, folder)
}

describe('diskPartsOf', () => {
  test('every part of the path, its first folder first and the file last, joined with the folder\'s own separator', () => {
    expect(diskPartsOf(POSIX.cwd, LOG)).toEqual([
      { relPath: '.claude', path: '/tmp/proj/.claude', isFile: false },
      { relPath: '.claude/handoffs', path: '/tmp/proj/.claude/handoffs', isFile: false },
      { relPath: LOG, path: `/tmp/proj/${LOG}`, isFile: true },
    ])
    expect(diskPartsOf(WINDOWS.cwd, 'plans/handoffs/HANDOFF_x_2026-11-29.md').map((p) => p.path)).toEqual([
      'C:\\Users\\me\\proj\\plans',
      'C:\\Users\\me\\proj\\plans\\handoffs',
      'C:\\Users\\me\\proj\\plans\\handoffs\\HANDOFF_x_2026-11-29.md',
    ])
  })

  test('keeps the spelling it is given: a case variant is looked at as itself', () => {
    expect(diskPartsOf(POSIX.cwd, '.CLAUDE/handoffs/HANDOFF_x_2026-11-29.md').map((p) => p.path)[0]).toBe('/tmp/proj/.CLAUDE')
  })
})

describe('partVerdictOf: passes', () => {
  test('a present regular file where every part says, against the project\'s real path (the folder itself reached by a link)', () => {
    expect(verdictOf(POSIX, LOG, [dir('/private/tmp/proj/.claude'), dir('/private/tmp/proj/.claude/handoffs'), file(`/private/tmp/proj/${LOG}`)])).toEqual({ kind: 'present' })
  })

  test('absent from the first missing part on: the write makes the rest inside the project', () => {
    expect(verdictOf(POSIX, LOG, ['missing'])).toEqual({ kind: 'absent' })
    expect(verdictOf(POSIX, LOG, [dir('/private/tmp/proj/.claude'), 'missing'])).toEqual({ kind: 'absent' })
    expect(verdictOf(POSIX, LOG, [dir('/private/tmp/proj/.claude'), dir('/private/tmp/proj/.claude/handoffs'), 'missing'])).toEqual({ kind: 'absent' })
  })

  test('a Windows folder: backslashes, a drive letter and letters in another case, where case is ignored', () => {
    const answers = [dir('c:\\users\\ME\\proj\\.claude'), dir('C:/Users/me/proj/.Claude/Handoffs'), file(`C:\\Users\\me\\proj\\.claude\\handoffs\\compact-handoff.log.jsonl`)]
    expect(verdictOf(WINDOWS, LOG, answers)).toEqual({ kind: 'present' })
  })
})

describe('partVerdictOf: refuses', () => {
  const refusal = (folder: ProjectFolder, relPath: string, answers: PartAnswer[]) => {
    const verdict = verdictOf(folder, relPath, answers)
    return verdict.kind === 'refused' ? verdict.why : verdict.kind
  }

  test('a link anywhere on the way, even one that lands inside the project', () => {
    const inside = '/private/tmp/proj/.claude/handoffs'
    expect(refusal(POSIX, LOG, [{ kind: 'dir', isLink: true, realPath: '/home/me/.claude' }])).toBe('.claude is a symbolic link, and compact-handoff never writes or reads through one')
    expect(refusal(POSIX, LOG, [dir('/private/tmp/proj/.claude'), { kind: 'dir', isLink: true, realPath: '/home/me/.claude/rules' }])).toMatch(/^\.claude\/handoffs is a symbolic link/)
    expect(refusal(POSIX, LOG, [dir('/private/tmp/proj/.claude'), dir(inside), { kind: 'file', isLink: true, realPath: '/home/me/.bashrc' }])).toMatch(/^\.claude\/handoffs\/compact-handoff\.log\.jsonl is a symbolic link/)
    expect(refusal(POSIX, LOG, [dir('/private/tmp/proj/.claude'), dir(inside), { kind: 'file', isLink: true, realPath: `${inside}/other.jsonl` }]), 'a link to a file beside it').toMatch(/is a symbolic link/)
  })

  test('a dangling link or a loop (no real path), and a look the engine refused', () => {
    expect(refusal(POSIX, LOG, [dir('/private/tmp/proj/.claude'), dir('/private/tmp/proj/.claude/handoffs'), { kind: 'other', isLink: true }])).toMatch(/is a symbolic link/)
    expect(refusal(POSIX, LOG, ['unknown'])).toBe('.claude could not be looked at')
  })

  test('a part whose real path is elsewhere though it says it is no link (a mount, a hard-linked stand-in)', () => {
    expect(refusal(POSIX, LOG, [dir('/mnt/other/.claude')])).toBe(".claude leads out of this project (the folder's real path is elsewhere)")
    expect(refusal(POSIX, LOG, [dir('/private/tmp/proj/.claude'), dir('/private/tmp/proj/.claude/agents')])).toMatch(/^\.claude\/handoffs leads out of this project/)
    expect(refusal(POSIX, LOG, [{ kind: 'dir', isLink: false }])).toMatch(/leads out of this project/)
  })

  test('a case variant on a volume that keeps case: its real path must be its own spelling', () => {
    const relPath = '.CLAUDE/handoffs/HANDOFF_x_2026-11-29.md'
    expect(refusal(POSIX, relPath, [dir('/private/tmp/proj/.claude')])).toMatch(/^\.CLAUDE leads out of this project/)
    expect(refusal({ ...POSIX, ignoresCase: true }, relPath, [dir('/private/tmp/proj/.claude'), dir('/private/tmp/proj/.claude/handoffs'), 'missing']), 'where case is ignored, one folder').toBe('absent')
  })

  test('a file in place of a folder, a folder or a device in place of the file', () => {
    expect(refusal(POSIX, LOG, [file('/private/tmp/proj/.claude')])).toBe('.claude is not a folder')
    const folders = [dir('/private/tmp/proj/.claude'), dir('/private/tmp/proj/.claude/handoffs')]
    expect(refusal(POSIX, LOG, [...folders, dir(`/private/tmp/proj/${LOG}`)])).toBe(`${LOG} is not a regular file`)
    expect(refusal(POSIX, LOG, [...folders, { kind: 'other', isLink: false, realPath: `/private/tmp/proj/${LOG}` }])).toBe(`${LOG} is not a regular file`)
  })

  test('a Windows part on another drive or share, or outside the project where case is ignored', () => {
    expect(refusal(WINDOWS, LOG, [dir('D:\\Users\\me\\proj\\.claude')])).toMatch(/^\.claude leads out of this project/)
    expect(refusal(WINDOWS, LOG, [dir('\\\\server\\share\\.claude')])).toMatch(/^\.claude leads out of this project/)
    expect(refusal(WINDOWS, LOG, [dir('C:\\Users\\me\\.claude')])).toMatch(/^\.claude leads out of this project/)
  })
})

describe('a folder (to list or to write in)', () => {
  const parts = diskPartsOf(POSIX.cwd, '.claude/handoffs', 'folder')
  test('its last part is a folder too', () => {
    expect(parts.map((p) => p.isFile)).toEqual([false, false])
    expect(lookOf(parts, [dir('/private/tmp/proj/.claude'), dir('/private/tmp/proj/.claude/handoffs')], POSIX)).toEqual({ kind: 'present' })
    expect(lookOf(parts, [dir('/private/tmp/proj/.claude'), { kind: 'dir', isLink: true, realPath: '/home/me/.claude/rules' }], POSIX)).toMatchObject({ kind: 'refused' })
    expect(lookOf(parts, [dir('/private/tmp/proj/.claude'), file('/private/tmp/proj/.claude/handoffs')], POSIX)).toEqual({ kind: 'refused', why: '.claude/handoffs is not a folder' })
  })
})

describe('partVerdictOf: the look stops at the first part that decides', () => {
  const [first] = diskPartsOf(POSIX.cwd, LOG)
  test('a missing or refused part settles it, a passing one does not', () => {
    expect(partVerdictOf(first!, 'missing', POSIX)).toEqual({ kind: 'absent' })
    expect(partVerdictOf(first!, { kind: 'dir', isLink: true, realPath: '/home/me/.claude' }, POSIX)).toMatchObject({ kind: 'refused' })
    expect(partVerdictOf(first!, dir('/private/tmp/proj/.claude'), POSIX)).toBeUndefined()
  })
})

describe('writeRefusalOf: the look right before a write', () => {
  test('a new file is never one that appeared since, and a file that went away is not made again', () => {
    expect(writeRefusalOf(LOG, { kind: 'absent' }, 'absent')).toBeUndefined()
    expect(writeRefusalOf(LOG, { kind: 'present' }, 'present')).toBeUndefined()
    expect(writeRefusalOf(LOG, { kind: 'present' }, 'absent')).toBe(`${LOG} appeared meanwhile, and is never overwritten`)
    expect(writeRefusalOf(LOG, { kind: 'absent' }, 'present')).toBe(`${LOG} went away meanwhile, and is not made again`)
    expect(writeRefusalOf(LOG, { kind: 'refused', why: 'x is a symbolic link' }, 'present')).toBe('x is a symbolic link')
  })
})

describe('failedWriteWhyOf: what a failed write left, and what to do', () => {
  const FILE = '.claude/handoffs/HANDOFF_x.md'
  test('a new file: nothing left, or the empty one named to delete, or a cut one named', () => {
    expect(failedWriteWhyOf(FILE, 'ENOSPC', 'none', 'absent')).toBe('the write failed (ENOSPC); nothing of it is left')
    expect(failedWriteWhyOf(FILE, 'ENOSPC', 'emptied', 'absent')).toBe(`the write failed (ENOSPC); the empty file it left at ${FILE} is no handoff and was not recorded: delete it`)
    expect(failedWriteWhyOf(FILE, 'ENOSPC', 'kept', 'absent')).toBe(`the write failed (ENOSPC); what it left at ${FILE} may be cut short: delete it`)
  })

  test('a file that was there (a log): its cut last line is the reader\'s to drop, so only the failure is said', () => {
    expect(failedWriteWhyOf(LOG, 'ENOSPC', 'kept', 'present')).toBe('the write failed (ENOSPC)')
  })
})
