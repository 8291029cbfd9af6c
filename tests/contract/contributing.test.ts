// CONTRIBUTING.md's tables say, folder by folder, which file decides and which
// applies: a file missing there is one a newcomer cannot place. Every hooks
// file of both mods is named there by its path inside `hooks/`.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { repoRoot } from '../harness/repo-root.js'
import { hooksModulesOf } from '../support/hooks-tree.js'

const MODS = ['packages/compact-handoff', 'packages/compact-handoff-answer']

/** The part of CONTRIBUTING.md about one mod's hooks: from its heading
 * (`### \`packages/<mod>/hooks/\``) to the next heading of that level. */
function sectionOf(text: string, mod: string): string {
  const start = text.indexOf(`### \`${mod}/hooks/\``)
  if (start < 0) return ''
  const end = text.indexOf('\n### ', start + 1)
  return text.slice(start, end < 0 ? undefined : end)
}

test.each(MODS)('CONTRIBUTING.md names every hooks file of %s by its path, under the mod', (mod) => {
  const section = sectionOf(readFileSync(join(repoRoot(), 'CONTRIBUTING.md'), 'utf8'), mod)
  expect(section, `a "### \`${mod}/hooks/\`" section`).not.toBe('')
  const unnamed = hooksModulesOf(mod).filter((m) => !section.includes(`\`${m.path}\``)).map((m) => m.path)
  expect(unnamed, `${mod}: add each to its folder's table in CONTRIBUTING.md`).toEqual([])
})
