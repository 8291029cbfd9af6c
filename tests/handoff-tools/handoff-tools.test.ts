// The Node validator's own behaviour: diagnostics as data with positions, every
// problem reported in one pass, the schemas' keys pinned to the protocol, and
// the handoff-check CLI's output and exit code.
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { HANDOFF_FRONTMATTER_KEYS, PLAN_FRONTMATTER_KEYS } from '../../packages/compact-handoff/hooks/protocol/protocol-contents.js'
import { HANDOFF_SECTIONS } from '../../packages/compact-handoff/hooks/protocol/handoff-spec.js'
import { runCli } from '../../packages/handoff-tools/src/cli.js'
import { handoffFrontmatterSchema, planFrontmatterSchema, skillFrontmatterSchema } from '../../packages/handoff-tools/src/schemas.js'
import * as validate from '../../packages/handoff-tools/src/validate.js'

const CORPUS = join(import.meta.dirname, '..', 'fixtures', 'handoffs')
const fixture = (name: string) => join(CORPUS, name, 'input.md')
const good = readFileSync(fixture('handoff'), 'utf8')
const CONTEXT = { projectDir: '/srv/app' }

test('the validator exports exactly its public functions', () => {
  expect(Object.keys(validate).sort()).toEqual(['parseMarkdown', 'plainTextOf', 'validateHandoff', 'validateSkill'])
})

describe('schemas', () => {
  test('handoff and plan schemas hold exactly the protocol\'s frontmatter keys', () => {
    expect(Object.keys(handoffFrontmatterSchema(CONTEXT).shape)).toEqual([...HANDOFF_FRONTMATTER_KEYS])
    expect(Object.keys(planFrontmatterSchema.shape)).toEqual([...PLAN_FRONTMATTER_KEYS])
  })

  test('a skill frontmatter with an unknown or misspelt key is refused', () => {
    const result = skillFrontmatterSchema.safeParse({ description: 'd', user_invocable: true })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.code).toBe('unrecognized_keys')
  })

  test('a skill frontmatter takes tool lists as a string or a list, and agent only with a fork', () => {
    expect(skillFrontmatterSchema.safeParse({ description: 'd', 'allowed-tools': ['Read', 'Bash(git status:*)'] }).success).toBe(true)
    expect(skillFrontmatterSchema.safeParse({ description: 'd', 'allowed-tools': 'Read, Grep' }).success).toBe(true)
    expect(skillFrontmatterSchema.safeParse({ description: 'd', agent: 'Explore' }).success).toBe(false)
    expect(skillFrontmatterSchema.safeParse({ description: 'd', context: 'fork', agent: 'Explore' }).success).toBe(true)
  })

  test('a handoff frontmatter gives a typed seq', () => {
    const parsed = handoffFrontmatterSchema(CONTEXT).parse({
      kind: 'handoff', created: '2026-11-29T14:05:00Z', status: 'done', chain: 'HANDOFF_a-b_2026-11-29', seq: '2',
      parent: '.claude/handoffs/HANDOFF_a-b_2026-11-29.md', focus: 'none',
    })
    expect(parsed.seq).toBe(2)
  })
})

