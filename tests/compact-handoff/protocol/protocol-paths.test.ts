// The path rules: tool paths arrive in any spelling (backslashes, detours,
// blanks), so the readers must never throw, must agree with Node's own
// resolution, and must never place a file outside the session's handoff folders.
import { posix } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  HANDOFF_DIRS,
  classifyHandoffPath,
  fileKindOfName,
  fileKindOfRelPath,
  mayBeHandoffPath,
  relativeToCwd,
} from '../../../packages/compact-handoff/hooks/protocol/protocol-paths.js'
import { forAll, type Rand } from '../../support/property.js'
import { cpuMsOf } from '../../support/cpu-time.js'

const CWD = '/srv/proj'

/** Path segments: real handoff folders and names, dot segments, blanks, Unicode,
 * the cwd's own names (so `..` can climb out and back in), a Windows drive. */
const SEGMENTS = [
  'plans', 'handoffs', '.claude', 'HANDOFF_a.md', 'PLAN_b-1.md', 'HANDOFF_.md', 'handoff_a.md', 'notes.md',
  '..', '..', '.', '', ' ', 'srv', 'proj', 'other', 'sub', 'é', '🙂', 'C:', 'a b',
] as const
const SEPARATORS = ['/', '/', '\\', '//', '\\/'] as const

function pathOf(rand: Rand): string {
  const count = rand.int(9)
  let path = rand.pick(['', '', '/', '\\', `${CWD}/`, `${CWD}\\`, ' ', './', '../'])
  for (let i = 0; i < count; i++) path += (i === 0 ? '' : rand.pick(SEPARATORS)) + rand.pick(SEGMENTS)
  return path + rand.pick(['', '', '', '/', ' ', '\n'])
}

/** What a path resolves to from CWD, per Node's own POSIX rules (backslashes read as slashes). */
function resolvedOf(path: string): string {
  return posix.resolve(CWD, path.trim().replace(/\\/g, '/'))
}

function isInsideCwd(resolved: string): boolean {
  const rel = posix.relative(CWD, resolved)
  return rel !== '' && !rel.startsWith('..') && !posix.isAbsolute(rel)
}

describe('relativeToCwd', () => {
  test('never throws, and answers a clean relative path that Node resolves to the same place', () => {
    forAll(pathOf, (path) => {
      const rel = relativeToCwd(path, CWD)
      if (rel === undefined) return
      expect(rel.split('/'), 'no empty, "." or ".." segments').not.toContain('')
      expect(rel.split('/')).not.toContain('.')
      expect(rel.split('/')).not.toContain('..')
      expect(rel).not.toMatch(/\\/)
      expect(posix.join(CWD, rel)).toBe(resolvedOf(path))
    })
  })

  test('answers nothing for any path Node resolves outside the session folder', () => {
    forAll(pathOf, (path) => {
      if (!isInsideCwd(resolvedOf(path))) expect(relativeToCwd(path, CWD)).toBeUndefined()
    })
  })

  test.each([
    ['an absolute path inside', `${CWD}/plans/handoffs/HANDOFF_a.md`, 'plans/handoffs/HANDOFF_a.md'],
    ['a relative path', 'plans/handoffs/HANDOFF_a.md', 'plans/handoffs/HANDOFF_a.md'],
    ['backslashes', 'plans\\handoffs\\HANDOFF_a.md', 'plans/handoffs/HANDOFF_a.md'],
    ['a detour out and back in', `${CWD}/../proj/plans/x/../handoffs/./HANDOFF_a.md`, 'plans/handoffs/HANDOFF_a.md'],
    ['a cwd with a trailing slash', 'plans/a.md', 'plans/a.md'],
  ])('resolves %s', (_name, path, rel) => {
    expect(relativeToCwd(path, `${CWD}/`)).toBe(rel)
    expect(relativeToCwd(path, CWD)).toBe(rel)
  })

  test.each([
    ['a sibling folder', '/srv/proj2/plans/handoffs/HANDOFF_a.md'],
    ['a climb out of the folder', '../other/plans/handoffs/HANDOFF_a.md'],
    ['a climb above the file system root', '../../../../srv/proj/plans/handoffs/HANDOFF_a.md'],
    ['the folder itself', CWD],
    ['an empty path', ''],
    ['a blank path', ' \n '],
  ])('answers nothing for %s', (_name, path) => {
    expect(relativeToCwd(path, CWD)).toBeUndefined()
  })
})

function handoffPathOf(rand: Rand): { path: string; relPath: string; kind: 'handoff' | 'plan' } {
  const dir = rand.pick(HANDOFF_DIRS)
  const kind = rand.pick(['handoff', 'plan'] as const)
  const name = `${kind === 'plan' ? 'PLAN' : 'HANDOFF'}_${rand.pick(['a', 'parser-rewrite_2026-11-29', 'x.y_2', '9'])}.md`
  const relPath = `${dir}/${name}`
  const sep = rand.pick(SEPARATORS)
  const detour = rand.pick(['', './', 'sub/../', `../${posix.basename(CWD)}/`])
  const spelled = `${detour}${dir}/${rand.pick(['', './', 'x/../'])}${name}`.split('/').join(sep)
  const path = rand.pick([spelled, `${CWD}${sep}${spelled}`, ` ${spelled} `, `${spelled}${sep}`])
  return { path, relPath, kind }
}

