// The flat frontmatter reader: it must hand the validator each field with its
// line, and name what it cannot read with the rule the validator reports.
import { describe, expect, test } from 'vitest'
import { readFrontmatterOf } from '../../../packages/compact-handoff/hooks/format/frontmatter.js'

describe('readFrontmatterOf', () => {
  test('the one-line fields, the line each key is on, and where the body starts', () => {
    const { frontmatter, problems } = readFrontmatterOf('\uFEFF---\nkind: handoff\nfocus: "a: b"\n---\n# Title\n')
    expect(problems).toEqual([])
    expect(frontmatter?.fields).toEqual(new Map([['kind', 'handoff'], ['focus', 'a: b']]))
    expect(frontmatter?.keyLines.get('focus')).toBe(3)
    expect(frontmatter?.bodyStart).toBe(4)
  })

  test('what it cannot read, as problems with the validator\'s rule names where it has them', () => {
    expect(readFrontmatterOf('# no frontmatter\n').problems.map((p) => p.rule)).toEqual(['frontmatter-missing'])
    expect(readFrontmatterOf('---\nkind: handoff\n').problems.map((p) => p.rule)).toEqual(['frontmatter-missing'])
    const { problems } = readFrontmatterOf('---\nkind: handoff\nkind: plan\nfocus: [a, b]\n---\n')
    expect(problems).toEqual([
      { rule: 'frontmatter-yaml', line: 3, message: expect.stringMatching(/"kind" appears twice/) },
      { rule: 'frontmatter-unread', line: 4, message: expect.stringMatching(/not a "key: value" pair/) },
    ])
  })
})
