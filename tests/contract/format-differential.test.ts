// A differential test of the mod's format check (hooks/format/handoff-format.ts,
// which reads the body by the format's simple grammar in handoff-markdown.ts)
// against the Node validator (remark + zod), over handoffs and plans generated
// from a seed and mutated in the ways a model or a person slips
// (tests/support/format-variants.ts draws them; the mutations are listed in
// tests/support/format-mutations.ts).
//
// The invariant: for every variant, either the mod's reader refuses a line
// (a markdown-unclear or heading-unclear problem the repair prompt can act on),
// or the headings it reads, and what they name, equal remark's document-level
// headings: so where the mod accepts a file, its sections are the validator's.
// The mod may refuse more than the validator, never less: a file it accepts
// replaces the conversation. Where both define the rules a variant breaks, they
// report the same set of rules (tests/support/handoff-text.ts says which rules
// only one side has). Variants built only from forms meant to be accepted must
// pass both. FORMAT_SEED=<n> replays a failing seed; FORMAT_VARIANTS=<n> runs
// more variants.
import { describe, expect, test } from 'vitest'
import { readFrontmatterOf } from '../../packages/compact-handoff/hooks/format/frontmatter.js'
import { formatDiagnostics, readingOf } from '../../packages/compact-handoff/hooks/format/handoff-format.js'
import { bodyLinesOf, linesOf } from '../../packages/compact-handoff/hooks/format/handoff-markdown.js'
import { phaseNumberOf, sectionNameOf } from '../../packages/compact-handoff/hooks/protocol/protocol-contents.js'
import { parseMarkdown, plainTextOf, validateHandoff } from '../../packages/handoff-tools/src/validate.js'
import { DOC_MUTATIONS, type Intent, PROJECT, TEXT_MUTATIONS } from '../support/format-mutations.js'
import { type Variant, variantOf } from '../support/format-variants.js'
import { comparableRules } from '../support/handoff-text.js'
import { randOf } from '../support/property.js'

const SEED = Number(process.env.FORMAT_SEED ?? 20_261_129)
const VARIANTS = Number(process.env.FORMAT_VARIANTS ?? 1_200)
/** remark parses a variant in ~2-8 ms on a loaded 2-core machine; per 1,200 variants. */
const VALIDATOR_TIMEOUT_MS = 120_000
const CONTEXT = { projectDir: PROJECT }

/** The rules by which the mod's reader refuses a line the validator may read otherwise. */
const REFUSING_RULES = new Set(['markdown-unclear', 'heading-unclear'])

/** Each side's problems, one line each, the rule sets to compare (undefined
 * where the mod reported a rule only it has), whether the mod's reader refused
 * a line, and each side's headings to level 3 as `line depth name`. */
type Verdicts = {
  mod: string[]
  validator: string[]
  rules: { mod: string[]; validator: string[] } | undefined
  isRefused: boolean
  headings: { mod: string[]; validator: string[] }
}

/** What a heading names at its depth: a section at 2, a phase at 3. */
function nameOf(depth: number, text: string): string {
  return String(depth === 2 ? sectionNameOf(text) : depth === 3 ? phaseNumberOf(text) : '')
}

function modHeadingsOf(text: string): string[] {
  const { lines } = linesOf(text.replace(/^\uFEFF/, ''))
  const { body } = bodyLinesOf(lines, readFrontmatterOf(text).frontmatter?.bodyStart ?? 0)
  return body.flatMap((line) => {
    if (line.kind !== 'heading' || line.depth > 3) return []
    const reading = readingOf(line)
    return [`${line.line} ${line.depth} ${String(line.depth === 2 ? reading.section : line.depth === 3 ? reading.phase : '')}`]
  })
}

function validatorHeadingsOf(text: string): string[] {
  return parseMarkdown(text).children.flatMap((node) =>
    node.type === 'heading' && node.depth <= 3 ? [`${node.position?.start.line} ${node.depth} ${nameOf(node.depth, plainTextOf(node))}`] : [],
  )
}

function verdictsOf({ kind, text }: Variant): Verdicts {
  const mod = formatDiagnostics(text, kind, CONTEXT)
  const validator = validateHandoff(text, kind, CONTEXT)
  return {
    mod: mod.map((d) => `${d.line} ${d.message} [${d.rule}]`),
    validator: validator.map((d) => `${d.line}:${d.column} ${d.reason} [${d.ruleId}]`),
    rules: comparableRules(
      mod.map((d) => d.rule),
      validator.map((d) => d.ruleId),
    ),
    isRefused: mod.some((d) => REFUSING_RULES.has(d.rule)),
    headings: { mod: modHeadingsOf(text), validator: validatorHeadingsOf(text) },
  }
}

