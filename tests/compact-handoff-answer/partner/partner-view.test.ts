// compact-handoff-answer reads compact-handoff's run through a view of its own
// (the two mods share no files). compact-handoff's state is typed by its hooks'
// own types; this checks that every value of those fits the answer mod's view,
// so a change of shape on either side fails `pnpm typecheck` here.
import { expect, test } from 'vitest'
import { IDLE, type Phase } from '../../../packages/compact-handoff/hooks/run/run.js'
import type { RunView } from '../../../packages/compact-handoff-answer/hooks/partner/run-view.js'

function asRunView(phase: Phase): RunView {
  return phase
}

test("compact-handoff's initial run reads as the answer mod's 'no run'", () => {
  expect(asRunView(IDLE).kind, 'the answer mod treats only idle as no run').toBe('idle')
})
