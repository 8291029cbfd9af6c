// The scripted skill turn the e2e suites, demo and bench send through the mock: its
// files must pass the mod's own format check and its answer must parse as the mod reads it.
import { describe, expect, it } from 'vitest'
import { formatProblems } from '../../packages/compact-handoff/hooks/format/handoff-format.js'
import { formatSkillArgs, parseContinuePrompt, parseSentinel } from '../../packages/compact-handoff/hooks/protocol/protocol.js'
import { skillFallbackPromptOf } from '../../packages/compact-handoff/hooks/run/skill-command.js'
import { handoffFileText, isSkillTurnFor, planFileText, skillTurn } from './handoff-script.js'

const CONTEXT = { projectDir: '/p' }
const VALUES = { run: 'r1', created: '2026-12-01T10:00:00Z', chain: 'new', seq: 1, parent: 'none' }

describe('handoff-script', () => {
  it('builds a handoff and a plan that pass formatProblems', () => {
    expect(formatProblems(handoffFileText(), 'handoff', CONTEXT)).toEqual([])
    expect(formatProblems(planFileText(), 'plan', CONTEXT)).toEqual([])
  })

  it('can build a handoff missing a required section, which the check refuses', () => {
    expect(formatProblems(handoffFileText({}, { omit: ['Next step'] }), 'handoff', CONTEXT).join('\n')).toMatch(/missing section "## Next step"/)
  })

  it('ends the final answer with the continue-prompt and the READY sentinel', () => {
    const turn = skillTurn({ proj: '/p', mode: 'plan', continuePrompt: 'Start Phase 1.' })
    expect(turn.replies).toHaveLength(3)
    expect(parseSentinel(turn.finalText)).toEqual({ kind: 'ready', paths: [turn.handoffPath, turn.planPath] })
    expect(parseContinuePrompt(turn.finalText)).toBe('Start Phase 1.')
    expect(turn.handoffFile).toBe(`/p/${turn.handoffPath}`)
  })

  it("recognises the skill's turn for a focus, run by its command or by the mod's fallback prompt", () => {
    const args = formatSkillArgs(VALUES, 'the parser errors')
    const command = `<command-name>/compact-handoff-skills:handoff</command-name>\n<command-args>${args}</command-args>`
    const fallback = skillFallbackPromptOf('handoff', 'compact-handoff-skills:handoff', args)
    for (const text of [command, fallback]) {
      expect(isSkillTurnFor(text, 'the parser errors'), text).toBe(true)
      expect(isSkillTurnFor(text, 'the parser'), text).toBe(false)
    }
    expect(isSkillTurnFor(skillFallbackPromptOf('plan', undefined, formatSkillArgs(VALUES, '')), ''), 'no focus, the bare skill name').toBe(true)
  })
})
