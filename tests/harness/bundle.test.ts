// The generator of a mod's single module, on small hooks trees made for it: the
// bundle must behave as the sources do, and refuse what it has no rule for.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import ts from 'typescript'
import { afterEach, describe, expect, test } from 'vitest'
import { BUNDLE_FILE, BUNDLE_HEAD, BUNDLED_MODS, bundleOf } from './bundle.js'
import { claudeBin } from './claude-cli.js'
import { repoRoot } from './repo-root.js'
import { stageCopy } from './staging.js'

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A hooks folder holding `files` (path inside it → text). */
function hooksTree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'bundle-test-'))
  made.push(dir)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

/** The generated module run under Node: its types stripped, its `register` called. */
async function registerOf(bundle: string, dir: string): Promise<unknown> {
  const js = ts.transpileModule(bundle, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText
  const file = join(dir, 'bundled.mjs')
  writeFileSync(file, js)
  const module = (await import(pathToFileURL(file).href)) as { register: () => unknown }
  return module.register()
}

const TREE = {
  'register.ts': [
    "import type { Register } from 'claude-code'",
    "import { label as nameOf, count } from './a/one.js'",
    "import { helper } from './b/two.js'",
    "import { shared } from './b/again.js'",
    'export const register: Register = (() => [nameOf(\'x\'), count, helper(2), shared]) as unknown as Register',
    '',
  ].join('\n'),
  'a/one.ts': [
    "const PREFIX = 'one'",
    'export function label(x: string): string {',
    '  return `${PREFIX}:${x}`',
    '}',
    'export const count = PREFIX.length - 2',
    '/** Only a test would use it. */',
    'export function unusedByRegister(): number {',
    '  return 0',
    '}',
    '',
  ].join('\n'),
  'b/two.ts': [
    "const PREFIX = 'two'",
    'export function helper(n: number): string {',
    "  const label = 'local'",
    '  return `${PREFIX}:${n}:${label}`',
    '}',
    'export const shared = { PREFIX }',
    '',
  ].join('\n'),
  'b/again.ts': "export { shared } from './two.js'\n",
}

describe('bundleOf', () => {
  test('joins register.ts and its imports into one module that behaves as the sources', async () => {
    const dir = hooksTree(TREE)
    const bundle = bundleOf(dir)
    expect(bundle.split('\n', 1)[0]).toBe(BUNDLE_HEAD)
    expect(bundle).not.toMatch(/from '\.\.?\//)
    expect(bundle.match(/^export /gm)).toEqual(['export '])
    expect(await registerOf(bundle, dir)).toEqual(['one:x', 1, 'two:2:local', { PREFIX: 'two' }])
  })

  test('orders each module after the ones it imports', () => {
    const bundle = bundleOf(hooksTree(TREE))
    const at = (file: string): number => bundle.indexOf(`// ── ${file}\n`)
    expect(at('a/one.ts')).toBeGreaterThan(0)
    expect(at('a/one.ts')).toBeLessThan(at('register.ts'))
    expect(at('b/two.ts')).toBeLessThan(at('register.ts'))
  })

  test('leaves out what register does not reach', () => {
    expect(bundleOf(hooksTree(TREE))).not.toContain('function unusedByRegister')
  })

  test("renames a top-level function named like another module's local (the engine's check of what $ is handed goes by name)", () => {
    const bundle = bundleOf(hooksTree(TREE))
    expect(bundle).not.toMatch(/function label\(/)
    expect(bundle).toMatch(/function label__a_one\(/)
  })

  test("merges the modules' 'claude-code' imports and one type alias spelled alike over them", () => {
    const dir = hooksTree({
      'register.ts': "import type { Register } from 'claude-code'\nimport { one } from './one.js'\nimport { two } from './two.js'\nexport const register: Register = () => void [one, two]\n",
      'one.ts': "import { atom, type EngineInterface } from 'claude-code'\ntype $ = EngineInterface\nexport const one = atom('a', 1)\nexport function useOne($: $): $ {\n  return $\n}\nvoid useOne\n",
      'two.ts': "import { atom, type EngineInterface } from 'claude-code'\ntype $ = EngineInterface\nexport const two = atom('b', 2)\nexport function useTwo($: $): $ {\n  return $\n}\nvoid useTwo\n",
    })
    const bundle = bundleOf(dir)
    expect(bundle.split('\n')[1]).toBe("import { type EngineInterface, type Register, atom } from 'claude-code'")
    expect(bundle.match(/type \$ = EngineInterface/g)).toHaveLength(1)
  })

  test.each([
    ['an import cycle', { 'register.ts': "import { a } from './a.js'\nexport const register = () => a\n", 'a.ts': "import { register } from './register.js'\nexport const a = register\n" }, /import cycle/],
    ['an npm package', { 'register.ts': "import { z } from 'zod'\nexport const register = () => z\n" }, /imports "zod"/],
    ['a default export', { 'register.ts': "import a from './a.js'\nexport const register = () => a\n", 'a.ts': 'export default 1\n' }, /default export/],
  ])('fails loudly on %s', (_, files, message) => {
    expect(() => bundleOf(hooksTree(files))).toThrow(message)
  })
})

/** What `claude plugin validate --strict` reads from a mod's module: each hook's event, the
 * `$` calls made, the state read and written (matchers and the helpers a call goes through
 * left out: a constant or a name can differ once joined). */
function engineReadingOf(pluginDir: string): { ok: boolean; lines: string[] } {
  const ran = spawnSync(claudeBin(), ['plugin', 'validate', '--strict', pluginDir], { encoding: 'utf8' })
  const text = `${ran.stdout}${ran.stderr}`
  const lines = text
    .split('\n')
    .map((line) => /❯ \.\/\S+ (hooks|calls|state writes|state reads): (.*)$/.exec(line))
    .filter((m) => m !== null)
    .flatMap((m) => (m[2] ?? '').replace(/\{[^}]*\}/g, '').replace(/ \(via [^)]*\)/g, '').split(', ').map((item) => `${m[1]}: ${item.trim()}`))
    .sort()
  return { ok: ran.status === 0, lines }
}

describe.each(BUNDLED_MODS)('%s as one generated module', (mod) => {
  test('passes `claude plugin validate --strict` with the same hooks, calls and state as its sources', { timeout: 180_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'bundle-validate-'))
    made.push(dir)
    const bundled = stageCopy(join(repoRoot(), mod), join(dir, basename(mod)))
    writeFileSync(join(bundled, 'hooks', BUNDLE_FILE), bundleOf(join(bundled, 'hooks')))
    writeFileSync(join(bundled, 'hooks', 'hooks.json'), JSON.stringify({ modules: [`./${BUNDLE_FILE}`] }))
    const fromSources = engineReadingOf(join(repoRoot(), mod))
    const fromBundle = engineReadingOf(bundled)
    expect(fromBundle.ok).toBe(true)
    expect(fromBundle.lines.length).toBeGreaterThan(0)
    expect(fromBundle.lines).toEqual(fromSources.lines)
  })
})