describe('validateHandoff', () => {
  test('reports every problem at once, each with its position', () => {
    const text = good.replace('status: in-progress', 'status: paused').replace('## Decisions\n', '## Choices\n').replace(/## Next step\n[^#]*/, '## Next step\n\n')
    const diagnostics = validate.validateHandoff(text, 'handoff', CONTEXT)
    expect(diagnostics.map((d) => d.ruleId).sort()).toEqual(['frontmatter-field', 'section-empty', 'section-missing'])
    const status = diagnostics.find((d) => d.ruleId === 'frontmatter-field')!
    expect({ line: status.line, column: status.column }).toEqual({ line: 4, column: 1 })
    const empty = diagnostics.find((d) => d.ruleId === 'section-empty')!
    expect(text.split('\n')[empty.line - 1]).toBe('## Next step')
    expect(empty.reason).toContain('"## Next step"')
  })

  test('never throws, whatever the input', () => {
    for (const text of ['', '---', '---\n---', '\uFEFF', '---\n: : :\n---\n# x', '```\n## Goal']) {
      expect(() => validate.validateHandoff(text, 'plan', CONTEXT)).not.toThrow()
      expect(validate.validateHandoff(text, 'plan', CONTEXT).length).toBeGreaterThan(0)
    }
  })
})

describe('validateSkill', () => {
  test('refuses a skill whose name differs from its folder', () => {
    const text = '---\nname: handoff\ndescription: writes a handoff\n---\n\nBody.\n'
    expect(validate.validateSkill(text, 'other').map((d) => d.ruleId)).toEqual(['skill-name'])
  })

  test('refuses a skill with no description, placing the problem on the frontmatter', () => {
    const diagnostics = validate.validateSkill('---\nname: x\n---\n\nBody.\n', 'x')
    expect(diagnostics).toEqual([expect.objectContaining({ ruleId: 'skill-frontmatter', line: 1 })])
  })
})

describe('handoff-check', () => {
  test('exits 0 and prints nothing for good files', async () => {
    const result = await runCli([fixture('handoff'), fixture('plan'), join(import.meta.dirname, '..', '..', 'skills', 'handoff', 'SKILL.md')])
    expect(result).toEqual({ lines: [], exitCode: 0 })
  })

  test('exits 1 with one file:line:column line per problem', async () => {
    const result = await runCli([fixture('handoff'), fixture('empty-section')])
    expect(result.exitCode).toBe(1)
    expect(result.lines).toHaveLength(1)
    expect(result.lines[0]).toMatch(/empty-section\/input\.md:26:1: section "## In progress" is empty.* \[section-empty\]$/)
  })

  test('takes the kind from a HANDOFF_/PLAN_ file name before the frontmatter', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'handoff-check-'))
    const named = join(dir, 'HANDOFF_fix-login-redirect_2026-11-29.md')
    await writeFile(named, readFileSync(fixture('wrong-kind'), 'utf8'))
    const result = await runCli([named])
    await rm(dir, { recursive: true })
    expect(result.lines).toEqual([`${named}:2:1: "kind" must be "handoff" in a handoff file [kind-mismatch]`])
  })

  test('judges any other file by the kind its frontmatter claims, read as the mod reads it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'handoff-check-'))
    const plain = join(dir, 'notes.md')
    const quoted = join(dir, 'quoted.md')
    const plan = readFileSync(fixture('plan'), 'utf8')
    await writeFile(plain, plan)
    await writeFile(quoted, plan.replace(/^kind: plan$/m, "kind: 'plan'"))
    const result = await runCli([plain, quoted])
    await rm(dir, { recursive: true })
    expect(result).toEqual({ lines: [], exitCode: 0 })
  })

  test('reads an absolute parent against the folder it runs from, or the one --project names', async () => {
    const project = await mkdtemp(join(tmpdir(), 'handoff-check-project-'))
    const file = join(CORPUS, 'continuation', 'input.md')
    const text = readFileSync(file, 'utf8').replace(/^parent: (.*)$/m, `parent: ${project}/$1`)
    const named = join(project, 'HANDOFF_fix-login-redirect_2026-11-30.md')
    await writeFile(named, text)
    const fromHere = await runCli([named])
    const withProject = await runCli(['--project', project, named])
    const withEquals = await runCli([`--project=${project}`, named])
    await rm(project, { recursive: true })
    expect(fromHere.lines, 'the tests run from the repository, not the project').toEqual([expect.stringMatching(/"parent" must be "none" or the path of a handoff/)])
    expect(withProject).toEqual({ lines: [], exitCode: 0 })
    expect(withEquals).toEqual({ lines: [], exitCode: 0 })
    expect(await runCli(['--project'])).toEqual({ lines: ['usage: handoff-check [--project <dir>] [--json] <file>…'], exitCode: 1 })
  })

  test('exits 1 on a missing file, an unknown kind, or no arguments', async () => {
    expect((await runCli([join(CORPUS, 'absent.md')])).lines[0]).toMatch(/cannot read: ENOENT \[read-failed\]$/)
    expect((await runCli([join(import.meta.dirname, '..', '..', 'package.json')])).lines[0]).toMatch(/\[unknown-kind\]$/)
    expect(await runCli([])).toEqual({ lines: ['usage: handoff-check [--project <dir>] [--json] <file>…'], exitCode: 1 })
  })
})

/** The shape `handoff-check --json` prints: what a tool reads to resume. */
const problemSchema = z.strictObject({ rule: z.string().min(1), line: z.number().int().positive(), message: z.string().min(1) })
const summarySchema = z.strictObject({
  file: z.string(),
  kind: z.enum(['handoff', 'plan', 'skill']).nullable(),
  frontmatter: z.record(z.string(), z.unknown()).nullable(),
  title: z.string().nullable(),
  sections: z.array(z.strictObject({ heading: z.string(), text: z.string() })),
  nextStep: z.string().nullable(),
  files: z.array(z.string()),
  verify: z.array(z.string()),
  problems: z.array(problemSchema),
})
const jsonOutputSchema = z.strictObject({ files: z.array(summarySchema) })

async function jsonOf(args: string[]) {
  const result = await runCli(['--json', ...args])
  expect(result.lines).toHaveLength(1)
  return { exitCode: result.exitCode, output: jsonOutputSchema.parse(JSON.parse(result.lines[0]!)) }
}

describe('handoff-check --json', () => {
  test('a good handoff: its frontmatter, title, sections, next step, files and verify commands, no problems', async () => {
    const { exitCode, output } = await jsonOf([fixture('handoff')])
    expect(exitCode).toBe(0)
    const [summary] = output.files
    expect(summary).toMatchObject({ kind: 'handoff', title: 'Handoff: fix the login redirect loop', problems: [] })
    expect(summary!.frontmatter).toMatchObject({ kind: 'handoff', seq: '1', parent: 'none' })
    expect(summary!.sections.map((s) => s.heading)).toEqual([...HANDOFF_SECTIONS])
    expect(summary!.nextStep).toMatch(/^Add a test in tests\/auth\/redirect\.test\.ts/)
    expect(summary!.files).toEqual(expect.arrayContaining(['src/auth/guard.ts', 'src/auth/login.ts', 'tests/auth/login.test.ts']))
    expect(summary!.verify).toEqual(['git log -1 --format=%s', 'git status --short', 'grep -n "returnTo" src/auth/login.ts'])
  })

  test('a bad file: its problems as { rule, line, message }, exit 1; an unreadable one has only its problem', async () => {
    const { exitCode, output } = await jsonOf([fixture('empty-section'), join(CORPUS, 'absent.md')])
    expect(exitCode).toBe(1)
    const [bad, absent] = output.files
    expect(bad!.problems).toEqual([{ rule: 'section-empty', line: 26, message: expect.stringMatching(/"## In progress" is empty/) }])
    expect(bad!.sections.length).toBeGreaterThan(0)
    expect(absent).toMatchObject({ kind: null, sections: [], problems: [{ rule: 'read-failed' }] })
  })
})
