/**
 * Puts the mod API declarations at `<repo>/.types/` for `tsc -p tsconfig.mods.json`,
 * without committing Anthropic's file: the binary embeds them and, in an interactive
 * session, writes them into `.claude-plugin/types/` of every mod it loads from a folder
 * (within ~5 s of start on 2.1.332). Headless `-p` never writes them, hence tmux.
 *
 * Skipped when `.types/claude-code/index.d.ts` already names the installed version on its
 * first line ("// Written by Claude Code <version>.").
 */
import { cpSync, existsSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { claudeVersion } from './claude-cli.js'
import { pollUntil } from './poll.js'
import { repoRoot } from './repo-root.js'
import { createRunDir } from './run-dir.js'
import { writeMod } from './staging.js'
import { startSession } from './tmux-session.js'

const TYPE_PACKAGES = ['claude-code', 'claude-code-tools', 'claude-code-mcp']
const WRITE_WAIT_MS = 60_000

function firstLine(file: string): string {
  return existsSync(file) ? (readFileSync(file, 'utf8').split('\n', 1)[0] ?? '') : ''
}

const root = repoRoot()
const version = claudeVersion()
const target = join(root, '.types')

if (firstLine(join(target, 'claude-code', 'index.d.ts')).includes(version)) {
  console.log(`fetch-types: .types/ already holds the declarations of Claude Code ${version}`)
} else {
  const run = createRunDir('fetch-types')
  const mod = writeMod(run, 'types-probe', { 'hooks/register.ts': 'export const register = () => {}\n' })
  const session = await startSession({ run, plugins: [mod] })
  const written = join(mod, '.claude-plugin', 'types')
  try {
    let lastSizes = ''
    await pollUntil(`the engine to write ${written}`, WRITE_WAIT_MS, () => {
      const files = TYPE_PACKAGES.map((p) => join(written, p, 'index.d.ts'))
      if (!files.every(existsSync) || !firstLine(files[0] ?? '').includes(version)) return undefined
      // Sizes unchanged across two polls: the engine has finished writing these files.
      const sizes = files.map((f) => statSync(f).size).join(',')
      const isStable = sizes === lastSizes
      lastSizes = sizes
      return isStable ? true : undefined
    })
    for (const p of TYPE_PACKAGES) {
      rmSync(join(target, p), { recursive: true, force: true })
      cpSync(join(written, p), join(target, p), { recursive: true })
    }
    await session.stop()
    rmSync(run.dir, { recursive: true, force: true })
    console.log(`fetch-types: wrote .types/{${TYPE_PACKAGES.join(',')}} from Claude Code ${version}`)
  } catch (err) {
    await session.stop()
    console.error(`fetch-types: failed; run dir kept: ${run.dir}`)
    throw err
  }
}
