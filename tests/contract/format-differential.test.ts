// A differential test of the mod's format check (hooks/format/handoff-format.ts, a
// hand-written scanner) against the Node validator (remark + zod), over
// handoffs and plans generated from a seed and mutated in the ways a model or
// a person slips (tests/support/format-variants.ts draws them; the mutations
// are listed in tests/support/format-mutations.ts).
//
// The mod may refuse more than the validator, never less: a file it accepts
// replaces the conversation. Where both define the rules a variant breaks, they
// report the same set of rules (tests/support/handoff-text.ts says which rules
// only one side has). Variants built only from forms meant to be
// accepted must pass both. FORMAT_SEED=<n> replays a failing seed.
import { describe, expect, test } from 'vitest'
import { formatDiagnostics } from '../../packages/compact-handoff/hooks/format/handoff-format.js'
import { validateHandoff } from '../../packages/handoff-tools/src/validate.js'
import { DOC_MUTATIONS, type Intent, PROJECT, TEXT_MUTATIONS } from '../support/format-mutations.js'
import { type Variant, variantOf } from '../support/format-variants.js'
import { comparableRules } from '../support/handoff-text.js'
import { randOf } from '../support/property.js'

const SEED = Number(process.env.FORMAT_SEED ?? 20_261_129)
const VARIANTS = 1_200
/** remark parses a variant in ~2-8 ms on a loaded 2-core machine. */
const VALIDATOR_TIMEOUT_MS = 120_000
const CONTEXT = { projectDir: PROJECT }

/** Each side's problems, one line each, and the rule sets to compare
 * (undefined where the mod reported a rule only it has). */
type Verdicts = { mod: string[]; validator: string[]; rules: { mod: string[]; validator: string[] } | undefined }

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
  }
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
  }
  return seen
}

describe(`format check vs validator over ${VARIANTS} variants (FORMAT_SEED=${SEED})`, () => {
  test('the mod accepts nothing the validator rejects, and reports the same rules where both define them', { timeout: VALIDATOR_TIMEOUT_MS }, () => {
    const seen = runVariants(SEED, VARIANTS, 'any', (_variant, verdicts) =>
      verdicts.mod.length === 0 && verdicts.validator.length > 0 ? 'the mod accepts what the validator rejects' : ruleMismatchOf(verdicts),
    )
    for (const { name } of [...DOC_MUTATIONS, ...TEXT_MUTATIONS]) expect(seen.get(name) ?? 0, `the mutation "${name}" was drawn`).toBeGreaterThan(0)
    expect(seen.get('mod accepts, validator accepts') ?? 0, 'some variants are good').toBeGreaterThan(VARIANTS / 10)
    expect(seen.get('mod refuses, validator refuses') ?? 0, 'some variants are broken').toBeGreaterThan(VARIANTS / 10)
    expect(seen.get('rules compared') ?? 0, 'some broken variants are compared rule by rule').toBeGreaterThan(VARIANTS / 10)
  })

  test('both accept every variant made only of forms a good file may take', { timeout: VALIDATOR_TIMEOUT_MS }, () => {
    runVariants(SEED + 1, VARIANTS / 2, 'keeps', (_variant, { mod, validator }) =>
      mod.length > 0 || validator.length > 0 ? 'a form meant to be accepted is refused' : undefined,
    )
  })
})
