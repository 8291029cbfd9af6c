/**
 * A hooks folder's import graph, and a do-nothing copy of it: the same file names and the
 * same imports between them, every body emptied. Before it spawns the hooks worker,
 * Claude Code 2.1.332 walks a mod's imports from `register.ts` (each file is opened as
 * its importers name it, `.js` then `.ts`), so the copy costs the engine that walk and
 * nothing of the code.
 */
import { posix } from 'node:path'
import { importedPathOf, modulesUnder } from '../../support/hooks-tree.js'

/** Each `.ts` module under `dir` (its path inside `dir`, folders included) with the
 * modules it imports or re-exports, type-only ones too, once each. */
export function moduleGraphOf(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const m of modulesUnder(dir)) {
    const imported = m.specifiers.map((s) => importedPathOf(m.path, s)).filter((p) => p !== undefined)
    graph.set(m.path, [...new Set(imported)])
  }
  return graph
}

/** `dep` as `from` imports it: relative, with the `.js` the engine resolves. */
function specifierOf(from: string, dep: string): string {
  const rel = posix.relative(posix.dirname(from), dep).replace(/\.ts$/, '.js')
  return rel.startsWith('.') ? rel : `./${rel}`
}

function exportNameOf(file: string): string {
  return `m_${file.replace(/\.ts$/, '').replace(/\W/g, '_')}`
}

/**
 * The do-nothing copy's files (`hooks/<name>` → text): each file exports one function
 * and imports its graph's siblings' functions by value (functions, so that an import
 * cycle still loads); `register.ts` also gets `registerTail`, the do-nothing hook.
 */
export function emptiedGraphFiles(graph: ReadonlyMap<string, readonly string[]>, registerTail: string): Record<string, string> {
  const files: Record<string, string> = {}
  for (const [file, imports] of graph) {
    const lines = imports.map((dep) => `import { ${exportNameOf(dep)} } from '${specifierOf(file, dep)}'`)
    lines.push(`export function ${exportNameOf(file)}(): number {\n  return [${imports.map(exportNameOf).join(', ')}].length\n}`)
    files[`hooks/${file}`] = `${file === 'register.ts' ? "import type { Register } from 'claude-code'\n" : ''}${lines.join('\n')}\n${file === 'register.ts' ? registerTail : ''}`
  }
  return files
}

/** The modules `register.ts` reaches, itself left out, breadth-first as the engine walks them. */
export function reachedFromRegister(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const seen = new Set(['register.ts'])
  const order: string[] = []
  for (let level = ['register.ts']; level.length > 0; ) {
    const next = level.flatMap((file) => graph.get(file) ?? []).filter((dep) => !seen.has(dep) && (seen.add(dep), true))
    order.push(...next)
    level = next
  }
  return order
}

/**
 * `register.ts` with a bare import of every module it reaches appended, so that the
 * engine's walk reads them all one level deep. Evaluation order stays as it was: each
 * appended module is already reached through the imports above it, and a module runs once.
 */
export function withEveryModuleImported(registerText: string, graph: ReadonlyMap<string, readonly string[]>): string {
  return `${registerText}${reachedFromRegister(graph).map((dep) => `import '${specifierOf('register.ts', dep)}'\n`).join('')}`
}
