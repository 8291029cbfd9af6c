// The status line has one owner: the engine draws one line per plugin, so a
// second `$.ui.status` caller would overwrite the first. The owner sits beneath
// those who tell it: it imports nothing of the mod outside its folder.
import { describe, expect, test } from 'vitest'
import { hooksModulesOf, importedPathOf } from '../support/hooks-tree.js'

const MOD = 'packages/compact-handoff'
const OWNER = 'status-line/status-line-steps.ts'
const STATUS_CALL_RE = /\.ui\s*\.\s*status\b/

describe("compact-handoff's status line", () => {
  const modules = hooksModulesOf(MOD)

  test(`is drawn only by ${OWNER}`, () => {
    expect(modules.filter((m) => STATUS_CALL_RE.test(m.text)).map((m) => m.path)).toEqual([OWNER])
  })

  test('its folder imports only from itself', () => {
    const outside = modules
      .filter((m) => m.path.startsWith('status-line/'))
      .flatMap((m) => m.specifiers.map((s) => importedPathOf(m.path, s)).filter((p) => p !== undefined && !p.startsWith('status-line/')).map((p) => `${m.path} → ${p}`))
    expect(outside).toEqual([])
  })
})
