// The bench's do-nothing copy of a hooks folder keeps exactly the folder's import graph.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { emptiedGraphFiles, moduleGraphOf, reachedFromRegister, withEveryModuleImported } from './module-graph.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'module-graph-'))
  dirs.push(dir)
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  return dir
}

const HOOKS = {
  'register.ts': "import type { Register } from 'claude-code'\nimport { a } from './a.js'\nimport type { B } from './b.js'\nexport const register: Register = () => {}\n",
  'a.ts': "export { c } from './parts/c.js'\nexport const a = 1\n",
  'b.ts': "import { a } from './a.js'\nimport { a as again } from './a.js'\nexport type B = typeof a | typeof again\n",
  'parts/c.ts': "import { a } from '../a.js'\nexport const c = () => a\n",
  'notes.md': "import { x } from './x.js'\n",
}

describe('moduleGraphOf', () => {
  it('lists each .ts file, in folders too, with the files it imports and re-exports, type-only ones too, once each', () => {
    expect(Object.fromEntries(moduleGraphOf(folder(HOOKS)))).toEqual({
      'a.ts': ['parts/c.ts'],
      'b.ts': ['a.ts'],
      'parts/c.ts': ['a.ts'],
      'register.ts': ['a.ts', 'b.ts'],
    })
  })
})

describe('emptiedGraphFiles', () => {
  it('writes a copy whose import graph is the original one, and only register.ts gets the hook', () => {
    const graph = moduleGraphOf(folder(HOOKS))
    const files = emptiedGraphFiles(graph, 'export const register = 1\n')
    const copy = folder(Object.fromEntries(Object.entries(files).map(([path, text]) => [path.replace(/^hooks\//, ''), text])))
    expect(moduleGraphOf(copy)).toEqual(graph)
    expect(files['hooks/register.ts']).toMatch(/^import type \{ Register \} from 'claude-code'\n[\s\S]*export const register = 1\n$/)
    expect(Object.values(files).filter((text) => text.includes('export const register'))).toHaveLength(1)
  })
})

describe('withEveryModuleImported', () => {
  const graph = new Map([
    ['register.ts', ['a.ts']],
    ['a.ts', ['parts/c.ts', 'b.ts']],
    ['b.ts', ['a.ts']],
    ['parts/c.ts', ['parts/d.ts']],
    ['parts/d.ts', []],
    ['unreached.ts', ['a.ts']],
  ])

  it('lists what register.ts reaches, breadth-first, once each, itself and the unreached left out', () => {
    expect(reachedFromRegister(graph)).toEqual(['a.ts', 'parts/c.ts', 'b.ts', 'parts/d.ts'])
  })

  it("appends a bare import of each after register.ts's own imports, so that the walk is one level deep", () => {
    const text = withEveryModuleImported("import { a } from './a.js'\nexport const register = a\n", graph)
    expect(text).toBe("import { a } from './a.js'\nexport const register = a\nimport './a.js'\nimport './parts/c.js'\nimport './b.js'\nimport './parts/d.js'\n")
  })
})
