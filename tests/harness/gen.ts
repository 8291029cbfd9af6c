/**
 * `pnpm gen`: writes the files built from the handoff spec (generated.ts says which and why
 * they are kept) where they differ from what the spec makes now.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { generatedFilesOf } from './generated.js'
import { repoRoot } from './repo-root.js'

const root = repoRoot()
let written = 0
for (const { path, text } of generatedFilesOf(root)) {
  if (readFileSync(join(root, path), 'utf8') === text) continue
  writeFileSync(join(root, path), text)
  console.log(`gen: wrote ${path}`)
  written++
}
console.log(`gen: ${written === 0 ? 'every generated file was up to date' : `${written} written`}`)
