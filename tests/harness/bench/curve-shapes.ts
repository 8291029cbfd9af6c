/**
 * The do-nothing mods of `pnpm bench --start-curve`: one `session.start` hook that passes the
 * event on, plus filler of a chosen kind, size, file count and import shape, so that the
 * engine's walk of a mod's modules (docs/measured.md "The start") can be timed against each
 * property alone.
 */

/** What fills the modules: code the engine parses after transpiling, type-only
 * declarations (the transpiler drops them before the engine's parse), or comments. */
export type CurveFill = 'code' | 'comments' | 'types'
/** Who imports whom: `register.ts` imports every other module; each module imports the
 * next; or each module imports up to TREE_FANOUT others (a tree log-deep). */
export type CurveImports = 'flat' | 'chain' | 'tree'

export interface CurveShape {
  name: string
  files: number
  /** The bytes of all the mod's `.ts` files, reached to within one filler unit per file. */
  bytes: number
  fill: CurveFill
  imports: CurveImports
}

export const TREE_FANOUT = 4
const KB = 1024

function shape(files: number, kb: number, fill: CurveFill = 'code', imports: CurveImports = 'flat'): CurveShape {
  const tail = [fill === 'code' ? '' : `-${fill}`, imports === 'flat' ? '' : `-${imports}`].join('')
  return { name: `f${files}-${kb}k${tail}`, files, bytes: kb * KB, fill, imports }
}

/**
 * The shapes one run starts: (a) 1–128 files at 256 KiB; (b) 32, 128 and 512 KiB at one
 * file and at 128; (c) at 256 KiB, comments and type-only declarations instead of code;
 * (d) 128 files as a chain and as a tree instead of flat.
 */
export const CURVE_SHAPES: readonly CurveShape[] = [
  ...[1, 4, 16, 64, 128].map((files) => shape(files, 256)),
  ...[1, 128].flatMap((files) => [32, 128, 512].map((kb) => shape(files, kb))),
  ...[1, 128].flatMap((files) => (['comments', 'types'] as const).map((fill) => shape(files, 256, fill))),
  ...(['chain', 'tree'] as const).map((imports) => shape(128, 256, 'code', imports)),
]

/** The module (0 is `register.ts`) that imports module `i`. */
export function importerOf(i: number, imports: CurveImports): number {
  if (imports === 'flat') return 0
  if (imports === 'chain') return i - 1
  return Math.floor((i - 1) / TREE_FANOUT)
}

function fileOf(i: number): string {
  return i === 0 ? 'register.ts' : `m${i}.ts`
}

/** One unit of filler, named apart by module `m` and unit `u`. */
function fillerUnit(fill: CurveFill, m: number, u: number): string {
  switch (fill) {
    case 'code':
      return `export function f${m}_${u}(value: number, label: string): string {\n  const next = value * ${u} + ${m}\n  if (next > ${u * 7}) return \`\${label}:\${next}\`\n  return label.slice(0, next % 8) + String(value)\n}\n`
    case 'comments':
      return `// Filler ${m}.${u}: a comment line as long as a documented line of code would be, to pad the file.\n`
    case 'types':
      return `export interface T${m}_${u} {\n  readonly value: number\n  readonly label: string\n  next?: T${m}_${u} | undefined\n}\n`
  }
}

/**
 * The mod's files (`hooks/<name>` → text). Every import is used by value, because the
 * transpiler drops an import nothing reads, and the engine walks only what is left.
 */
export function curveFiles(s: CurveShape): Record<string, string> {
  const children: number[][] = Array.from({ length: s.files }, () => [])
  for (let i = 1; i < s.files; i++) children[importerOf(i, s.imports)]!.push(i)
  const perFileBytes = s.bytes / s.files
  const files: Record<string, string> = {}
  for (let m = 0; m < s.files; m++) {
    const kids = children[m]!
    const head = [
      ...(m === 0 ? ["import type { Register } from 'claude-code'"] : []),
      ...kids.map((k) => `import { m${k} } from './m${k}.js'`),
      m === 0
        ? `export const register: Register = (on) => {\n  on('session.start', ($, e, next) => next(e))\n  void [${kids.map((k) => `m${k}`).join(', ')}]\n}`
        : `export function m${m}(): number {\n  return [${kids.map((k) => `m${k}`).join(', ')}].length\n}`,
    ].join('\n')
    const parts = [`${head}\n`]
    let size = Buffer.byteLength(parts[0]!)
    for (let u = 0; size < perFileBytes; u++) {
      const unit = fillerUnit(s.fill, m, u)
      parts.push(unit)
      size += Buffer.byteLength(unit)
    }
    files[`hooks/${fileOf(m)}`] = parts.join('')
  }
  return files
}

/** Import levels below `register.ts` (0 for one file): the rounds of reads the engine's walk takes. */
export function depthOf(s: CurveShape): number {
  let deepest = 0
  const depth = [0]
  for (let i = 1; i < s.files; i++) {
    depth[i] = depth[importerOf(i, s.imports)]! + 1
    deepest = Math.max(deepest, depth[i]!)
  }
  return deepest
}
