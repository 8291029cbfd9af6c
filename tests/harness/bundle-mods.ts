/**
 * `pnpm bundle`: writes each mod's generated modules (hooks/bundle.ts, and the chunks
 * it imports when a mod is cut into several) beside its sources, from register.ts's
 * import graph, and removes generated chunks it no longer makes. hooks.json names
 * bundle.ts; tests/contract/bundle.test.ts fails when a checked-in one is not what
 * this writes from the sources.
 */
import { readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { BUNDLED_MODS, generatedFilesOf } from './bundle.js'
import { repoRoot } from './repo-root.js'
import { isGeneratedModule } from '../support/hooks-tree.js'

for (const mod of BUNDLED_MODS) {
  const hooks = join(repoRoot(), mod.dir, 'hooks')
  const files = generatedFilesOf(mod, repoRoot())
  for (const stale of readdirSync(hooks).filter((name) => isGeneratedModule(name) && !files.has(name))) rmSync(join(hooks, stale))
  for (const [name, text] of files) writeFileSync(join(hooks, name), text)
  console.log(`bundle: wrote ${[...files.keys()].map((name) => join(mod.dir, 'hooks', name)).join(', ')}`)
}
