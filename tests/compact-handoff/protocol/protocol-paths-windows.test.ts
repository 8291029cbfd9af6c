// The path rules on every platform Claude Code runs on: Windows paths (a drive
// letter in either case, backslashes, mixed separators, UNC shares) read by
// Windows' rules and held to Node's own path.win32, folders compared without
// letter case where the file system ignores it, and no spelling ever placed
// inside a folder it is not inside.
import { win32 } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  HANDOFF_DIRS,
  classifyHandoffPath,
  fileKindOfName,
  folderIgnoresCase,
  inFolder,
  isInHandoffFolder,
  isWindowsPath,
  mayBeHandoffPath,
  relativeToCwd,
} from '../../../packages/compact-handoff/hooks/protocol/protocol-paths.js'
import { forAll, type Rand } from '../../support/property.js'

const CWD = 'C:\\Users\\me\\proj'
const UNC_CWD = '\\\\server\\share\\proj'
const NAME = 'HANDOFF_x_2026-11-30.md'

/** The folders the properties run in: a drive, a drive written with slashes, a UNC share, a drive's root. */
const FOLDERS = [CWD, 'c:/Users/me/proj', UNC_CWD, 'C:\\'] as const

const PREFIXES = [
  '', '', ' ', './', '..\\', '\\', '/', 'C:\\', 'c:/', 'D:\\', 'C:', 'c:', '\\\\server\\share\\', '//SERVER/Share/', '\\\\server\\',
  '\\\\?\\C:\\', '\\\\.\\C:\\', '\\??\\C:\\', 'C:\\Users\\me\\proj\\', 'c:\\USERS\\ME\\PROJ\\', '\\\\server\\share\\proj\\',
] as const
const SEGMENTS = [
  'Users', 'users', 'me', 'ME', 'proj', 'Proj', 'proj2', 'share', 'plans', 'Plans', 'handoffs', 'HANDOFFS', '.claude',
  'HANDOFF_a.md', 'PLAN_b-1.md', 'notes.md', '..', '..', '.', '', ' ', 'x.', 'a ', 'C:', 'é', 'É', 'a b',
] as const
const SEPARATORS = ['\\', '\\', '/', '\\\\', '/\\'] as const

function windowsPathOf(rand: Rand): string {
  let path = rand.pick(PREFIXES)
  const count = rand.int(9)
  for (let i = 0; i < count; i++) path += (i === 0 ? '' : rand.pick(SEPARATORS)) + rand.pick(SEGMENTS)
  return path + rand.pick(['', '', '\\', '/', ' '])
}

/** Windows ignores the case of ASCII letters in these names; fold them to compare. */
function folded(path: string): string {
  return path.replace(/[A-Z]/g, (c) => c.toLowerCase())
}

/** Where Node's path.win32 puts `path` from `cwd`, case folded; a long path
 * (`\\?\C:\x`) names the same file as the plain path it spells. */
function nodeResolved(cwd: string, path: string): string {
  return folded(win32.resolve(cwd, path.trim())).replace(/^\\\\\?\\(?:unc\\)?/i, (prefix) => (prefix.length > 4 ? '\\\\' : ''))
}

/** Whether Node's win32 rules put `path`, resolved from `cwd`, strictly inside `cwd`. */
function isInsideByNode(path: string, cwd: string): boolean {
  const root = folded(win32.resolve(cwd))
  const prefix = root.endsWith('\\') ? root : `${root}\\`
  const resolved = nodeResolved(cwd, path)
  return resolved.startsWith(prefix) && resolved.length > prefix.length
}

