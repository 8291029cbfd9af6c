// The skills' SKILL.md text against the protocol the mods implement: the
// literal examples the skills tell the model to print must parse with the
// mod's own parsers, the names and folders they tell it to write must be the
// ones the mod accepts, and the templates must carry the protocol's sections
// and keys. Both sides are read, never restated, so changing either alone fails.
import { SKILL_FILE_NAME_RE, formatContinuePrompt, parseSkillArgs } from '../../packages/compact-handoff/tests/support/skill-protocol.js'
import { readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { COMPACT_MODE_ARG, CONTINUE_PROMPT_HEADER, FAILED_PREFIX, formatSentinel, formatSkillArgs, NEW_CHAIN, SKILL_VALUE_KEYS, type SkillValues, parseContinuePrompt, parseSentinel, READY_PREFIX, SKILL_OF_MODE } from '../../packages/compact-handoff/hooks/protocol/protocol.js'
import type { Mode } from '../../packages/compact-handoff/hooks/protocol/protocol.js'
import { HANDOFF_FRONTMATTER_KEYS, PLAN_FRONTMATTER_KEYS, PLAN_SECTIONS } from '../../packages/compact-handoff/hooks/protocol/protocol-contents.js'
import { HANDOFF_SECTIONS } from '../../packages/compact-handoff/hooks/protocol/handoff-spec.js'
import { classifyHandoffPath, HANDOFF_DIRS, type FileKind } from '../../packages/compact-handoff/hooks/protocol/protocol-paths.js'
import { formatProblems } from '../../packages/compact-handoff/hooks/format/handoff-format.js'
import { SKILL_PACK_PLUGIN } from '../../packages/compact-handoff/hooks/run/skill-command.js'
import { createdValueOf } from '../../packages/compact-handoff/hooks/run/frontmatter-values.js'
import { EXACT_VALUES_RULE, HANDOFF_STATUSES, HANDOFF_WRITING_RULES, NO_PARENT } from '../../packages/compact-handoff/hooks/protocol/protocol-contents.js'
import { repairPromptOf } from '../../packages/compact-handoff/hooks/run/turn-verdict.js'
import { runFixture } from '../support/run-fixture.js'
import { forkPromptOf, forkRepairPromptOf } from '../../packages/compact-handoff/hooks/compaction/fork-prompt.js'
import { OUTLINE } from '../../packages/compact-handoff/hooks/compaction/summary-instructions.js'
import { parseMarkdown, plainTextOf, validateHandoff, validateSkill } from '../../packages/handoff-tools/src/validate.js'

const ROOT = join(import.meta.dirname, '..', '..')
const PROJECT = '/project'
const CONTEXT = { projectDir: PROJECT }

type Skill = { mode: Mode; name: string; text: string; blocks: { lang: string; value: string }[] }

function skillOf(mode: Mode): Skill {
  const name = SKILL_OF_MODE[mode]
  const text = readFileSync(join(ROOT, 'skills', name, 'SKILL.md'), 'utf8')
  const blocks: Skill['blocks'] = []
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return
    if ('type' in node && node.type === 'code' && 'value' in node) {
      blocks.push({ lang: 'lang' in node && typeof node.lang === 'string' ? node.lang : '', value: String(node.value) })
    }
    if ('children' in node && Array.isArray(node.children)) node.children.forEach(visit)
  }
  visit(parseMarkdown(text))
  return { mode, name, text, blocks }
}

const skills = (Object.keys(SKILL_OF_MODE) as Mode[]).map(skillOf)
/** What each skill's READY sentinel names, in order. */
const WRITES: Record<Mode, FileKind[]> = { handoff: ['handoff'], plan: ['handoff', 'plan'] }

function frontmatterOf(template: string): Map<string, string> {
  const lines = template.split('\n')
  const close = lines.indexOf('---', 1)
  return new Map(lines.slice(1, close).map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]))
}

function templateOf(skill: Skill, kind: FileKind): string {
  const template = skill.blocks.find((b) => b.lang === 'markdown' && frontmatterOf(b.value).get('kind') === kind)
  expect(template, `${skill.name} shows a ${kind} template`).toBeDefined()
  return template!.value
}

/** `text` with frontmatter key `key` set to `value`. */
function withField(text: string, key: string, value: string): string {
  return text.replace(new RegExp(`^${key}: .*$`, 'm'), `${key}: ${value}`)
}

