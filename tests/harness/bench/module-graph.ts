/**
 * A hooks folder's import graph, and a do-nothing copy of it: the same file names and the
 * same imports between them, every body emptied. Before it spawns the hooks worker,
 * Claude Code 2.1.332 walks a mod's imports from `register.ts` (each file is opened as
 * its importers name it, `.js` then `.ts`), so the copy costs the engine that walk and
 * nothing of the code.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** A relative import or re-export (`import … from './x.js'`, `export … from './x.js'`), type-only ones too. */
const RELATIVE_IMPORT_RE = /^\s*(?:import|export)\s[^'"]*?from\s+['"]\.\/([a-z0-9-]+)\.js['"]/gm

/** Each `.ts` file of `dir` (by name) with the sibling files it imports. */
export function moduleGraphOf(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
    const text = readFileSync(join(dir, name), 'utf8')
    graph.set(name, [...new Set([...text.matchAll(RELATIVE_IMPORT_RE)].map((m) => `${m[1]}.ts`))])
  }
  return graph
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
    const lines = imports.map((dep) => `import { ${exportNameOf(dep)} } from './${dep.replace(/\.ts$/, '.js')}'`)
    lines.push(`export function ${exportNameOf(file)}(): number {\n  return [${imports.map(exportNameOf).join(', ')}].length\n}`)
    files[`hooks/${file}`] = `${file === 'register.ts' ? "import type { Register } from 'claude-code'\n" : ''}${lines.join('\n')}\n${file === 'register.ts' ? registerTail : ''}`
  }
  return files
}
