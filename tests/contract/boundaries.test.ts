// The architecture, held by a test: a hooks module may import only its own
// files and 'claude-code' (engine rule: anything else fails to load), and only
// the effect files (wiring, state, *-steps) touch the engine at all, so every
// decision stays a pure function vitest can call.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'

const MODS = ['packages/compact-handoff', 'packages/compact-handoff-answer']
const ROOT = join(import.meta.dirname, '..', '..')
const IMPORT_RE = /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm

function isEffectFile(name: string): boolean {
  return name === 'register.ts' || name === 'state.ts' || name === 'partner-state.ts' || name.endsWith('-steps.ts')
}

const files = MODS.flatMap((mod) =>
  readdirSync(join(ROOT, mod, 'hooks'))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => ({ name, path: `${mod}/hooks/${name}`, specifiers: [...readFileSync(join(ROOT, mod, 'hooks', name), 'utf8').matchAll(IMPORT_RE)].map((m) => m[1]) })),
)

describe('hooks modules', () => {
  test('exist in both mods', () => {
    expect(files.map((f) => f.path)).toContain('packages/compact-handoff/hooks/register.ts')
    expect(files.map((f) => f.path)).toContain('packages/compact-handoff-answer/hooks/register.ts')
  })

  for (const file of files) {
    test(`${file.path} imports only its siblings and claude-code`, () => {
      for (const specifier of file.specifiers) expect(specifier, file.path).toMatch(/^(?:claude-code|\.\/[a-z0-9-]+\.js)$/)
    })

    if (!isEffectFile(file.name)) {
      test(`${file.path} is pure: it imports nothing from claude-code`, () => {
        expect(file.specifiers, file.path).not.toContain('claude-code')
      })
    }
  }
})