/** A template's frontmatter as the skill fills it in compact mode: `created`,
 * `seq` and `parent` copied, `chain` too unless it is NEW_CHAIN. */
function filledIn(template: string, values: SkillValues): string {
  const copied = withField(withField(template, 'created', values.created), 'chain', values.chain === NEW_CHAIN ? frontmatterOf(template).get('chain')! : values.chain)
  return frontmatterOf(template).get('kind') === 'plan' ? copied : withField(withField(copied, 'seq', String(values.seq)), 'parent', values.parent)
}

/** Both checks' verdicts on a file: the mod's and the validator's problems. */
function verdictsOf(text: string, kind: FileKind) {
  return { mod: formatProblems(text, kind, CONTEXT).length === 0, validator: validateHandoff(text, kind, CONTEXT).length === 0 }
}

describe.each(skills)('skill $name', (skill) => {
  test('its SKILL.md passes the validator and names itself after its folder', () => {
    expect(validateSkill(skill.text, skill.name)).toEqual([])
    const fm = frontmatterOf(skill.text)
    expect(fm.get('name')).toBe(skill.name)
    expect(fm.get('user-invocable'), 'the person runs it from the / menu').toBe('true')
    expect(fm.get('argument-hint')).toContain(COMPACT_MODE_ARG)
    expect(fm.get('description'), 'the description says when to use it').toMatch(/\bUse it\b/)
  })

  test('it switches on the compact-mode argument the mod passes', () => {
    expect(skill.text).toContain(`If the arguments begin with \`${COMPACT_MODE_ARG}\``)
  })

  test('its compact-mode example is arguments the mod writes, and it names every value, what to copy and what to ignore', () => {
    const example = [...skill.text.matchAll(/`(compact-mode [^`]*)`/g)].map((m) => m[1]!)
    expect(example, 'one example of the arguments').toHaveLength(1)
    const parsed = parseSkillArgs(example[0]!)
    expect(parsed, 'the example parses as the mod\'s arguments').toBeDefined()
    expect(formatSkillArgs(parsed!.values, parsed!.focus), 'and is exactly what the mod writes').toBe(example[0])
    expect(parsed!.focus, 'with a focus after the values').not.toBe('')
    for (const key of SKILL_VALUE_KEYS) expect(skill.text, `the ${key} value`).toContain(`${key}=`)
    expect(skill.text).toMatch(/Copy `created`, `seq` and `parent` into the [^.]*frontmatter exactly as given, and `chain` too unless it is `new`/)
    expect(skill.text).toContain(`unless it is \`${NEW_CHAIN}\``)
    expect(skill.text).toContain('Ignore `run=`')
    expect(skill.text).toContain('The words after the values are the focus')
  })

  test.each(WRITES[skill.mode])('its %s template filled in with the example\'s values, or with a first handoff\'s, passes both checks', (kind) => {
    const example = parseSkillArgs(/`(compact-mode [^`]*)`/.exec(skill.text)![1]!)!.values
    const first: SkillValues = { run: 'r1', created: createdValueOf(Date.UTC(2026, 10, 29, 14, 5)), chain: NEW_CHAIN, seq: 1, parent: NO_PARENT }
    for (const values of [example, first]) {
      const file = filledIn(templateOf(skill, kind), values)
      expect(verdictsOf(file, kind), JSON.stringify(values)).toEqual({ mod: true, validator: true })
    }
  })

  test('it says what "the project" is, and that paths are relative to it', () => {
    expect(skill.text).toContain('"The project" is the folder this session runs in; every path you write or name is relative to it.')
    expect(skill.text).not.toMatch(/project root/i)
  })

  test('in normal mode it works out created itself, as a time in UTC or a date', () => {
    expect(skill.text).toContain('date -u +%Y-%m-%dT%H:%M:%SZ')
    expect(skill.text).toMatch(/today's date[^.]*if you cannot read a clock/)
  })

  test('its compact-mode ending parses with the mod\'s parsers', () => {
    const ending = skill.blocks.find((b) => b.value.startsWith(CONTINUE_PROMPT_HEADER))
    expect(ending, 'an example ending in a code block').toBeDefined()
    const lines = ending!.value.split('\n')
    const prompt = parseContinuePrompt(ending!.value)
    const sentinel = parseSentinel(ending!.value)
    expect(prompt).toBeDefined()
    expect(sentinel?.kind).toBe('ready')
    expect(formatSentinel(sentinel!), 'the sentinel is the last line, as the mod prints it').toBe(lines.at(-1))
    expect(ending!.value, 'the block is exactly what formatContinuePrompt makes, then the sentinel').toBe(`${formatContinuePrompt(prompt!)}\n${lines.at(-1)}`)

    const paths = sentinel!.kind === 'ready' ? sentinel!.paths : []
    expect(paths.map((p) => classifyHandoffPath(p, PROJECT)?.kind), 'each path is one the mod accepts').toEqual(WRITES[skill.mode])
    for (const path of paths) {
      expect(basename(path)).toMatch(SKILL_FILE_NAME_RE)
      expect(prompt, 'the continue-prompt names every file').toContain(path)
    }
    expect(prompt).toMatch(/already run[^.]*; do not run it/)
    expect(prompt).toMatch(/Verify/)
    expect(prompt).toMatch(/trust the repository/)
  })

  test('no sentinel line it shows holds a placeholder the model could copy', () => {
    expect(skill.text).not.toMatch(new RegExp(`^(?:${READY_PREFIX}|${FAILED_PREFIX}).*<`, 'm'))
  })

  test('its failure example parses as a FAILED sentinel', () => {
    const failed = skill.blocks.find((b) => b.value.startsWith(FAILED_PREFIX))
    expect(failed).toBeDefined()
    const sentinel = parseSentinel(failed!.value)
    expect(sentinel?.kind).toBe('failed')
    expect(formatSentinel(sentinel!)).toBe(failed!.value)
  })

  test('it describes the rule of dashes formatContinuePrompt draws', () => {
    const rule = formatContinuePrompt('x').split('\n')[1]!
    expect(skill.text).toContain(`the line \`${CONTINUE_PROMPT_HEADER}\`, a line of exactly ${rule.length} dashes`)
  })

  test('it writes into the handoff folders the mod watches, in the mod\'s order', () => {
    const folders = [...skill.text.matchAll(/^- `([^`]*handoffs)\/`/gm)].map((m) => m[1])
    expect(folders).toEqual([...HANDOFF_DIRS])
  })

  test('the file names it gives match the names the mod accepts', () => {
    const patterns = [...skill.text.matchAll(/`((?:HANDOFF|PLAN)_<slug>_<YYYY-MM-DD>\.md)`/g)].map((m) => m[1]!)
    const prefixes = patterns.map((p) => p.slice(0, p.indexOf('_')))
    expect(prefixes.sort()).toEqual(WRITES[skill.mode].map((k) => k.toUpperCase()).sort())
    for (const pattern of patterns) {
      const name = pattern.replace('<slug>', 'fix-login').replace('<YYYY-MM-DD>', '2026-11-29')
      expect(name).toMatch(SKILL_FILE_NAME_RE)
      expect(name.replace('.md', '_2.md'), 'the counter suffix').toMatch(SKILL_FILE_NAME_RE)
    }
    const examples = [...skill.text.matchAll(/\b(?:HANDOFF|PLAN)_[a-z0-9][\w.-]*\.md/g)].map((m) => m[0])
    expect(examples.length).toBeGreaterThan(0)
    for (const example of examples) expect(example).toMatch(SKILL_FILE_NAME_RE)
    expect(examples.some((e) => /_\d+\.md$/.test(e)), 'an example of the counter suffix').toBe(true)
  })

  test.each(WRITES[skill.mode])('its %s template has the protocol\'s frontmatter and sections and passes both checks', (kind) => {
    const template = templateOf(skill, kind)
    const keys = kind === 'plan' ? PLAN_FRONTMATTER_KEYS : HANDOFF_FRONTMATTER_KEYS
    expect([...frontmatterOf(template).keys()]).toEqual([...keys])
    const headings = parseMarkdown(template).children.flatMap((n) => (n.type === 'heading' && n.depth === 2 ? [plainTextOf(n)] : []))
    expect(headings).toEqual([...(kind === 'plan' ? PLAN_SECTIONS : HANDOFF_SECTIONS)])
    expect(validateHandoff(template, kind, CONTEXT)).toEqual([])
    expect(formatProblems(template, kind, CONTEXT)).toEqual([])
  })

  test('it gives the protocol\'s writing rules word for word, each its own bullet, as the fork and the summariser get them', () => {
    for (const rule of HANDOFF_WRITING_RULES) expect(skill.text.split('\n'), rule.slice(0, 40)).toContain(`- ${rule}`)
  })

  test('it names every handoff status and the first handoff\'s parent', () => {
    for (const status of HANDOFF_STATUSES) expect(skill.text).toContain(`\`${status}\``)
    expect(skill.text).toContain(`\`parent: ${NO_PARENT}\``)
  })
})

