// Each mod ships as the modules `pnpm bundle` generates from its sources
// (tests/harness/bundle.ts): the engine opens and loads those instead of
// walking the import graph from register.ts. The checked-in files must be what
// the generator makes from the sources as they are now, or the engine would run
// code nobody reviewed.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { BUNDLE_HEAD, BUNDLED_MODS, generatedFilesOf } from '../harness/bundle.js'
import { repoRoot } from '../harness/repo-root.js'
import { GENERATED_MODULE, isGeneratedModule } from '../support/hooks-tree.js'

/** The first line where `a` and `b` differ, 1-based, with both lines; undefined when equal. */
function firstDifference(a: string, b: string): string | undefined {
  if (a === b) return undefined
  const as = a.split('\n')
  const bs = b.split('\n')
  const at = as.findIndex((line, i) => line !== bs[i])
  const i = at < 0 ? as.length : at
  return `line ${i + 1}: checked in ${JSON.stringify(as[i] ?? '(end of file)')}, generated ${JSON.stringify(bs[i] ?? '(end of file)')}`
}

describe.each(BUNDLED_MODS)('$dir', (mod) => {
  const hooks = join(repoRoot(), mod.dir, 'hooks')

  test('its hooks.json names the generated module', () => {
    const hooksJson = JSON.parse(readFileSync(join(hooks, 'hooks.json'), 'utf8')) as { modules: string[] }
    expect(hooksJson.modules).toEqual([`./${GENERATED_MODULE}`])
  })

  test('the checked-in generated modules are what `pnpm bundle` makes from the sources now', { timeout: 180_000 }, () => {
    const generated = generatedFilesOf(mod, repoRoot())
    const checkedIn = readdirSync(hooks).filter(isGeneratedModule).sort()
    expect(checkedIn, `${mod.dir}/hooks: run \`pnpm bundle\` and commit what it writes`).toEqual([...generated.keys()].sort())
    for (const [name, text] of generated) {
      const file = readFileSync(join(hooks, name), 'utf8')
      expect(file.split('\n', 1)[0]).toBe(BUNDLE_HEAD)
      const difference = firstDifference(file, text)
      expect(difference, `${mod.dir}/hooks/${name} is out of date with its sources: run \`pnpm bundle\` and commit it`).toBeUndefined()
    }
  })
})
