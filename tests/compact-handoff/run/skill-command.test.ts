// Finding the handoff skill's command among the listed commands, and what is
// submitted when it cannot be run directly.
import { describe, expect, test } from 'vitest'
import { COMPACT_MODE_ARG } from '../../../packages/compact-handoff/hooks/protocol/protocol.js'
import { skillCommandOf, skillFallbackPromptOf, type ListedCommand } from '../../../packages/compact-handoff/hooks/run/skill-command.js'

const OURS_HANDOFF: ListedCommand = { name: 'compact-handoff-skills:handoff', source: 'plugin', plugin: 'compact-handoff-skills' }
const OURS_PLAN: ListedCommand = { name: 'compact-handoff-skills:handoffplan', source: 'plugin', plugin: 'compact-handoff-skills' }
const OTHER_HANDOFF: ListedCommand = { name: 'team-pack:handoff', source: 'plugin', plugin: 'team-pack' }
const OTHER_PLAN: ListedCommand = { name: 'team-pack:handoffplan', source: 'plugin', plugin: 'team-pack' }
const BARE_HANDOFF: ListedCommand = { name: 'handoff', source: 'user' }
const BARE_PLAN: ListedCommand = { name: 'handoffplan', source: 'project' }
const MOD_COMMANDS: ListedCommand[] = [
  { name: 'compact-handoff', source: 'plugin', plugin: 'compact-handoff' },
  { name: 'compact-handoffplan', source: 'plugin', plugin: 'compact-handoff' },
]

describe('skillCommandOf', () => {
  test('prefers the skill pack of this repository over any other, wherever it is listed', () => {
    expect(skillCommandOf([BARE_HANDOFF, OTHER_HANDOFF, OURS_HANDOFF], 'handoff')).toBe('compact-handoff-skills:handoff')
    expect(skillCommandOf([OURS_PLAN, BARE_PLAN, OTHER_PLAN], 'plan')).toBe('compact-handoff-skills:handoffplan')
  })

  test("takes another plugin's skill when the pack is not installed", () => {
    expect(skillCommandOf([BARE_HANDOFF, OTHER_HANDOFF], 'handoff')).toBe('team-pack:handoff')
    expect(skillCommandOf([BARE_PLAN, OTHER_PLAN], 'plan')).toBe('team-pack:handoffplan')
  })

  test('falls back to a bare skill', () => {
    expect(skillCommandOf([...MOD_COMMANDS, BARE_HANDOFF], 'handoff')).toBe('handoff')
    expect(skillCommandOf([...MOD_COMMANDS, BARE_PLAN], 'plan')).toBe('handoffplan')
  })

  test("never takes the other mode's skill", () => {
    expect(skillCommandOf([OURS_PLAN, OTHER_PLAN, BARE_PLAN], 'handoff')).toBeUndefined()
    expect(skillCommandOf([OURS_HANDOFF, OTHER_HANDOFF, BARE_HANDOFF], 'plan')).toBeUndefined()
  })

  test("never takes the mod's own commands", () => {
    expect(skillCommandOf(MOD_COMMANDS, 'handoff')).toBeUndefined()
    expect(skillCommandOf(MOD_COMMANDS, 'plan')).toBeUndefined()
  })

  test('finds nothing in an empty list', () => {
    expect(skillCommandOf([], 'handoff')).toBeUndefined()
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
