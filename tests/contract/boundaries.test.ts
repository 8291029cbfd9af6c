// The architecture, held by a test: a hooks module may import only its own
// mod's hooks files and 'claude-code' (engine rule: anything else fails to
// load); only the effect files (wiring, each folder's *-state atoms, *-steps)
// touch the engine, so every decision stays a pure function vitest can call;
// and the protocol and the format check import nothing above them (the Node
// side and the skills' checks read them too). The order of all the folders is
// layers.test.ts's.
import { existsSync } from 'node:fs'
import { join, posix } from 'node:path'
import { describe, expect, test } from 'vitest'
import { repoRoot } from '../harness/repo-root.js'
import { hooksModulesOf, importedPathOf } from '../support/hooks-tree.js'

const MODS = ['packages/compact-handoff', 'packages/compact-handoff-answer']

function isEffectFile(path: string): boolean {
  const name = posix.basename(path)
  return name === 'register.ts' || name.endsWith('-state.ts') || name.endsWith('-steps.ts')
}

/** The folders beneath the others, each with the folders it may import from. */
const BASE_LAYERS: Record<string, readonly string[]> = {
  protocol: ['protocol'],
  format: ['format', 'protocol'],
}

const folderOf = (path: string): string => (path.includes('/') ? path.slice(0, path.indexOf('/')) : '')

const modules = MODS.flatMap((mod) => hooksModulesOf(mod).map((m) => ({ ...m, mod, where: `${mod}/hooks/${m.path}` })))

describe('hooks modules', () => {
  test('exist in both mods, with register.ts on top and the rest in folders', () => {
    for (const mod of MODS) {
      const paths = modules.filter((m) => m.mod === mod).map((m) => m.path)
      expect(paths).toContain('register.ts')
      expect(paths.filter((p) => !p.includes('/') && p !== 'register.ts'), mod).toEqual([])
    }
  })

  for (const m of modules) {
    test(`${m.where} imports only claude-code and its own mod's hooks files`, () => {
      for (const specifier of m.specifiers) {
        if (specifier === 'claude-code') continue
        expect(specifier, m.where).toMatch(/^(?:\.\.?\/)+(?:[a-z0-9-]+\/)*[a-z0-9-]+\.js$/)
        const target = importedPathOf(m.path, specifier)!
        expect(target.startsWith('..'), `${m.where} reaches out of hooks/ with ${specifier}`).toBe(false)
        expect(existsSync(join(repoRoot(), m.mod, 'hooks', target)), `${m.where}: ${specifier}`).toBe(true)
      }
    })

    test(`${m.where} does not import register.ts (the wiring sits on top)`, () => {
      expect(m.specifiers.map((s) => importedPathOf(m.path, s)), m.where).not.toContain('register.ts')
    })

    if (!isEffectFile(m.path)) {
      test(`${m.where} is pure: nothing from claude-code, no effect file`, () => {
        expect(m.specifiers, m.where).not.toContain('claude-code')
        const effects = m.specifiers.map((s) => importedPathOf(m.path, s)).filter((p) => p !== undefined && isEffectFile(p))
        expect(effects, m.where).toEqual([])
      })
    }

    const allowed = BASE_LAYERS[folderOf(m.path)]
    if (allowed !== undefined) {
      test(`${m.where} imports only from ${allowed.join(' and ')}`, () => {
        const folders = m.specifiers.map((s) => importedPathOf(m.path, s)).filter((p) => p !== undefined).map(folderOf)
        expect(folders.filter((f) => !allowed.includes(f)), m.where).toEqual([])
      })
    }
  }
})