describe('the writing rules reach every writer of a handoff from their one definition', () => {
  const ask = { focus: '', isMidTurn: true }
  test.each([
    ['the fork', forkPromptOf(ask)],
    ['the repair fork', forkRepairPromptOf(ask, ['a problem'], '# Handoff: x')],
    ["the engine's summariser", OUTLINE],
  ])('%s is given each rule as a bullet', (_who, text) => {
    for (const rule of HANDOFF_WRITING_RULES) expect(text.split('\n')).toContain(`- ${rule}`)
  })

  test("the skill's repair turn is given the exact-values rule whole: a fix for size is where a model shortens", () => {
    const chosen = { handoff: { kind: 'handoff' as const, relPath: 'plans/handoffs/HANDOFF_x_2026-11-29.md' }, continuePrompt: 'Continue.', notices: [] }
    const repair = repairPromptOf(runFixture({ repairs: 1 }), chosen, [{ path: chosen.handoff.relPath, problems: ['a problem'] }])
    expect(repair).toContain(`keep to this rule: ${EXACT_VALUES_RULE}`)
  })

  test('the rules ask for what the next context cannot recover, the latest word and the conversation\'s language', () => {
    const [exact, latest, language] = HANDOFF_WRITING_RULES
    expect(exact).toBe(EXACT_VALUES_RULE)
    const kinds = ['identifiers', 'paths seen anywhere (in search and listing output too)', 'error texts with their codes', 'exit statuses of commands and of CI jobs', 'ids', 'hashes', 'counts', 'sizes', 'durations']
    for (const kind of kinds) expect(exact).toContain(kind)
    expect(exact).toContain('exactly as the conversation or its tool output showed it')
    expect(latest).toMatch(/latest message changes the task or the plan, it wins/)
    expect(language).toMatch(/language the conversation is in/)
  })

  // Writers read "where the next step depends on it" as leave to drop a value the next step
  // does not need yet (a path seen only in search output, a CI job's exit status); the rule
  // asks for every value, whoever writes the handoff.
  const writers: [string, string][] = [
    ['the rule', EXACT_VALUES_RULE],
    ['the fork', forkPromptOf({ focus: '', isMidTurn: false })],
    ['the repair fork', forkRepairPromptOf({ focus: '', isMidTurn: false }, ['a problem'], '# Handoff: x')],
    ["the engine's summariser", OUTLINE],
    ...skills.map((skill): [string, string] => [`skills/${skill.name}`, skill.text]),
  ]
  test.each(writers)('%s asks for every exact value the next context may need, on no condition', (_who, text) => {
    expect(text).toContain('every exact value the next context may need')
    expect(text).toContain('even where the next step does not need it yet')
    expect(text).not.toMatch(/where the next step depends/i)
  })
})