describe('classifyHandoffPath', () => {
  test('classifies every spelling of a handoff or plan file directly under a handoff folder', () => {
    forAll(handoffPathOf, ({ path, relPath, kind }) => {
      expect(classifyHandoffPath(path, CWD)).toEqual({ kind, relPath })
    })
  })

  test('never throws, and what it accepts is a file of our name directly under a handoff folder inside the session', () => {
    forAll(pathOf, (path) => {
      const file = classifyHandoffPath(path, CWD)
      if (file === undefined) return
      const cut = file.relPath.lastIndexOf('/')
      expect(HANDOFF_DIRS).toContain(file.relPath.slice(0, cut))
      expect(fileKindOfName(file.relPath.slice(cut + 1))).toBe(file.kind)
      expect(relativeToCwd(path, CWD)).toBe(file.relPath)
      expect(isInsideCwd(resolvedOf(path)), 'a `..` that escapes the session is never classified').toBe(true)
    })
  })

  test.each([
    ['a nested subfolder', 'plans/handoffs/old/HANDOFF_a.md'],
    ['the handoff folder of another project', '/srv/other/plans/handoffs/HANDOFF_a.md'],
    ['a climb out through `..`', 'plans/handoffs/../../../other/plans/handoffs/HANDOFF_a.md'],
    ['a folder that is not a handoff folder', 'handoffs/HANDOFF_a.md'],
    ['a lowercase prefix', 'plans/handoffs/handoff_a.md'],
    ['a name with nothing after the prefix', 'plans/handoffs/HANDOFF_.md'],
    ['another extension', 'plans/handoffs/HANDOFF_a.txt'],
    ['the folder alone', 'plans/handoffs'],
  ])('rejects %s', (_name, path) => {
    expect(classifyHandoffPath(path, CWD)).toBeUndefined()
  })
})

describe('mayBeHandoffPath', () => {
  test('is true for every path classifyHandoffPath accepts, among random paths', () => {
    forAll(pathOf, (path) => {
      if (classifyHandoffPath(path, CWD) !== undefined) expect(mayBeHandoffPath(path)).toBe(true)
    }, { runs: 20_000 })
  })

  test('is true for every spelling of a handoff path', () => {
    forAll(handoffPathOf, ({ path }) => expect(mayBeHandoffPath(path)).toBe(true))
  })

  test.each([
    ['an ordinary source file', `${CWD}/src/index.ts`],
    ['a markdown file elsewhere', `${CWD}/docs/HANDOFF_guide.md`],
    ['a handoff folder file of another kind', `${CWD}/plans/handoffs/notes.md`],
    ['an empty path', ''],
  ])('lets %s pass without a closer look', (_name, path) => {
    expect(mayBeHandoffPath(path)).toBe(false)
  })

  test('stays fast on a 100 000-character path', () => {
    const ms = cpuMsOf(() => {
      mayBeHandoffPath(`/handoffs/HANDOFF_${'.md '.repeat(25_000)}x`)
      mayBeHandoffPath(`${'/handoffs'.repeat(10_000)}/${'/'.repeat(10_000)}x`)
    })
    expect(ms, 'CPU ms, which other load does not stretch').toBeLessThan(1000)
  })
})

describe('fileKindOfName', () => {
  test.each([
    ['HANDOFF_parser-rewrite_2026-11-29.md', 'handoff'],
    ['HANDOFF_parser-rewrite_2026-11-29_2.md', 'handoff'],
    ['PLAN_parser-rewrite_2026-11-29.md', 'plan'],
    ['HANDOFF_a.b.md', 'handoff'],
  ])('reads %s as a %s', (name, kind) => {
    expect(fileKindOfName(name)).toBe(kind)
  })

  test.each(['HANDOFF_.md', 'HANDOFF_-a.md', 'HANDOFF_a b.md', 'HANDOFF_a.MD', 'plan_a.md', 'NOTES_a.md', 'HANDOFF_a.md.bak', 'HANDOFF_é.md', ''])(
    'rejects %j',
    (name) => {
      expect(fileKindOfName(name)).toBeUndefined()
    },
  )
})

describe('fileKindOfRelPath', () => {
  test('a handoff or plan file directly in a handoff folder, nothing else', () => {
    expect(fileKindOfRelPath('plans/handoffs/HANDOFF_x_2026-11-29.md')).toBe('handoff')
    expect(fileKindOfRelPath('.claude/handoffs/PLAN_x_2026-11-29.md')).toBe('plan')
    expect(fileKindOfRelPath('plans/HANDOFF_x.md')).toBeUndefined()
    expect(fileKindOfRelPath('plans/handoffs/old/HANDOFF_x.md')).toBeUndefined()
    expect(fileKindOfRelPath('HANDOFF_x.md')).toBeUndefined()
    expect(fileKindOfRelPath('plans/handoffs/notes.md')).toBeUndefined()
  })
})
