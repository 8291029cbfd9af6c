/**
 * `pnpm kit [<test file or folder>…]`: a mod's kit tests in the engine's own host. Named
 * paths run only those test files, each mod's in a staged copy of that mod holding no
 * other test (`claude plugin test` runs every test under the folder it is given; support
 * files stay). Nothing named: both mods' whole suites, as `pnpm test` runs them.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve, sep } from 'node:path'
import { KIT_MODS, isKitTestFile, kitSelectionOf } from './kit-selection.js'
import { repoRoot } from './repo-root.js'
import { stageCopy } from './staging.js'

const root = repoRoot()
// pnpm runs a script from the workspace root; the paths were typed where the person stood.
const typedFrom = process.env.INIT_CWD ?? process.cwd()

/** The mod's test files, repository-relative with `/`, found as the runner finds them. */
function testFilesOf(mod: string): string[] {
  const files: string[] = []
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(path)
      else if (entry.isFile() && isKitTestFile(path)) files.push(path)
    }
  }
  walk(mod)
  return files.sort()
}

/** `claude plugin test <dir>`, its output as the runner prints it; true when it passed. */
function pluginTest(dir: string): boolean {
  const claude = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'claude.cmd' : 'claude')
  const result = spawnSync(claude, ['plugin', 'test', dir], { stdio: 'inherit', cwd: root })
  if (result.error !== undefined) console.error(`kit: could not run claude plugin test: ${result.error.message}`)
  return result.status === 0
}

const named = process.argv.slice(2).map((p) => relative(root, resolve(typedFrom, p)).split(sep).join('/'))
let isPassing = true
if (named.length === 0) {
  for (const mod of KIT_MODS) isPassing = pluginTest(mod) && isPassing
} else {
  const selection = kitSelectionOf(named, testFilesOf)
  if (!selection.isSelected) {
    console.error(`kit: ${selection.problem}`)
    process.exit(2)
  }
  for (const { mod, kept } of selection.selections) {
    const staging = mkdtempSync(join(tmpdir(), 'kit-'))
    try {
      const copy = stageCopy(join(root, mod), join(staging, mod.split('/').at(-1)!))
      const keptInCopy = new Set(kept.map((f) => f.slice(mod.length + 1)))
      for (const f of testFilesOf(mod)) {
        const inCopy = f.slice(mod.length + 1)
        if (!keptInCopy.has(inCopy)) rmSync(join(copy, inCopy))
      }
      console.log(`kit: ${mod}, ${kept.length} of its test files: ${[...keptInCopy].join(', ')}`)
      isPassing = pluginTest(copy) && isPassing
    } finally {
      rmSync(staging, { recursive: true, force: true })
    }
  }
}
process.exit(isPassing ? 0 : 1)
