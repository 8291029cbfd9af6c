// The value forms a handoff's frontmatter and headings may carry: the format
// check and the handoff-tools validator both judge a file by them, so an edge
// pinned here holds for both.
import { describe, expect, test } from 'vitest'
import { NO_PARENT, isChainValue, isCreatedValue, isFocusValue, isSeqValue, nonBlankCharsOf, parentRelPathOf, phaseNumberOf, sectionNameOf } from '../../../packages/compact-handoff/hooks/protocol/protocol-contents.js'

describe('the frontmatter values', () => {
  test('seq is a whole number from 1, as written', () => {
    for (const ok of ['1', '2', '10', '123456']) expect(isSeqValue(ok), ok).toBe(true)
    for (const bad of ['0', '01', '-1', '+1', '1.0', '1e0', ' 1', '', 'one']) expect(isSeqValue(bad), bad).toBe(false)
  })

  test('chain is a handoff file name without .md; focus is not blank', () => {
    expect(isChainValue('HANDOFF_x_2026-11-29')).toBe(true)
    expect(isChainValue('PLAN_x_2026-11-29')).toBe(false)
    expect(isChainValue('new')).toBe(false)
    expect(isFocusValue('none')).toBe(true)
    expect(isFocusValue(' \u3000\t')).toBe(false)
  })

  test('created is a real date, or a date and time to the minute or second, with or without a zone', () => {
    const accepted = ['2026-11-30', '2026-11-30T18:58', '2026-11-30T18:58:52Z', '2026-11-30 18:58:52.125+01:00', '2024-02-29', '2026-11-30T23:59:59-05:30']
    for (const ok of accepted) expect(isCreatedValue(ok), ok).toBe(true)
    const refused = ['2026-02-29', '2026-04-31', '2026-13-01', '2026-11-30T24:00', '2026-11-30T23:59:60', '2026-11-30T18', '2026-11-30Z', '30/11/2026', ' 2026-11-30', '']
    for (const bad of refused) expect(isCreatedValue(bad), bad).toBe(false)
  })

  test('parent is none, or a handoff in a handoff folder of the project, written relative, with ./ or absolute', () => {
    const project = '/srv/app'
    const relPath = 'plans/handoffs/HANDOFF_parser_2026-11-29.md'
    expect(parentRelPathOf(NO_PARENT, project)).toBe(NO_PARENT)
    for (const spelling of [relPath, `./${relPath}`, `${project}/${relPath}`]) expect(parentRelPathOf(spelling, project), spelling).toBe(relPath)
    expect(parentRelPathOf(`${project}/${relPath}`, `${project}//`), 'trailing slashes on the project').toBe(relPath)
    expect(parentRelPathOf('.claude/handoffs/HANDOFF_a.md', project)).toBe('.claude/handoffs/HANDOFF_a.md')
    const refused = [
      'plans/handoffs/PLAN_parser_2026-11-29.md',
      'plans/handoffs/../handoffs/HANDOFF_a.md',
      `/elsewhere/${relPath}`,
      `../app/${relPath}`,
      'plans\\handoffs\\HANDOFF_a.md',
      'plans//handoffs/HANDOFF_a.md',
      'HANDOFF_a.md',
      '',
    ]
    for (const bad of refused) expect(parentRelPathOf(bad, project), bad).toBeUndefined()
  })
})

test('the size floor counts no blank space, a byte-order mark included', () => {
  expect(nonBlankCharsOf('\uFEFF a\tb\r\n c\u00a0\u3000d ')).toBe(4)
  expect(nonBlankCharsOf('a\uFEFFb')).toBe(2)
})

describe('the headings', () => {
  test('a section is named whatever the letter case or trailing punctuation', () => {
    expect(sectionNameOf('goal')).toBe('Goal')
    expect(sectionNameOf(' Next Step: ')).toBe('Next step')
    expect(sectionNameOf('Verify.')).toBe('Verify')
    expect(sectionNameOf('In progress!?')).toBe('In progress')
    for (const other of ['Goals', 'The goal', 'Goal and scope', '', ':']) expect(sectionNameOf(other), other).toBeUndefined()
  })

  test('a phase heading gives its number; anything else gives none', () => {
    expect(phaseNumberOf('Phase 1: Tokenizer')).toBe(1)
    expect(phaseNumberOf('  Phase 12:\tRelease ')).toBe(12)
    for (const other of ['Phase 1:', 'Phase 1 Tokenizer', 'phase 1: x', 'Phase one: x', 'Step 1: x']) expect(phaseNumberOf(other), other).toBeUndefined()
  })
})
