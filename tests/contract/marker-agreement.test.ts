// compact-handoff writes the marker and compact-handoff-answer looks for it.
// Mods cannot import each other's files, so each keeps a copy; this test is
// what keeps the copies equal.
import { expect, test } from 'vitest'
import { MARKER as SENT } from '../../packages/compact-handoff/hooks/protocol.js'
import { MARKER as ANSWERED } from '../../packages/compact-handoff-answer/hooks/marker.js'

test('the answer mod looks for the marker compact-handoff sends', () => {
  expect(ANSWERED, 'a mismatch sends every handoff compaction to the summariser').toBe(SENT)
})

test('the marker can stand alone on a line', () => {
  expect(SENT, 'the answer mod reads it as the whole first line').toMatch(/^\S+$/)
})
