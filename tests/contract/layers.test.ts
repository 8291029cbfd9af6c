// The hooks folders as layers: each mod's folders in one order, bottom first,
// and a folder may import only from itself and the folders below it (type
// imports count: a shape shared upwards is a piece left in the wrong folder).
// register.ts sits on top and may import any folder. CONTRIBUTING's layer
// table lists the same folders in the same order; this file is the one place
// the order is written, the table is held to it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { repoRoot } from '../harness/repo-root.js'
import { hooksModulesOf, importedPathOf } from '../support/hooks-tree.js'

/** Each mod's folders, bottom first. Adding a folder is one line, at its level. */
export const LAYERS: Record<string, readonly string[]> = {
  'packages/compact-handoff': [
    'state',
    'protocol',
    'format',
    'options',
    'text',
    'disk',
    'status-line',
    'ownership',
    'swap-log',
    'words',
    'carried',
    'background',
    'meter',
    'facts',
    'recall',
    'stub',
    'stub-row',
    'ask',
    'thresholds',
    'run',
    'compaction',
    'resume',
    'commands',
    'prompts',
    'turn-and-session',
  ],
  'packages/compact-handoff-answer': ['partner', 'answer'],
}

const TOP = 'register.ts'

const folderOf = (path: string): string => (path.includes('/') ? path.slice(0, path.indexOf('/')) : path)

export type LayerBreak = { from: string; to: string; rule: string }

/** Every import of `modules` against `order`, named by both files and the rule it breaks. */
export function layerBreaksOf(order: readonly string[], modules: readonly { path: string; specifiers: readonly string[] }[]): LayerBreak[] {
  const breaks: LayerBreak[] = []
  for (const m of modules) {
    if (m.path === TOP) continue
    const level = order.indexOf(folderOf(m.path))
    for (const specifier of m.specifiers) {
      const to = importedPathOf(m.path, specifier)
      if (to === undefined) continue
      const target = folderOf(to)
      if (to === TOP) {
        breaks.push({ from: m.path, to, rule: `${TOP} sits on top: nothing imports it` })
      } else if (order.indexOf(target) > level) {
        const below = order.slice(0, level)
        breaks.push({
          from: m.path,
          to,
          rule: `${folderOf(m.path)}/ may import only itself and the folders below it (${below.length > 0 ? below.join(', ') : 'none'}), not ${target}/; move the shared piece down or pass a function in from above`,
        })
      }
    }
  }
  return breaks
}

/** The folders of CONTRIBUTING's layer table for `mod`, in the table's order. */
function tableFoldersOf(mod: string): string[] {
  const text = readFileSync(join(repoRoot(), 'CONTRIBUTING.md'), 'utf8')
  const heading = `### Layers of ${mod.slice(mod.lastIndexOf('/') + 1)}`
  const start = text.indexOf(heading)
  if (start < 0) return []
  const end = text.indexOf('\n#', start + heading.length)
  return text
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .map((line) => /^\| \d+ \| `([a-z-]+)\/` \|/.exec(line)?.[1])
    .filter((folder) => folder !== undefined)
    .reverse()
}

describe('layerBreaksOf', () => {
  const order = ['low', 'mid', 'high']
  test('names both files and the rule for an import upwards, a type import too', () => {
    const breaks = layerBreaksOf(order, [{ path: 'mid/a.ts', specifiers: ['../high/b.js', '../low/c.js', './d.js', 'claude-code'] }])
    expect(breaks).toEqual([{ from: 'mid/a.ts', to: 'high/b.ts', rule: expect.stringContaining('mid/ may import only itself and the folders below it (low), not high/') }])
  })

  test('lets the top file import anything and nothing import it', () => {
    expect(layerBreaksOf(order, [{ path: 'register.ts', specifiers: ['./high/b.js', './low/c.js'] }])).toEqual([])
    expect(layerBreaksOf(order, [{ path: 'low/c.ts', specifiers: ['../register.js'] }])).toHaveLength(1)
  })
})

describe.each(Object.keys(LAYERS))('%s/hooks', (mod) => {
  const order = LAYERS[mod]!
  const modules = hooksModulesOf(mod)
  const folders = [...new Set(modules.map((m) => m.path).filter((p) => p.includes('/')).map(folderOf))].sort()

  test('every folder has a layer, and every layer a folder', () => {
    expect([...order].sort(), `the order in tests/contract/layers.test.ts against the folders under ${mod}/hooks`).toEqual(folders)
    expect(modules.filter((m) => !m.path.includes('/')).map((m) => m.path), 'only register.ts sits outside the folders').toEqual([TOP])
  })

  test('imports only downwards', () => {
    const breaks = layerBreaksOf(order, modules).map((b) => `${b.from} imports ${b.to}: ${b.rule}`)
    expect(breaks, `the order, bottom first: ${order.join(' < ')} < ${TOP}`).toEqual([])
  })

  test("CONTRIBUTING's layer table lists the same folders in the same order", () => {
    expect(tableFoldersOf(mod), `CONTRIBUTING.md "### Layers of ${mod.slice(mod.lastIndexOf('/') + 1)}", top row first`).toEqual([...order])
  })
})