describe('relativeToCwd in a Windows folder', () => {
  for (const cwd of FOLDERS) {
    test(`agrees with Node's path.win32 on every path it answers, in ${cwd}`, () => {
      forAll(windowsPathOf, (path) => {
        const rel = relativeToCwd(path, cwd)
        if (rel === undefined) return
        expect(rel.split('/'), 'no empty, "." or ".." segments').not.toContain('')
        expect(rel.split('/')).not.toContain('..')
        expect(rel).not.toMatch(/\\/)
        expect(nodeResolved(cwd, rel)).toBe(nodeResolved(cwd, path))
        expect(isInsideByNode(path, cwd)).toBe(true)
      })
    })

    test(`answers nothing for any path Node's path.win32 puts outside ${cwd}`, () => {
      forAll(windowsPathOf, (path) => {
        if (!isInsideByNode(path, cwd)) expect(relativeToCwd(path, cwd)).toBeUndefined()
      })
    })
  }

  test.each([
    ['a drive letter of the other case', `c:\\Users\\me\\proj\\src\\a.ts`, 'src/a.ts'],
    ['forward slashes', 'C:/Users/me/proj/src/a.ts', 'src/a.ts'],
    ['mixed separators, doubled', 'C:/Users\\\\me/proj\\src//a.ts', 'src/a.ts'],
    ['folders of another case', 'C:\\USERS\\Me\\PROJ\\Src\\a.ts', 'Src/a.ts'],
    ['a path from the root of the folder’s drive', '\\Users\\me\\proj\\src\\a.ts', 'src/a.ts'],
    ['a detour out and back in', 'C:\\Users\\me\\other\\..\\proj\\.\\src\\a.ts', 'src/a.ts'],
  ])('reads %s', (_name, path, rel) => {
    expect(relativeToCwd(path, CWD)).toBe(rel)
    expect(relativeToCwd(path, `${CWD}\\`)).toBe(rel)
  })

  test('reads a long path (\\\\?\\) as the plain path it spells', () => {
    expect(relativeToCwd('\\\\?\\C:\\Users\\me\\proj\\src\\a.ts', CWD)).toBe('src/a.ts')
    expect(relativeToCwd('\\\\?\\c:\\users\\ME\\proj\\src\\a.ts', CWD)).toBe('src/a.ts')
    expect(relativeToCwd('\\\\?\\UNC\\server\\share\\proj\\src\\a.ts', UNC_CWD)).toBe('src/a.ts')
    expect(relativeToCwd('C:\\Users\\me\\proj\\src\\a.ts', '\\\\?\\C:\\Users\\me\\proj')).toBe('src/a.ts')
  })

  test('reads a UNC share, its server and share names in any case', () => {
    expect(relativeToCwd('\\\\server\\share\\proj\\src\\a.ts', UNC_CWD)).toBe('src/a.ts')
    expect(relativeToCwd('//SERVER/Share/proj/src/a.ts', UNC_CWD)).toBe('src/a.ts')
    expect(relativeToCwd('\\src\\a.ts', '\\\\server\\share')).toBe('src/a.ts')
  })

  // Each refused spelling beside a spelling of the same place that is read, so
  // the pair fails on a reader that refuses every Windows path.
  test.each([
    ['a sibling folder whose name starts like the folder', 'C:\\Users\\me\\proj2\\src\\a.ts'],
    ['another drive', 'D:\\Users\\me\\proj\\src\\a.ts'],
    ['a drive with no separator (relative to that drive’s own current folder)', 'C:src\\a.ts'],
    ['a climb out of the folder', 'C:\\Users\\me\\proj\\..\\other\\src\\a.ts'],
    ['a climb above the drive’s root', '..\\..\\..\\..\\..\\Users\\me\\proj\\src\\a.ts'],
    ['a long path holding a `..`, which Windows would not resolve', '\\\\?\\C:\\Users\\me\\proj\\..\\proj\\src\\a.ts'],
    ['a long path holding a `/`, which Windows would not read as a separator', '\\\\?\\C:\\Users\\me\\proj/src\\a.ts'],
    ['a long path to a volume by its name', '\\\\?\\Volume{0f1e}\\Users\\me\\proj\\src\\a.ts'],
    ['a device path written with slashes (//?/)', '//?/C:/Users/me/proj/src/a.ts'],
    ['a device path (\\\\.\\)', '\\\\.\\C:\\Users\\me\\proj\\src\\a.ts'],
    ['an NT path (\\??\\)', '\\??\\C:\\Users\\me\\proj\\src\\a.ts'],
    ['a UNC share', '\\\\server\\share\\Users\\me\\proj\\src\\a.ts'],
    ['a folder name Windows would cut a trailing dot from', 'C:\\Users\\me\\proj.\\src\\a.ts'],
    ['a ".. " Windows may read as ".."', 'C:\\Users\\me\\proj\\src\\x\\.. \\..\\a.ts'],
    ['a colon past the drive (a stream)', 'C:\\Users\\me\\proj\\src:hidden\\a.ts'],
    ['a folder that differs in a letter other than ASCII', 'C:\\Users\\me\\pröj\\src\\a.ts'],
  ])('refuses %s', (_name, path) => {
    expect(relativeToCwd('C:\\Users\\me\\proj\\src\\a.ts', CWD)).toBe('src/a.ts')
    expect(relativeToCwd(path, CWD)).toBeUndefined()
  })

  test('refuses another share, and a UNC name with no share', () => {
    expect(relativeToCwd('\\\\server\\share\\proj\\a.ts', UNC_CWD)).toBe('a.ts')
    expect(relativeToCwd('\\\\server\\share2\\proj\\a.ts', UNC_CWD)).toBeUndefined()
    expect(relativeToCwd('\\\\other\\share\\proj\\a.ts', UNC_CWD)).toBeUndefined()
    expect(relativeToCwd('\\\\server', UNC_CWD)).toBeUndefined()
    expect(relativeToCwd('C:\\share\\proj\\a.ts', UNC_CWD)).toBeUndefined()
  })
})