/** What a model writes for `parent` and `created`, and whether the protocol
 * takes it: the skills' forms and the lenient ones, and near misses. */
const PARENT_FORMS: readonly [string, boolean][] = [
  ['plans/handoffs/HANDOFF_fix-login-redirect_2026-11-28.md', true],
  ['./plans/handoffs/HANDOFF_fix-login-redirect_2026-11-28.md', true],
  [`${PROJECT}/plans/handoffs/HANDOFF_fix-login-redirect_2026-11-28.md`, true],
  [`${PROJECT}/.claude/handoffs/HANDOFF_fix-login-redirect_2026-11-28.md`, true],
  ['"./.claude/handoffs/HANDOFF_a_2026-11-28.md"', true],
  ['/elsewhere/plans/handoffs/HANDOFF_fix-login-redirect_2026-11-28.md', false],
  ['../project/plans/handoffs/HANDOFF_fix-login-redirect_2026-11-28.md', false],
  [`${PROJECT}/../project/plans/handoffs/HANDOFF_a.md`, false],
  ['plans/handoffs/../handoffs/HANDOFF_a.md', false],
  ['././plans/handoffs/HANDOFF_a.md', false],
  ['plans/handoffs/old/HANDOFF_a.md', false],
  ['plans/handoffs/PLAN_a.md', false],
  ['HANDOFF_a.md', false],
  ['None', false],
]
const CREATED_FORMS: readonly [string, boolean][] = [
  ['2026-11-29T14:05:00Z', true],
  ['2026-11-29', true],
  ['2026-11-29T14:05Z', true],
  ['2026-11-29 14:05:00', true],
  ['2026-11-29T14:05:00.250+01:00', true],
  ['2024-02-29T23:59:59-05:30', true],
  ['2026-02-29', false],
  ['2026-11-31T10:00:00Z', false],
  ['2026-11-29T24:00:00Z', false],
  ['2026-11-29T14:05:00+0100', false],
  ['2026-11-29t14:05:00z', false],
  ['29.11.2026', false],
]

