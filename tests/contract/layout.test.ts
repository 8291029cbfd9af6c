// The tests mirror the hooks folders: a test folder named after a concern
// sits beside a hooks folder of that name, so a change to `hooks/run/` finds
// its unit tests in `tests/<mod>/run/` and its kit tests in the mod's
// `tests/run/`. `support/` holds what several suites share.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { repoRoot } from '../harness/repo-root.js'

const MODS = ['compact-handoff', 'compact-handoff-answer']

function foldersIn(path: string): string[] {
  return readdirSync(join(repoRoot(), path), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
}

describe.each(MODS)('%s', (mod) => {
  const hooksFolders = foldersIn(`packages/${mod}/hooks`)

  test('has hooks folders to mirror', () => {
    expect(hooksFolders.length).toBeGreaterThan(1)
  })

  test.each([`tests/${mod}`, `packages/${mod}/tests`])('%s holds only folders named after hooks folders', (testsPath) => {
    const strays = foldersIn(testsPath).filter((name) => name !== 'support' && !hooksFolders.includes(name))
    expect(strays, `no hooks folder of ${mod} by these names`).toEqual([])
  })
})