describe('folders compared without letter case', () => {
  test('where the file system ignores it: Windows by the folder’s shape, macOS by the platform', () => {
    expect(folderIgnoresCase(CWD)).toBe(true)
    expect(folderIgnoresCase(UNC_CWD)).toBe(true)
    expect(folderIgnoresCase('/Users/me/proj', 'macos')).toBe(true)
    expect(folderIgnoresCase('/srv/proj', 'linux')).toBe(false)
    expect(folderIgnoresCase('/srv/proj', 'wsl')).toBe(false)
    expect(folderIgnoresCase('/srv/proj')).toBe(false)
  })

  test('a POSIX folder compares by case unless told the file system ignores it', () => {
    expect(relativeToCwd('/Users/ME/Proj/src/a.ts', '/Users/me/proj')).toBeUndefined()
    expect(relativeToCwd('/Users/ME/Proj/src/a.ts', '/Users/me/proj', true)).toBe('src/a.ts')
    expect(classifyHandoffPath(`/Users/me/PROJ/Plans/Handoffs/${NAME}`, '/Users/me/proj', true)).toEqual({ kind: 'handoff', relPath: `plans/handoffs/${NAME}` })
    expect(classifyHandoffPath(`/Users/me/PROJ/plans/handoffs/${NAME}`, '/Users/me/proj', false)).toBeUndefined()
  })

  test('only Windows-shaped folders are read by Windows’ rules', () => {
    expect([CWD, 'c:/x', UNC_CWD, '//server/share'].map(isWindowsPath)).toEqual([true, true, true, true])
    expect(['/srv/proj', 'C:', 'C:x', 'relative', ''].map(isWindowsPath)).toEqual([false, false, false, false, false])
  })
})

