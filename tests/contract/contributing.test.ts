// CONTRIBUTING.md's tables say which file decides and which applies: a file
// missing there is one a newcomer cannot place. Every hooks file of both mods
// is named in them.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
const HOOKS_FOLDERS = ['packages/compact-handoff/hooks', 'packages/compact-handoff-answer/hooks']

/** Every `.ts` file under `folder`, as a path relative to it. */
function hooksFilesOf(folder: string): string[] {
  return (readdirSync(join(ROOT, folder), { recursive: true }) as string[]).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
}

test('CONTRIBUTING.md names every hooks file of both mods', () => {
  const text = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8')
  for (const folder of HOOKS_FOLDERS) {
    const unnamed = hooksFilesOf(folder).filter((path) => {
      const name = path.split(/[\\/]/).at(-1)!
      return !text.includes(`\`${name}\``) && !text.includes(`/${name}\``)
    })
    expect(unnamed, `${folder}: add each to a table in CONTRIBUTING.md`).toEqual([])
  }
})
