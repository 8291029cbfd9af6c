/**
 * Plugin folders inside a run: staged copies of the repository's plugins, and throwaway
 * mods written from text. Copies, because loading a mod makes the engine write types and
 * a tsconfig into its folder (seen on Claude Code 2.1.332).
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { RunDir } from './run-dir.js'

const SKIPPED_IN_COPIES = new Set(['node_modules', '.git', 'dist', '.types'])

/**
 * Copies a plugin or marketplace folder, leaving out dependencies, build output and the
 * types the engine wrote into the working tree on an earlier load. Walked by hand, so
 * that the skip list applies at every depth.
 */
export function stageCopy(src: string, dest: string): string {
  mkdirSync(dest, { recursive: true })
  for (const entry of readdirSync(src, { withFileTypes: true })) {
    const from = join(src, entry.name)
    const to = join(dest, entry.name)
    if (SKIPPED_IN_COPIES.has(entry.name) || from.endsWith(join('.claude-plugin', 'types'))) continue
    if (entry.isDirectory()) stageCopy(from, to)
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(from), to)
    else if (entry.isFile()) copyFileSync(from, to)
  }
  return dest
}

/** Writes a mod into the run's plugins/ folder; `files` maps paths inside the mod to contents. */
export function writeMod(run: RunDir, name: string, files: Record<string, string>): string {
  const root = join(run.plugins, name)
  const all: Record<string, string> = {
    '.claude-plugin/plugin.json': JSON.stringify({ name, version: '0.0.0', description: 'e2e throwaway mod', author: { name: 'e2e' } }),
    'hooks/hooks.json': JSON.stringify({ modules: ['./register.ts'] }),
    ...files,
  }
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

/** `<name>@inline`, the id the debug log gives a --plugin-dir plugin's hooks module; none without one. */
export function modIdOf(pluginDir: string): string | undefined {
  if (!existsSync(join(pluginDir, 'hooks', 'hooks.json'))) return undefined
  const manifest = JSON.parse(readFileSync(join(pluginDir, '.claude-plugin', 'plugin.json'), 'utf8')) as { name: string }
  return `${manifest.name}@inline`
}