function handoffSpellingOf(rand: Rand): { path: string; relPath: string; kind: 'handoff' | 'plan' } {
  const dir = rand.pick(HANDOFF_DIRS)
  const kind = rand.pick(['handoff', 'plan'] as const)
  const name = `${kind === 'plan' ? 'PLAN' : 'HANDOFF'}_${rand.pick(['a', 'parser-rewrite_2026-11-29', 'x.y_2'])}.md`
  const sep = rand.pick(SEPARATORS)
  const cased = (text: string) => rand.pick([text, text.toUpperCase(), text[0]!.toUpperCase() + text.slice(1)])
  const folder = rand.pick(['C:\\Users\\me\\proj', 'c:\\Users\\me\\proj', 'C:/USERS/me/Proj', 'c:\\users\\ME\\proj', '\\Users\\me\\proj'])
  const detour = rand.pick(['', '.\\', 'sub\\..\\', '..\\proj\\'])
  const spelled = `${detour}${dir.split('/').map(cased).join('\\')}\\${rand.pick(['', '.\\', 'x\\..\\'])}${name}`.replace(/\\/g, sep)
  const path = rand.pick([spelled, `${folder}${sep}${spelled}`, ` ${folder}\\${spelled} `])
  return { path, relPath: `${dir}/${name}`, kind }
}

describe('classifyHandoffPath in a Windows folder', () => {
  test('classifies the issue’s own case: the skill’s Write with an absolute backslash path', () => {
    expect(classifyHandoffPath(`C:\\Users\\me\\proj\\.claude\\handoffs\\${NAME}`, CWD)).toEqual({ kind: 'handoff', relPath: `.claude/handoffs/${NAME}` })
  })

  test('classifies every spelling (drive and folder case, separators, detours), the folder part as HANDOFF_DIRS spells it', () => {
    forAll(handoffSpellingOf, ({ path, relPath, kind }) => {
      expect(classifyHandoffPath(path, CWD)).toEqual({ kind, relPath })
      expect(mayBeHandoffPath(path), 'the pre-filter lets it through').toBe(true)
    })
  })

  test('what it accepts is a file of our name directly under a handoff folder, where Node puts it too', () => {
    let accepted = 0
    const endings = ['', '\\plans\\handoffs\\HANDOFF_a.md', '/.claude/Handoffs/PLAN_b-1.md', 'PLANS\\handoffs\\..\\handoffs\\HANDOFF_a.md']
    for (const cwd of FOLDERS) {
      forAll((rand) => windowsPathOf(rand) + rand.pick(endings), (path) => {
        const file = classifyHandoffPath(path, cwd)
        if (file === undefined) return
        accepted++
        const cut = file.relPath.lastIndexOf('/')
        expect(HANDOFF_DIRS).toContain(file.relPath.slice(0, cut))
        expect(fileKindOfName(file.relPath.slice(cut + 1))).toBe(file.kind)
        expect(nodeResolved(cwd, file.relPath)).toBe(nodeResolved(cwd, path))
        expect(mayBeHandoffPath(path)).toBe(true)
      }, { runs: 4_000 })
    }
    expect(accepted, 'the drawn paths include handoff paths').toBeGreaterThan(20)
  })

  test.each([
    ['another project', `C:\\Users\\me\\proj2\\plans\\handoffs\\${NAME}`],
    ['another drive', `D:\\Users\\me\\proj\\plans\\handoffs\\${NAME}`],
    ['a drive-relative path', `C:plans\\handoffs\\${NAME}`],
    ['a long path with a `..` in it', `\\\\?\\C:\\Users\\me\\proj\\plans\\..\\plans\\handoffs\\${NAME}`],
    ['a climb out', `C:\\Users\\me\\proj\\plans\\handoffs\\..\\..\\..\\other\\plans\\handoffs\\${NAME}`],
  ])('rejects %s, and accepts the same file spelled inside', (_name, path) => {
    expect(classifyHandoffPath(`C:\\Users\\me\\proj\\plans\\handoffs\\${NAME}`, CWD)).toEqual({ kind: 'handoff', relPath: `plans/handoffs/${NAME}` })
    expect(classifyHandoffPath(path, CWD)).toBeUndefined()
  })
})

