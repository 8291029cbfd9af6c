// The files built from the handoff spec are what it makes now (tests/harness/generated.ts),
// so a section changed in the spec reaches the eval graders and the fork eval's inputs by
// `pnpm gen`, never by hand.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { generatedFilesOf } from '../harness/generated.js'
import { repoRoot } from '../harness/repo-root.js'

test('every generated file is up to date', () => {
  const stale = generatedFilesOf(repoRoot()).filter(({ path, text }) => readFileSync(join(repoRoot(), path), 'utf8') !== text).map((f) => f.path)
  expect(stale, 'run pnpm gen').toEqual([])
})
