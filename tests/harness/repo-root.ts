/**
 * The repository's root folder, found by walking up to pnpm-workspace.yaml: the harness
 * runs from tests/harness (vitest) and from dist/tests/harness (compiled), so a fixed
 * `..` count would be right for only one of them.
 */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const up = dirname(dir)
    if (up === dir) throw new Error('harness: no pnpm-workspace.yaml above ' + fileURLToPath(import.meta.url))
    dir = up
  }
  return dir
}
