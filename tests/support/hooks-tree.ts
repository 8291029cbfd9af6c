// A mod's hooks folder as the engine loads it: every module under `hooks/`,
// folders included, with the relative imports each one makes. The contract
// tests and the bench read the tree through this one walker.
import { readdirSync, readFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { repoRoot } from '../harness/repo-root.js'

export type HooksModule = {
  /** Path inside `hooks/`, with forward slashes: `run/run-machine.ts`. */
  path: string
  text: string
  /** Every import or re-export specifier, as written. */
  specifiers: string[]
}

const SPECIFIER_RE = /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm

/** Every `.ts` module (declaration files left out) under `<mod>/hooks`, sorted by path. */
export function hooksModulesOf(mod: string): HooksModule[] {
  return modulesUnder(join(repoRoot(), mod, 'hooks'))
}

/** Every `.ts` module (declaration files left out) under the folder `root`, at any depth, sorted by path. */
export function modulesUnder(root: string): HooksModule[] {
  const entries = readdirSync(root, { recursive: true, encoding: 'utf8' })
  return entries
    .map((entry) => entry.split('\\').join('/'))
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))
    .sort()
    .map((path) => {
      const text = readFileSync(join(root, path), 'utf8')
      return { path, text, specifiers: [...text.matchAll(SPECIFIER_RE)].map((m) => m[1]!) }
    })
}

/** The module a relative `.js` specifier of `from` names, as a path inside
 * `hooks/` (`undefined` for 'claude-code' and anything that is not relative). */
export function importedPathOf(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined
  return posix.normalize(posix.join(posix.dirname(from), specifier)).replace(/\.js$/, '.ts')
}
