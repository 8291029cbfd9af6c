// The start curve's generated mods: the file counts, sizes, fillers and import shapes they
// are named for, and imports that survive a transpile (the engine walks only those).
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { CURVE_SHAPES, curveFiles, depthOf, importerOf, type CurveShape } from './curve-shapes.js'

const shape = (over: Partial<CurveShape>): CurveShape => ({ name: 't', files: 16, bytes: 64 * 1024, fill: 'code', imports: 'flat', ...over })

/** Each file's imports as the transpiler leaves them (`m3.ts` → ['./m4.js']). */
function keptImports(files: Record<string, string>): Map<string, string[]> {
  const kept = new Map<string, string[]>()
  for (const [path, text] of Object.entries(files)) {
    const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText
    kept.set(path.replace('hooks/', ''), [...js.matchAll(/^import .* from '([^']+)'/gm)].map((m) => m[1]!))
  }
  return kept
}

describe('curveFiles', () => {
  it.each(['flat', 'chain', 'tree'] as const)('writes one file per module, each imported by its importer, by value (%s)', (imports) => {
    const s = shape({ imports })
    const files = curveFiles(s)
    expect(Object.keys(files)).toHaveLength(16)
    const kept = keptImports(files)
    for (let i = 1; i < 16; i++) {
      const importer = importerOf(i, imports)
      expect(kept.get(importer === 0 ? 'register.ts' : `m${importer}.ts`)).toContain(`./m${i}.js`)
    }
    expect([...kept.values()].flat()).toHaveLength(15)
  })

  it('reaches the total size within one filler unit per file', () => {
    for (const s of [shape({ files: 1 }), shape({ files: 128, bytes: 256 * 1024 }), shape({ fill: 'comments' }), shape({ fill: 'types' })]) {
      const bytes = Object.values(curveFiles(s)).reduce((n, text) => n + Buffer.byteLength(text), 0)
      expect(bytes).toBeGreaterThanOrEqual(s.bytes)
      expect(bytes).toBeLessThan(s.bytes + s.files * 200)
    }
  })

  it('fills with code the transpiler keeps, or with types it drops and comments, which hold no code', () => {
    const jsBytes = (s: CurveShape) => Object.values(curveFiles(s)).reduce((n, text) => n + ts.transpileModule(text, { compilerOptions: { removeComments: true } }).outputText.length, 0)
    expect(jsBytes(shape({ fill: 'code' }))).toBeGreaterThan(32 * 1024)
    expect(jsBytes(shape({ fill: 'comments' }))).toBeLessThan(8 * 1024)
    expect(jsBytes(shape({ fill: 'types' }))).toBeLessThan(8 * 1024)
  })
})

describe('depthOf', () => {
  it('counts the import levels below register.ts', () => {
    expect(depthOf(shape({ files: 1 }))).toBe(0)
    expect(depthOf(shape({ files: 128 }))).toBe(1)
    expect(depthOf(shape({ files: 128, imports: 'chain' }))).toBe(127)
    // 1 + 4 + 16 + 64 = 85 modules in three levels below register.ts; 128 needs a fourth.
    expect(depthOf(shape({ files: 128, imports: 'tree' }))).toBe(4)
  })
})

describe('CURVE_SHAPES', () => {
  it('names each shape once', () => {
    expect(new Set(CURVE_SHAPES.map((s) => s.name)).size).toBe(CURVE_SHAPES.length)
  })
})
