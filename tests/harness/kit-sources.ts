/**
 * `pnpm test:kit`: `claude plugin test` on each mod as its sources are now. A mod's
 * hooks.json names its generated module (bundle.ts), which is only as new as the last
 * `pnpm bundle`, so the kit runs on a copy of the mod whose hooks.json names
 * `register.ts` instead: a change to a source is tested before it is bundled.
 * (tests/contract/bundle.test.ts holds the generated module to the sources.)
 * `pnpm test:kit compact-handoff tests/run/cancel.test.ts` runs one mod, with the
 * test files named after it.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { BUNDLED_MODS } from './bundle.js'
import { claudeBin } from './claude-cli.js'
import { repoRoot } from './repo-root.js'
import { stageCopy } from './staging.js'

const [onlyMod, ...files] = process.argv.slice(2)
if (onlyMod !== undefined && !BUNDLED_MODS.some((mod) => basename(mod.dir) === onlyMod)) {
  console.error(`kit: no mod ${onlyMod} (known: ${BUNDLED_MODS.map((mod) => basename(mod.dir)).join(', ')})`)
  process.exit(1)
}
let failed = false
for (const { dir: mod } of BUNDLED_MODS) {
  if (onlyMod !== undefined && basename(mod) !== onlyMod) continue
  const dir = mkdtempSync(join(tmpdir(), 'compact-handoff-kit-'))
  try {
    const copy = stageCopy(join(repoRoot(), mod), join(dir, basename(mod)))
    writeFileSync(join(copy, 'hooks', 'hooks.json'), JSON.stringify({ modules: ['./register.ts'] }))
    console.log(`kit: ${mod} from its sources`)
    const ran = spawnSync(claudeBin(), ['plugin', 'test', copy, ...files], { stdio: 'inherit', cwd: copy })
    if (ran.status !== 0) failed = true
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
process.exit(failed ? 1 : 0)
