// The files built from the handoff spec are what it makes now (tests/harness/generated.ts),
// so a section changed in the spec reaches the eval graders, the format fixtures and the fork
// eval's inputs by `pnpm gen`, never by hand.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { HANDOFF_SECTIONS } from '../../packages/compact-handoff/hooks/protocol/handoff-spec.js'
import { generatedFilesOf, withNewSections } from '../harness/generated.js'
import { repoRoot } from '../harness/repo-root.js'

test('every generated file is up to date', () => {
  const stale = generatedFilesOf(repoRoot()).filter(({ path, text }) => readFileSync(join(repoRoot(), path), 'utf8') !== text).map((f) => f.path)
  expect(stale, 'run pnpm gen').toEqual([])
})

describe('a section new in the current shape, put into a fixture', () => {
  const doc = (sections: readonly string[], eol = '\n') => ['---', 'kind: handoff', '---', '', '# Handoff: x', '', ...sections.flatMap((s) => [`## ${s}`, 'text', ''])].join(eol)
  const without = (name: string) => HANDOFF_SECTIONS.filter((s) => s !== name)

  test('goes after the nearest earlier section the fixture holds, holding None', () => {
    expect(withNewSections(doc(without('Decisions')), ['Decisions'])).toBe(doc(without('Decisions')).replace('## Open questions', '## Decisions\nNone\n\n## Open questions'))
    expect(withNewSections(doc(without('Verify')), ['Verify'])).toBe(`${doc(without('Verify'))}## Verify\nNone\n\n`)
    expect(withNewSections(doc(without('Goal')), ['Goal'])).toBe(doc(without('Goal')).replace('## Constraints', '## Goal\nNone\n\n## Constraints'))
  })

  test('keeps the fixture\'s line endings, and leaves a fixture that holds it, or no section at all', () => {
    expect(withNewSections(doc(without('State'), '\r\n'), ['State'])).toBe(doc(without('State'), '\r\n').replace('## In progress', '## State\r\nNone\r\n\r\n## In progress'))
    expect(withNewSections(doc(HANDOFF_SECTIONS), ['State'])).toBe(doc(HANDOFF_SECTIONS))
    expect(withNewSections('# Plan\n\n## Phase 1\n', ['State'])).toBe('# Plan\n\n## Phase 1\n')
  })

  test('a heading inside a fence is no section: the new one goes after the real one before it', () => {
    const text = doc(without('State')).replace('## Constraints\ntext\n', '## Constraints\n```\n## In progress\n```\n')
    expect(withNewSections(text, ['State'])).toBe(text.replace('```\n\n## In progress', '```\n\n## State\nNone\n\n## In progress'))
  })
})
