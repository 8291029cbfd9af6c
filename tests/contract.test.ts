// The skills' SKILL.md text against the protocol the mods implement: the
// literal examples the skills tell the model to print must parse with the
// mod's own parsers, the names and folders they tell it to write must be the
// ones the mod accepts, and the templates must carry the protocol's sections
// and keys. Both sides are read, never restated, so changing either alone fails.
import { readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  classifyHandoffPath,
  COMPACT_MODE_ARG,
  CONTINUE_PROMPT_HEADER,
  FAILED_PREFIX,
  formatContinuePrompt,
  formatSentinel,
  HANDOFF_DIRS,
  HANDOFF_FRONTMATTER_KEYS,
  HANDOFF_SECTIONS,
  parseContinuePrompt,
  parseSentinel,
  PLAN_FRONTMATTER_KEYS,
  PLAN_SECTIONS,
  READY_PREFIX,
  SKILL_FILE_NAME_RE,
  SKILL_OF_MODE,
  type FileKind,
  type Mode,
} from '../packages/compact-handoff/hooks/protocol.js'
import { formatProblems } from '../packages/compact-handoff/hooks/handoff-format.js'
import { SKILL_PACK_PLUGIN } from '../packages/compact-handoff/hooks/skill-command.js'
import { HANDOFF_STATUSES, NO_PARENT } from '../packages/compact-handoff/hooks/protocol.js'
import { parseMarkdown, textOf, validateHandoff, validateSkill } from '../packages/handoff-tools/src/validate.js'

const ROOT = join(import.meta.dirname, '..')
const PROJECT = '/project'

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
const WRITES: Record<Mode, FileKind[]> = { resume: ['handoff'], plan: ['handoff', 'plan'] }

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
    const headings = parseMarkdown(template).children.flatMap((n) => (n.type === 'heading' && n.depth === 2 ? [textOf(n)] : []))
    expect(headings).toEqual([...(kind === 'plan' ? PLAN_SECTIONS : HANDOFF_SECTIONS)])
    expect(validateHandoff(template, kind, { projectDir: PROJECT })).toEqual([])
    expect(formatProblems(template, kind, { projectDir: PROJECT })).toEqual([])
  })

  test('it names every handoff status and the first handoff\'s parent', () => {
    for (const status of HANDOFF_STATUSES) expect(skill.text).toContain(`\`${status}\``)
    expect(skill.text).toContain(`\`parent: ${NO_PARENT}\``)
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

  test('the skill pack lists its skills from its root, so the engine names them <pack>:<skill>', () => {
    const pack = marketplace.plugins.find((p) => p.source === './skills')!
    expect(read('skills/.claude-plugin/plugin.json').skills).toEqual(['./'])
    const compactHandoff = read('packages/compact-handoff/.claude-plugin/plugin.json')
    expect(compactHandoff.dependencies, 'installing compact-handoff brings the skills').toContain(pack.name)
    expect(pack.name, 'the mod looks its skills up under this plugin name first').toBe(SKILL_PACK_PLUGIN)
  })
})
