// Finding the handoff skill's command among the listed commands, the values it
// is told to copy, and what is submitted when it cannot be run directly.
import { describe, expect, test } from 'vitest'
import { COMPACT_MODE_ARG, formatSkillArgs, parseSkillArgs } from '../../packages/compact-handoff/hooks/protocol.js'
import { skillCommandOf, skillFallbackPromptOf, skillValuesOf, type ListedCommand } from '../../packages/compact-handoff/hooks/skill-command.js'

const OURS_RESUME: ListedCommand = { name: 'compact-handoff-skills:handoff', source: 'plugin', plugin: 'compact-handoff-skills' }
const OURS_PLAN: ListedCommand = { name: 'compact-handoff-skills:handoffplan', source: 'plugin', plugin: 'compact-handoff-skills' }
const OTHER_RESUME: ListedCommand = { name: 'team-pack:handoff', source: 'plugin', plugin: 'team-pack' }
const OTHER_PLAN: ListedCommand = { name: 'team-pack:handoffplan', source: 'plugin', plugin: 'team-pack' }
const BARE_RESUME: ListedCommand = { name: 'handoff', source: 'user' }
const BARE_PLAN: ListedCommand = { name: 'handoffplan', source: 'project' }
const MOD_COMMANDS: ListedCommand[] = [
  { name: 'compact-handoff', source: 'plugin', plugin: 'compact-handoff' },
  { name: 'compact-handoffplan', source: 'plugin', plugin: 'compact-handoff' },
]

describe('skillCommandOf', () => {
  test('prefers the skill pack of this repository over any other, wherever it is listed', () => {
    expect(skillCommandOf([BARE_RESUME, OTHER_RESUME, OURS_RESUME], 'handoff')).toBe('compact-handoff-skills:handoff')
    expect(skillCommandOf([OURS_PLAN, BARE_PLAN, OTHER_PLAN], 'plan')).toBe('compact-handoff-skills:handoffplan')
  })

  test("takes another plugin's skill when the pack is not installed", () => {
    expect(skillCommandOf([BARE_RESUME, OTHER_RESUME], 'handoff')).toBe('team-pack:handoff')
    expect(skillCommandOf([BARE_PLAN, OTHER_PLAN], 'plan')).toBe('team-pack:handoffplan')
  })

  test('falls back to a bare skill', () => {
    expect(skillCommandOf([...MOD_COMMANDS, BARE_RESUME], 'handoff')).toBe('handoff')
    expect(skillCommandOf([...MOD_COMMANDS, BARE_PLAN], 'plan')).toBe('handoffplan')
  })

  test("never takes the other mode's skill", () => {
    expect(skillCommandOf([OURS_PLAN, OTHER_PLAN, BARE_PLAN], 'handoff')).toBeUndefined()
    expect(skillCommandOf([OURS_RESUME, OTHER_RESUME, BARE_RESUME], 'plan')).toBeUndefined()
  })

  test("never takes the mod's own commands", () => {
    expect(skillCommandOf(MOD_COMMANDS, 'handoff')).toBeUndefined()
    expect(skillCommandOf(MOD_COMMANDS, 'plan')).toBeUndefined()
  })

  test('finds nothing in an empty list', () => {
    expect(skillCommandOf([], 'handoff')).toBeUndefined()
  })
})

describe('skillValuesOf', () => {
  const NOW_MS = Date.UTC(2026, 10, 30, 9, 5, 7, 450)
  const PARENT = 'plans/handoffs/HANDOFF_parser_2026-11-29.md'
  const parentText = (fields: string) => `---\nkind: handoff\n${fields}\n---\n# H\n`

  test('starts a chain when there was no swap, with the time to the second in UTC', () => {
    expect(skillValuesOf('t1', NOW_MS, { kind: 'none' }, undefined)).toEqual({ run: 't1', created: '2026-11-30T09:05:07Z', chain: 'new', seq: 1, parent: 'none' })
  })

  test("continues the last swap's chain, one seq on", () => {
    const text = parentText('chain: HANDOFF_parser_2026-11-29\nseq: 3')
    expect(skillValuesOf('t1', NOW_MS, { kind: 'swapped', handoff: PARENT }, text)).toMatchObject({ chain: 'HANDOFF_parser_2026-11-29', seq: 4, parent: PARENT })
  })

  test('starts a chain when the parent is gone or does not say where it stands', () => {
    for (const text of [undefined, 'no frontmatter', parentText('chain: x\nseq: two'), parentText('seq: 2')]) {
      expect(skillValuesOf('t1', NOW_MS, { kind: 'swapped', handoff: PARENT }, text), String(text)).toMatchObject({ chain: 'new', seq: 1, parent: 'none' })
    }
  })

  test('round-trips through the arguments the skill reads', () => {
    const values = skillValuesOf('t1', NOW_MS, { kind: 'swapped', handoff: PARENT }, parentText('chain: HANDOFF_parser_2026-11-29\nseq: 1'))
    for (const focus of ['', 'the parser', '  spaced   focus ']) {
      expect(parseSkillArgs(formatSkillArgs(values, focus))).toEqual({ values, focus: focus.trim().replace(/\s+/g, ' ') })
    }
  })
})

describe('skillFallbackPromptOf', () => {
  test('names the listed command and the arguments', () => {
    const prompt = skillFallbackPromptOf('handoff', 'team-pack:handoff', `${COMPACT_MODE_ARG} run=t1 the parser`)
    expect(prompt).toContain('Run the team-pack:handoff skill')
    expect(prompt).toContain(`"${COMPACT_MODE_ARG} run=t1 the parser"`)
  })

  test("names the mode's skill when no command was listed", () => {
    expect(skillFallbackPromptOf('plan', undefined, COMPACT_MODE_ARG)).toContain(`Run the handoffplan skill now (Skill tool) with the arguments "${COMPACT_MODE_ARG}"`)
  })

  test('never starts with a slash, which the submit call refuses', () => {
    for (const name of ['/handoff', undefined, 'compact-handoff-skills:handoff']) {
      expect(skillFallbackPromptOf('handoff', name, '/odd focus')).not.toMatch(/^\//)
    }
  })
})