/** Unless the mod's reader refused a line, it reads the headings remark reads. */
function headingMismatchOf({ isRefused, headings }: Verdicts): string | undefined {
  if (isRefused || headings.mod.join('|') === headings.validator.join('|')) return undefined
  return `the mod read headings ${JSON.stringify(headings.mod)} where remark reads ${JSON.stringify(headings.validator)}, and refused nothing`
}

/** Where both sides define the rules found, they found the same ones. */
function ruleMismatchOf({ rules }: Verdicts): string | undefined {
  if (rules === undefined || rules.mod.join() === rules.validator.join()) return undefined
  return `the two sides report different rules: mod ${rules.mod.join(', ')}; validator ${rules.validator.join(', ')}`
}

function failureOf(seed: number, run: number, variant: Variant, verdicts: Verdicts, what: string): string {
  return [
    `${what} (FORMAT_SEED=${seed}, run ${run}, a ${variant.kind}, mutations: ${variant.mutations.join(', ')})`,
    `mod: ${JSON.stringify(verdicts.mod)}`,
    `validator: ${JSON.stringify(verdicts.validator)}`,
    `headings: mod ${JSON.stringify(verdicts.headings.mod)}; remark ${JSON.stringify(verdicts.headings.validator)}`,
    `text: ${JSON.stringify(variant.text.slice(0, 4000))}`,
  ].join('\n')
}

/** Runs `count` variants of `intent` from `seed`; returns them with their verdicts. */
function runVariants(seed: number, count: number, intent: Intent, check: (variant: Variant, verdicts: Verdicts) => string | undefined): Map<string, number> {
  const rand = randOf(seed)
  const seen = new Map<string, number>()
  for (let run = 0; run < count; run++) {
    const variant = variantOf(rand, intent)
    const verdicts = verdictsOf(variant)
    const failure = check(variant, verdicts)
    if (failure !== undefined) expect.fail(failureOf(seed, run, variant, verdicts, failure))
    for (const name of variant.mutations) seen.set(name, (seen.get(name) ?? 0) + 1)
    const outcome = `${verdicts.mod.length === 0 ? 'mod accepts' : 'mod refuses'}, ${verdicts.validator.length === 0 ? 'validator accepts' : 'validator refuses'}`
    seen.set(outcome, (seen.get(outcome) ?? 0) + 1)
    if (verdicts.rules !== undefined && verdicts.validator.length > 0) seen.set('rules compared', (seen.get('rules compared') ?? 0) + 1)
    if (verdicts.isRefused) seen.set('refused', (seen.get('refused') ?? 0) + 1)
  }
  return seen
}

describe(`format check vs validator over ${VARIANTS} variants (FORMAT_SEED=${SEED})`, () => {
  test('the mod refuses, or reads the headings remark reads; it accepts nothing the validator rejects, and reports the same rules where both define them', { timeout: VALIDATOR_TIMEOUT_MS * (VARIANTS / 1_200) }, () => {
    const seen = runVariants(SEED, VARIANTS, 'any', (_variant, verdicts) =>
      verdicts.mod.length === 0 && verdicts.validator.length > 0 ? 'the mod accepts what the validator rejects' : (headingMismatchOf(verdicts) ?? ruleMismatchOf(verdicts)),
    )
    for (const { name } of [...DOC_MUTATIONS, ...TEXT_MUTATIONS]) expect(seen.get(name) ?? 0, `the mutation "${name}" was drawn`).toBeGreaterThan(0)
    expect(seen.get('mod accepts, validator accepts') ?? 0, 'some variants are good').toBeGreaterThan(VARIANTS / 10)
    expect(seen.get('mod refuses, validator refuses') ?? 0, 'some variants are broken').toBeGreaterThan(VARIANTS / 10)
    expect(seen.get('rules compared') ?? 0, 'some broken variants are compared rule by rule').toBeGreaterThan(VARIANTS / 10)
    expect(VARIANTS - (seen.get('refused') ?? 0), 'most variants have their headings compared').toBeGreaterThan(VARIANTS / 2)
  })

  test('both accept every variant made only of forms a good file may take', { timeout: VALIDATOR_TIMEOUT_MS * (VARIANTS / 1_200) }, () => {
    runVariants(SEED + 1, VARIANTS / 2, 'keeps', (_variant, { mod, validator }) =>
      mod.length > 0 || validator.length > 0 ? 'a form meant to be accepted is refused' : undefined,
    )
  })
})
