// Which version of the shape a handoff is written in, told by its sections
// (handoff-spec.ts): a resume takes a handoff written under an older shape
// when it passes the check by that shape's own sections, and nothing else.
// The spec holds no older shape yet, so these tests pass their own history.
import { describe, expect, test } from 'vitest'
import { formatProblems, handoffShapeOf } from '../../../packages/compact-handoff/hooks/format/handoff-format.js'
import { HANDOFF_SECTIONS, HANDOFF_SHAPE_VERSION, type OlderHandoffShape } from '../../../packages/compact-handoff/hooks/protocol/handoff-spec.js'
import { handoffTextOf } from '../../support/handoff-text.js'

const CONTEXT = { projectDir: '/home/dev/proj' }
const LAST = HANDOFF_SECTIONS[HANDOFF_SECTIONS.length - 1]!
const BEFORE_LAST = HANDOFF_SECTIONS[HANDOFF_SECTIONS.length - 2]!
/** A made-up history: the version before this one had every section but the last. */
const OLDER: readonly OlderHandoffShape[] = [{ version: HANDOFF_SHAPE_VERSION - 1, sections: HANDOFF_SECTIONS.slice(0, -1) }]

/** A good handoff less the named sections (each heading and its one-line body). */
function without(...names: string[]): string {
  const lines = handoffTextOf().split('\n')
  return lines.filter((line, i) => !names.some((name) => line === `## ${name}` || (lines[i - 2] === `## ${name}` && line !== ''))).join('\n')
}

describe('handoffShapeOf', () => {
  test('a handoff in the current shape is of the current version, lacking nothing', () => {
    expect(handoffShapeOf(handoffTextOf(), CONTEXT, OLDER)).toEqual({ version: HANDOFF_SHAPE_VERSION, lacks: [] })
  })

  test('a handoff in an older shape is of that version, lacking the sections added since', () => {
    const text = without(LAST)
    expect(formatProblems(text, 'handoff', CONTEXT)).toEqual([expect.stringContaining(`missing section "## ${LAST}"`)])
    expect(handoffShapeOf(text, CONTEXT, OLDER)).toEqual({ version: HANDOFF_SHAPE_VERSION - 1, lacks: [LAST] })
  })

  test('a handoff that passes no version is of none: the current check\'s problems stand', () => {
    expect(handoffShapeOf(without(BEFORE_LAST), CONTEXT, OLDER)).toBeUndefined()
    expect(handoffShapeOf(without(LAST), CONTEXT, [])).toBeUndefined()
    // An older shape vouches only for its sections, never for a broken frontmatter or size.
    expect(handoffShapeOf(without(LAST).replace('status: in-progress', 'status: maybe'), CONTEXT, OLDER)).toBeUndefined()
  })
})