describe('continuation forms: the mod\'s check and the validator agree', () => {
  const handoff = templateOf(skills.find((s) => s.mode === 'handoff')!, 'handoff')

  test('start from skills/handoff/SKILL.md\'s template, which passes both as it stands', () => {
    expect(verdictsOf(handoff, 'handoff'), 'skills/handoff/SKILL.md: its handoff template must hold the sections of protocol/handoff-spec.ts').toEqual({ mod: true, validator: true })
  })

  test.each(PARENT_FORMS)('parent: %s (taken: %s)', (parent, taken) => {
    const file = withField(withField(handoff, 'seq', '2'), 'parent', parent)
    expect(verdictsOf(file, 'handoff')).toEqual({ mod: taken, validator: taken })
  })

  test.each(CREATED_FORMS)('created: %s (taken: %s)', (created, taken) => {
    expect(verdictsOf(withField(handoff, 'created', created), 'handoff')).toEqual({ mod: taken, validator: taken })
  })

  test.each(['Next Step', 'NEXT STEP', 'next step:', 'Next step.', 'Next step :'])('a section heading written "## %s" counts as the section in both', (heading) => {
    expect(verdictsOf(handoff.replace('## Next step\n', `## ${heading}\n`), 'handoff')).toEqual({ mod: true, validator: true })
  })

  test('the created value the mod passes is one both take', () => {
    for (const ms of [0, Date.UTC(2026, 10, 29, 14, 5, 9, 999), Date.UTC(2024, 1, 29)]) {
      expect(verdictsOf(withField(handoff, 'created', createdValueOf(ms)), 'handoff')).toEqual({ mod: true, validator: true })
    }
  })
})

test('the plan template opens its phases with Phase 1, and handoffplan starts the next session there', () => {
  const plan = skills.find((s) => s.mode === 'plan')!
  expect(templateOf(plan, 'plan')).toMatch(/^### Phase 1: /m)
  const ending = plan.blocks.find((b) => b.value.startsWith(CONTINUE_PROMPT_HEADER))!
  expect(parseContinuePrompt(ending.value)).toMatch(/start Phase 1 of the plan/)
})

describe('the marketplace', () => {
  const read = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Record<string, unknown>
  const marketplace = read('.claude-plugin/marketplace.json') as { name: string; plugins: { name: string; source: string; version: string }[] }

  test.each(marketplace.plugins)('lists $name with a manifest that agrees', (entry) => {
    const manifest = read(join(entry.source, '.claude-plugin', 'plugin.json'))
    expect(manifest.name).toBe(entry.name)
    expect(manifest.version).toBe(entry.version)
    for (const field of ['name', 'version', 'description', 'author', 'license']) expect(manifest, field).toHaveProperty(field)
  })

  test('the skill pack declares each skill folder, one for each skill the mod runs, so the engine names them <pack>:<skill>', () => {
    const pack = marketplace.plugins.find((p) => p.source === './skills')!
    // One by one, not "./": the eval harness refuses a pack whose skills path is its root.
    expect(read('skills/.claude-plugin/plugin.json').skills).toEqual(Object.values(SKILL_OF_MODE).map((skill) => `./${skill}`))
    const compactHandoff = read('packages/compact-handoff/.claude-plugin/plugin.json')
    expect(compactHandoff.dependencies, 'installing compact-handoff brings the skills').toContain(pack.name)
    expect(pack.name, 'the mod looks its skills up under this plugin name first').toBe(SKILL_PACK_PLUGIN)
  })
})
