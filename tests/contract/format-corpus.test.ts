// Holds the mod's line-scanning format check (hooks/format/handoff-format.ts) to the
// remark + zod validator over tests/fixtures/handoffs/<case>/, plus variants
// made here: each case's verdict must match, and the mod must never accept a
// file the validator rejects. UPDATE=1 rewrites expected.json from the validator.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { formatDiagnostics, formatProblems } from '../../packages/compact-handoff/hooks/format/handoff-format.js'
import { MAX_HANDOFF_BYTES } from '../../packages/compact-handoff/hooks/protocol/protocol-contents.js'
import { PLAN_SECTIONS, sectionNameOf } from '../../packages/compact-handoff/hooks/protocol/protocol-contents.js'
import { HANDOFF_SECTIONS } from '../../packages/compact-handoff/hooks/protocol/handoff-spec.js'
import type { FileKind } from '../../packages/compact-handoff/hooks/protocol/protocol-paths.js'
import { validateHandoff } from '../../packages/handoff-tools/src/validate.js'
import { comparableRules } from '../support/handoff-text.js'

const CORPUS = join(import.meta.dirname, '..', 'fixtures', 'handoffs')
/** The project the fixtures' parent paths are read against. */
const CONTEXT = { projectDir: '/srv/app' }

type Expected = { kind: FileKind; verdict: 'ok' | 'bad'; rules?: string[] }
type Case = { name: string; text: string; expected: Expected }

