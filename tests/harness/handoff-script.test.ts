// The scripted skill turn the e2e suites, demo and bench send through the mock: its
// files must pass the mod's own format check and its answer must parse as the mod reads it.
import { describe, expect, it } from 'vitest'
import { formatProblems } from '../../packages/compact-handoff/hooks/format/handoff-format.js'
import { parseContinuePrompt, parseSentinel } from '../../packages/compact-handoff/hooks/protocol/protocol.js'
import { handoffFileText, planFileText, skillTurn } from './handoff-script.js'

const CONTEXT = { projectDir: '/p' }

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
})
