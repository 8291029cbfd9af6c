// The texts a swap installs: the stub behind the marker, and the fallback
// continue-prompt when the skill printed none.
import { describe, expect, test } from 'vitest'
import { stubOf as answeredStubOf } from '../packages/compact-handoff-answer/hooks/marked-stub.js'
import { MARKER } from '../packages/compact-handoff/hooks/protocol.js'
import { compactInstructionsOf, fallbackContinuePromptOf, stubOf } from '../packages/compact-handoff/hooks/swap-text.js'

const HANDOFF = 'plans/handoffs/HANDOFF_parser_2026-11-29.md'
const PLAN = 'plans/handoffs/PLAN_parser_2026-11-29.md'

describe('stubOf', () => {
  test('names the handoff file and says nothing else was kept', () => {
    const stub = stubOf({ handoff: HANDOFF })
    expect(stub.split('\n')).toContain(`Handoff file: ${HANDOFF}`)
    expect(stub).toContain('Nothing else from before was kept.')
    expect(stub).not.toContain('Plan file:')
  })

  test('names the plan file when there is one', () => {
    expect(stubOf({ handoff: HANDOFF, plan: PLAN }).split('\n')).toEqual(expect.arrayContaining([`Handoff file: ${HANDOFF}`, `Plan file: ${PLAN}`]))
  })
})

describe('compactInstructionsOf', () => {
  test('puts the marker alone on the first line, then the stub', () => {
    const stub = stubOf({ handoff: HANDOFF, plan: PLAN })
    const instructions = compactInstructionsOf(stub)
    expect(instructions.split('\n')[0]).toBe(MARKER)
    expect(instructions.slice(MARKER.length + 1)).toBe(stub)
  })

  test('is answered by the answer mod with exactly the stub', () => {
    const stub = stubOf({ handoff: HANDOFF })
    expect(answeredStubOf({ trigger: 'plugin', instructions: compactInstructionsOf(stub) })).toBe(stub)
  })
})

describe('fallbackContinuePromptOf', () => {
  test('asks a resume run to read the handoff, check it, and wait', () => {
    const prompt = fallbackContinuePromptOf('resume', { handoff: HANDOFF })
    expect(prompt).toContain(`Read the handoff ${HANDOFF} and continue from its Next step.`)
    expect(prompt).toContain('wait for my go-ahead')
    expect(prompt).toContain('do not run it again')
  })

  test('asks a plan run to read the plan and the handoff and start Phase 1', () => {
    const prompt = fallbackContinuePromptOf('plan', { handoff: HANDOFF, plan: PLAN })
    expect(prompt).toContain(`Read the plan ${PLAN} and the handoff ${HANDOFF}.`)
    expect(prompt).toContain('start Phase 1 of the plan')
  })

  test('falls back to the resume prompt in plan mode without a plan', () => {
    expect(fallbackContinuePromptOf('plan', { handoff: HANDOFF })).toBe(fallbackContinuePromptOf('resume', { handoff: HANDOFF }))
  })

  test('leaves a plan out of the resume prompt', () => {
    expect(fallbackContinuePromptOf('resume', { handoff: HANDOFF, plan: PLAN })).not.toContain(PLAN)
  })

  test('never starts with a slash', () => {
    expect(fallbackContinuePromptOf('resume', { handoff: HANDOFF })).not.toMatch(/^\//)
    expect(fallbackContinuePromptOf('plan', { handoff: HANDOFF, plan: PLAN })).not.toMatch(/^\//)
  })
})