const cases: Case[] = readdirSync(CORPUS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map(({ name }) => ({
    name,
    text: readFileSync(join(CORPUS, name, 'input.md'), 'utf8'),
    expected: JSON.parse(readFileSync(join(CORPUS, name, 'expected.json'), 'utf8')) as Expected,
  }))

const verdictOf = (problems: readonly unknown[]) => (problems.length === 0 ? 'ok' : 'bad')

function judge(text: string, kind: FileKind) {
  const diagnostics = validateHandoff(text, kind, CONTEXT)
  const mod = formatProblems(text, kind, CONTEXT)
  return { diagnostics, mod, validator: verdictOf(diagnostics), modVerdict: verdictOf(mod) }
}

/** The mod may be stricter than the validator, never laxer: a file it accepts replaces a conversation. */
function expectModNoLaxer(text: string, kind: FileKind, label: string) {
  const { diagnostics, mod } = judge(text, kind)
  if (mod.length === 0) expect(diagnostics, `${label}: the mod accepts what the validator rejects`).toEqual([])
  expectSameRules(text, kind, label)
}

/** Where both sides define the rules they report, they report the same ones
 * (tests/support/handoff-text.ts says which rules only one side has). */
function expectSameRules(text: string, kind: FileKind, label: string) {
  const mod = formatDiagnostics(text, kind, CONTEXT)
  const validator = validateHandoff(text, kind, CONTEXT)
  const rules = comparableRules(
    mod.map((d) => d.rule),
    validator.map((d) => d.ruleId),
  )
  if (rules) expect(rules.mod, `${label}: the mod's rules\n${JSON.stringify({ mod, validator }, null, 1)}`).toEqual(rules.validator)
}

test('the corpus has good and bad cases of both kinds', () => {
  const kinds = new Set(cases.map((c) => `${c.expected.kind}:${c.expected.verdict}`))
  expect([...kinds].sort()).toEqual(['handoff:bad', 'handoff:ok', 'plan:bad', 'plan:ok'])
})

describe.each(cases)('fixture $name', ({ name, text, expected }) => {
  if (process.env.UPDATE) {
    const diagnostics = validateHandoff(text, expected.kind, CONTEXT)
    const rules = [...new Set(diagnostics.map((d) => d.ruleId))]
    const next: Expected = { kind: expected.kind, verdict: verdictOf(diagnostics), ...(rules.length > 0 ? { rules } : {}) }
    writeFileSync(join(CORPUS, name, 'expected.json'), `${JSON.stringify(next)}\n`)
  }

  test('the validator gives the expected verdict and rules', () => {
    const { diagnostics, validator } = judge(text, expected.kind)
    expect(validator, JSON.stringify(diagnostics, null, 1)).toBe(expected.verdict)
    const rules = new Set(diagnostics.map((d) => d.ruleId))
    for (const rule of expected.rules ?? []) expect(rules, `expected a ${rule} diagnostic`).toContain(rule)
  })

  test('the mod gives the same verdict', () => {
    const { mod, modVerdict } = judge(text, expected.kind)
    expect(modVerdict, mod.join('\n')).toBe(expected.verdict)
  })

  test('the mod accepts nothing the validator rejects, and reports the same rules', () => {
    expectModNoLaxer(text, expected.kind, name)
  })
})

const good = cases.filter((c) => c.expected.verdict === 'ok')

describe('variants of every good fixture', () => {
  test.each(good)('$name stays good with CRLF line ends and a BOM', ({ text, expected }) => {
    const variant = `\uFEFF${text.replace(/^\uFEFF/, '').replace(/\r?\n/g, '\r\n')}`
    const { diagnostics, mod } = judge(variant, expected.kind)
    expect(diagnostics).toEqual([])
    expect(mod).toEqual([])
  })

  test.each(good)('$name is refused by both when any one section is removed or emptied', ({ name, text, expected }) => {
    const sections: readonly string[] = expected.kind === 'plan' ? PLAN_SECTIONS : HANDOFF_SECTIONS
    const lines = text.split(/\r?\n/)
    for (const section of sections) {
      const start = lines.findIndex((l) => l.startsWith('## ') && sectionNameOf(l.slice(3)) === section)
      expect(start, `${name} has a "## ${section}" heading`).toBeGreaterThanOrEqual(0)
      const end = lines.findIndex((l, i) => i > start && /^#{1,2} /.test(l))
      const stop = end < 0 ? lines.length : end
      const removed = [...lines.slice(0, start), ...lines.slice(stop)].join('\n')
      const emptied = [...lines.slice(0, start + 1), '', ...lines.slice(stop)].join('\n')
      for (const [how, variant] of [['removed', removed], ['emptied', emptied]] as const) {
        const { validator, modVerdict } = judge(variant, expected.kind)
        expect(validator, `${name}: ${section} ${how}`).toBe('bad')
        expect(modVerdict, `${name}: ${section} ${how}`).toBe('bad')
        expectSameRules(variant, expected.kind, `${name}: ${section} ${how}`)
      }
    }
  })

  test.each(good)('$name is refused as the other kind', ({ name, text, expected }) => {
    const other: FileKind = expected.kind === 'plan' ? 'handoff' : 'plan'
    expect(judge(text, other).modVerdict).toBe('bad')
    expectModNoLaxer(text, other, `${name} as ${other}`)
  })
})

test('a file over the size cap is refused by both, without parsing it', () => {
  const base = cases.find((c) => c.name === 'handoff')!.text
  const padding = `${'- a line of padding that keeps the file growing\n'.repeat(Math.ceil(MAX_HANDOFF_BYTES / 48))}`
  const huge = base.replace('## Verify\n', `## Verify\n${padding}`)
  const { diagnostics, mod } = judge(huge, 'handoff')
  expect(diagnostics.map((d) => d.ruleId)).toEqual(['file-too-large'])
  expect(mod).toHaveLength(1)
  expect(mod[0]).toMatch(/over the 262144-byte cap/)
})

test('multi-byte text is measured in UTF-8 bytes, as on disk', () => {
  const base = cases.find((c) => c.name === 'handoff')!.text
  const justOver = base.replace('## Verify\n', `## Verify\n${'é'.repeat(Math.ceil((MAX_HANDOFF_BYTES - base.length) / 2) + 1)}\n`)
  expect(Buffer.byteLength(justOver)).toBeGreaterThan(MAX_HANDOFF_BYTES)
  expect(justOver.length).toBeLessThan(MAX_HANDOFF_BYTES)
  expect(judge(justOver, 'handoff').modVerdict).toBe('bad')
})

test('a problem quotes a long value cut short, never between the halves of a surrogate pair', () => {
  const base = cases.find((c) => c.name === 'handoff')!.text
  for (const pad of [78, 79, 80]) {
    const status = `${'s'.repeat(pad)}${'🙂'.repeat(40)}`
    const problems = formatProblems(base.replace('status: in-progress', `status: ${status}`), 'handoff', CONTEXT)
    const quoted = problems.find((p) => p.startsWith('"status: '))
    expect(quoted, 'the status problem').toBeDefined()
    expect(quoted!.length, 'cut short').toBeLessThan(200)
    expect(quoted).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/)
  }
})
