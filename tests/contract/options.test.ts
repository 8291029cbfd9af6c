// The options have three written forms besides plugin.json's `userConfig`,
// the one the engine reads: the mod's resolution (`hooks/options/options.ts`
// OPTION_SPECS), README.md's option table (every plugin's options) and each
// mod README's own (its options, their defaults and bounds, or "None"). An
// option added, renamed or given another default or bound in one of them
// fails here until all of them agree with plugin.json.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { escapeRe } from '../harness/escape-re.js'
import { repoRoot } from '../harness/repo-root.js'
import { OPTION_SPECS } from '../../packages/compact-handoff/hooks/options/options.js'

type UserConfigField = { type: string; default?: unknown; min?: number; max?: number; options?: string[] }
type Manifest = { name: string; userConfig?: Record<string, UserConfigField> }

const MODS = ['packages/compact-handoff', 'packages/compact-handoff-answer']

const textOf = (path: string): string => readFileSync(join(repoRoot(), path), 'utf8')
const manifestOf = (mod: string): Manifest => JSON.parse(textOf(`${mod}/.claude-plugin/plugin.json`)) as Manifest
const fieldsOf = (mod: string): [string, UserConfigField][] => Object.entries(manifestOf(mod).userConfig ?? {})

/** The cells of a Markdown table row, trimmed; undefined for a line that is no row. */
function cellsOf(line: string): string[] | undefined {
  const trimmed = line.trim()
  if (!trimmed.startsWith('|') || !trimmed.endsWith('|')) return undefined
  return trimmed.slice(1, -1).split('|').map((cell) => cell.trim())
}

/** Every table of `text` whose header has an `Option` column, as records by header. */
function optionTablesOf(text: string): Record<string, string>[][] {
  const lines = text.split('\n')
  const tables: Record<string, string>[][] = []
  for (let i = 0; i < lines.length; i++) {
    const header = cellsOf(lines[i] ?? '')
    if (header === undefined || !header.includes('Option') || !/^\|[\s|:-]+\|$/.test((lines[i + 1] ?? '').trim())) continue
    const rows: Record<string, string>[] = []
    for (i += 2; i < lines.length; i++) {
      const cells = cellsOf(lines[i] ?? '')
      if (cells === undefined) break
      rows.push(Object.fromEntries(header.map((name, at) => [name, cells[at] ?? ''])))
    }
    tables.push(rows)
  }
  return tables
}

/** An option's name as a table cell spells it: in backticks. */
const nameOf = (cell: string): string => /^`([^`]+)`$/.exec(cell)?.[1] ?? cell

/** How a default is written at the start of a Default cell. */
function defaultSpellingOf(field: UserConfigField): string {
  return typeof field.default === 'string' ? `\`${field.default}\`` : String(field.default)
}

/** The `## Options` section of a README, up to the next heading of that level. */
function optionsSectionOf(text: string): string | undefined {
  const start = text.search(/^## Options$/m)
  if (start < 0) return undefined
  const end = text.indexOf('\n## ', start + 1)
  return text.slice(start, end < 0 ? undefined : end)
}

describe("README.md's option table", () => {
  const tables = optionTablesOf(textOf('README.md'))

  test('is one table', () => {
    expect(tables).toHaveLength(1)
  })

  test("names every plugin's options, and only those, each under its plugin", () => {
    const written = (tables[0] ?? []).map((row) => `${row.Plugin} ${nameOf(row.Option ?? '')}`).sort()
    const declared = MODS.flatMap((mod) => fieldsOf(mod).map(([key]) => `${manifestOf(mod).name} ${key}`)).sort()
    expect(written, "README.md's Options table against each plugin.json's userConfig").toEqual(declared)
  })

  test("gives each option plugin.json's default", () => {
    for (const mod of MODS) {
      for (const [key, field] of fieldsOf(mod)) {
        const row = (tables[0] ?? []).find((r) => r.Plugin === manifestOf(mod).name && nameOf(r.Option ?? '') === key)
        expect(row?.Default ?? '', `README.md: the default of ${key}`).toMatch(new RegExp(`^${escapeRe(defaultSpellingOf(field))}(?:\\s|$)`))
      }
    }
  })
})

describe.each(MODS)("%s's README", (mod) => {
  const readme = `${mod}/README.md`
  const section = optionsSectionOf(textOf(readme))
  const fields = fieldsOf(mod)

  test('has an Options section', () => {
    expect(section, `${readme}: a "## Options" section`).toBeDefined()
  })

  if (fields.length === 0) {
    test('says it has no options, as plugin.json declares none', () => {
      expect(section ?? '', readme).toMatch(/^## Options\n\nNone\./)
      expect(optionTablesOf(section ?? '')).toEqual([])
    })
    return
  }

  const rows = optionTablesOf(section ?? '')[0] ?? []

  test("names plugin.json's options, and only those", () => {
    expect(rows.map((row) => nameOf(row.Option ?? '')).sort(), `${readme}'s Options table against plugin.json's userConfig`).toEqual(fields.map(([key]) => key).sort())
  })

  test.each(fields)("gives %s plugin.json's default, bounds and values", (key, field) => {
    const cell = rows.find((row) => nameOf(row.Option ?? '') === key)?.Default ?? ''
    expect(cell, `${readme}: the default of ${key}`).toMatch(new RegExp(`^${escapeRe(defaultSpellingOf(field))}(?:\\s|$)`))
    if (field.min !== undefined && field.max !== undefined) expect(cell, `${readme}: the bounds of ${key}`).toContain(`(${field.min}–${field.max})`)
    for (const value of field.options ?? []) expect(cell, `${readme}: the values of ${key}`).toContain(`\`${value}\``)
  })
})

describe("compact-handoff's resolution of its options (OPTION_SPECS)", () => {
  const fields = Object.fromEntries(fieldsOf('packages/compact-handoff'))

  test("names plugin.json's options, and only those", () => {
    expect(Object.keys(OPTION_SPECS).sort()).toEqual(Object.keys(fields).sort())
  })

  test.each(Object.entries(OPTION_SPECS))("reads %s as plugin.json declares it: its kind, default, bounds and values", (key, spec) => {
    const field = fields[key]
    switch (spec.kind) {
      case 'percent':
        expect(field).toMatchObject({ type: 'number', default: spec.default, min: spec.min, max: spec.max })
        break
      case 'choice':
        expect(field).toMatchObject({ type: 'string', default: spec.default, options: [...spec.values] })
        break
      case 'on-off':
        expect(field).toMatchObject({ type: 'boolean', default: spec.default })
        break
    }
  })
})

test("compact-handoff-answer's register takes no options, as its plugin.json declares none", () => {
  expect(fieldsOf('packages/compact-handoff-answer')).toEqual([])
  expect(textOf('packages/compact-handoff-answer/hooks/register.ts')).toMatch(/export const register: Register = \(on\) =>/)
})
