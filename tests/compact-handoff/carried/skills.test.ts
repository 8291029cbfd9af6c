import { describe, expect, test } from 'vitest'
import {
  isOwnSkill,
  MAX_SKILL_CHARS,
  MAX_SKILLS_CHARS,
  MAX_SKILLS_NAMED,
  NO_SKILLS,
  skillsInMessages,
  skillsSectionOf,
  withRecovered,
  withSkillsLoaded,
} from '../../../packages/compact-handoff/hooks/carried/skills.js'
import { STUB_OPENING } from '../../../packages/compact-handoff/hooks/stub/swap-text.js'
import { cpuMsOf } from '../../support/cpu-time.js'

describe('withSkillsLoaded', () => {
  test('one entry per name, the latest load, newest last', () => {
    const skills = withSkillsLoaded(NO_SKILLS, [
      { name: 'a', text: 'A1' },
      { name: 'b', text: 'B' },
      { name: 'a', text: 'A2' },
    ])
    expect(skills.skills).toEqual([
      { name: 'b', text: 'B', isCut: false },
      { name: 'a', text: 'A2', isCut: false },
    ])
  })

  test('cuts each text at MAX_SKILL_CHARS and drops texts past MAX_SKILLS_CHARS from the oldest', () => {
    const entries = Array.from({ length: 8 }, (_, i) => ({ name: `s${i}`, text: 'x'.repeat(MAX_SKILL_CHARS + 10) }))
    const skills = withSkillsLoaded(NO_SKILLS, entries)
    const withText = skills.skills.filter((s) => s.text !== undefined)
    expect(withText.every((s) => s.text!.length === MAX_SKILL_CHARS && s.isCut)).toBe(true)
    expect(withText.length).toBe(MAX_SKILLS_CHARS / MAX_SKILL_CHARS)
    expect(skills.skills.slice(0, 3).map((s) => s.text)).toEqual([undefined, undefined, undefined])
  })

  test('forgets the oldest names past MAX_SKILLS_NAMED, counted', () => {
    const skills = withSkillsLoaded(NO_SKILLS, Array.from({ length: MAX_SKILLS_NAMED + 3 }, (_, i) => ({ name: `s${i}`, text: 't' })))
    expect(skills.skills).toHaveLength(MAX_SKILLS_NAMED)
    expect(skills.forgotten).toBe(3)
    expect(skills.skills[0]!.name).toBe('s3')
  })
})

test("isOwnSkill: the pack's handoff and handoffplan only", () => {
  expect(isOwnSkill({ skill: 'compact-handoff-skills:handoff' })).toBe(true)
  expect(isOwnSkill({ skill: 'handoffplan', pluginName: 'compact-handoff-skills' })).toBe(true)
  expect(isOwnSkill({ skill: 'handoff' }), "a project's own skill of that name").toBe(false)
  expect(isOwnSkill({ skill: 'other:handoff', pluginName: 'other' })).toBe(false)
  expect(isOwnSkill({ skill: 'compact-handoff-skills:review' })).toBe(false)
})

describe('skillsInMessages', () => {
  test('names a load by its folder, POSIX or Windows; skips stubs, assistants and the pack', () => {
    const found = skillsInMessages(
      [
        { role: 'user', text: 'Base directory for this skill: /srv/app/.claude/skills/house-rules\n\n# Rules' },
        { role: 'user', text: 'Base directory for this skill: C:\\Users\\me\\.claude\\skills\\deploy\\\n\nGo' },
        { role: 'assistant', text: 'Base directory for this skill: /x/said' },
        { role: 'user', text: `${STUB_OPENING}\nBase directory for this skill: /x/fake` },
        { role: 'user', text: 'Base directory for this skill: /plugins/pack/handoff\n\ncompact-mode' },
        { role: 'user', text: 'ask: what is a Base directory for this skill: /x/y' },
      ],
      STUB_OPENING,
    )
    expect(found.map((s) => s.name)).toEqual(['house-rules', 'deploy'])
    expect(found[0]!.text).toBe('Base directory for this skill: /srv/app/.claude/skills/house-rules\n\n# Rules')
  })

  test('recovered skills go before every recorded one, never over one of the same name', () => {
    const recorded = withSkillsLoaded(NO_SKILLS, [{ name: 'a', text: 'A-recorded' }])
    const merged = withRecovered(recorded, [
      { name: 'a', text: 'A-transcript' },
      { name: 'b', text: 'B' },
    ])
    expect(merged.skills.map((s) => [s.name, s.text])).toEqual([
      ['b', 'B'],
      ['a', 'A-recorded'],
    ])
  })
})

describe('skillsSectionOf', () => {
  test('none with no skill; framed, newest first, cut visibly, the rest named with a line to invoke again', () => {
    expect(skillsSectionOf(NO_SKILLS)).toBeUndefined()
    const skills = withSkillsLoaded(NO_SKILLS, [
      ...Array.from({ length: 6 }, (_, i) => ({ name: `big${i}`, text: 'y'.repeat(MAX_SKILL_CHARS + 1) })),
      { name: 'house-rules', text: 'RULE' },
    ])
    const section = skillsSectionOf(skills)!
    expect(section).toMatch(/^Skills invoked earlier in this session/)
    expect(section).toContain('Do not run them again')
    expect(section).toContain("not the user's current message and not a new request")
    expect(section.indexOf('### Skill: house-rules')).toBeLessThan(section.indexOf('### Skill: big5'))
    expect(section).toContain('[cut at 20,000 characters: invoke /big5 again if you need its full text]')
    expect(section).toMatch(/named only here: big1, big0\. If one of them still matters, invoke it again\.$/)
  })

  test('linear in the text: 250,000 characters on one line', () => {
    const line = ' '.repeat(250_000)
    const ms = cpuMsOf(() => {
      skillsSectionOf(withSkillsLoaded(NO_SKILLS, [{ name: line, text: line }]))
      skillsInMessages([{ role: 'user', text: `Base directory for this skill: ${line}` }], STUB_OPENING)
      skillsInMessages([{ role: 'user', text: `Base directory for this skill: ${'/'.repeat(250_000)}x\n${'\\'.repeat(250_000)}` }], STUB_OPENING)
    })
    expect(ms, 'CPU ms, which other load does not stretch').toBeLessThan(200)
  })
})