describe('inFolder', () => {
  test('joins with the folder’s own separator', () => {
    expect(inFolder(CWD, `plans/handoffs/${NAME}`)).toBe(`C:\\Users\\me\\proj\\plans\\handoffs\\${NAME}`)
    expect(inFolder(`${CWD}\\`, 'a/b.md')).toBe('C:\\Users\\me\\proj\\a\\b.md')
    expect(inFolder('C:\\', 'a/b.md')).toBe('C:\\a\\b.md')
    expect(inFolder(UNC_CWD, 'a/b.md')).toBe('\\\\server\\share\\proj\\a\\b.md')
    expect(inFolder('c:/Users/me/proj', 'a/b.md')).toBe('c:/Users/me/proj/a/b.md')
    expect(inFolder('/srv/proj/', 'a/b.md')).toBe('/srv/proj/a/b.md')
    expect(inFolder('/', 'a/b.md')).toBe('/a/b.md')
  })

  test('is read back as the same relative path, in every folder shape', () => {
    forAll((rand) => Array.from({ length: 1 + rand.int(4) }, () => rand.pick(['plans', 'handoffs', NAME, 'a b', 'é'])).join('/'), (rel) => {
      for (const cwd of [...FOLDERS, '/srv/proj']) {
        expect(relativeToCwd(inFolder(cwd, rel), cwd)).toBe(rel)
        if (cwd.includes('\\')) expect(inFolder(cwd, rel)).not.toContain('/')
      }
    })
  })
})

describe('isInHandoffFolder', () => {
  test('takes a real path directly in a handoff folder, in either letter case where case is ignored', () => {
    expect(isInHandoffFolder(`C:\\Users\\me\\proj\\plans\\handoffs\\${NAME}`, CWD, true)).toBe(true)
    expect(isInHandoffFolder(`c:\\users\\ME\\proj\\.claude\\Handoffs\\${NAME}`, CWD, true)).toBe(true)
    expect(isInHandoffFolder(`\\\\SERVER\\share\\proj\\plans\\handoffs\\${NAME}`, UNC_CWD, true)).toBe(true)
    expect(isInHandoffFolder(`/Users/Me/proj/plans/handoffs/${NAME}`, '/Users/me/proj', true)).toBe(true)
    expect(isInHandoffFolder(`/Users/Me/proj/plans/handoffs/${NAME}`, '/Users/me/proj', false)).toBe(false)
  })

  test('takes a real path the engine gives in long form (\\\\?\\), for a folder in either form', () => {
    expect(isInHandoffFolder(`\\\\?\\C:\\Users\\me\\proj\\plans\\handoffs\\${NAME}`, CWD, true)).toBe(true)
    expect(isInHandoffFolder(`C:\\Users\\me\\proj\\plans\\handoffs\\${NAME}`, '\\\\?\\C:\\Users\\me\\proj', true)).toBe(true)
    expect(isInHandoffFolder(`\\\\?\\UNC\\server\\share\\proj\\.claude\\handoffs\\${NAME}`, UNC_CWD, true)).toBe(true)
  })

  test.each([
    ['a relative real path', `plans\\handoffs\\${NAME}`],
    ['one from the drive’s root with no drive', `\\Users\\me\\proj\\plans\\handoffs\\${NAME}`],
    ['another project', `C:\\Users\\me\\proj2\\plans\\handoffs\\${NAME}`],
    ['another drive', `D:\\Users\\me\\proj\\plans\\handoffs\\${NAME}`],
    ['a nested folder', `C:\\Users\\me\\proj\\plans\\handoffs\\old\\${NAME}`],
    ['a long path with a `..` in it', `\\\\?\\C:\\Users\\me\\proj\\plans\\..\\plans\\handoffs\\${NAME}`],
  ])('refuses %s, and takes the same file in the folder spelled in another case', (_name, realPath) => {
    expect(isInHandoffFolder(`c:\\USERS\\me\\proj\\plans\\handoffs\\${NAME}`, CWD, true)).toBe(true)
    expect(isInHandoffFolder(realPath, CWD, true)).toBe(false)
  })
})
