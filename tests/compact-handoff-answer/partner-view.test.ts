// compact-handoff-answer reads compact-handoff's state through views of its own
// (the two mods share no files). compact-handoff's state is typed by its hooks'
// own types; this checks that every value of those fits the answer mod's views,
// so a change of shape on either side fails `pnpm typecheck` here.
import { expect, test } from 'vitest'
import { IDLE, type Phase } from '../../packages/compact-handoff/hooks/run.js'
import { NO_WORDS, type UserWords } from '../../packages/compact-handoff/hooks/user-words.js'
import { NO_SWAP, type LastSwap } from '../../packages/compact-handoff/hooks/swap-text.js'
import type { SwapView, WordsView } from '../../packages/compact-handoff-answer/hooks/foreign-instructions.js'
import type { RunView } from '../../packages/compact-handoff-answer/hooks/route.js'

function asRunView(phase: Phase): RunView {
  return phase
}
function asWordsView(words: UserWords): WordsView {
  return words
}
function asSwapView(lastSwap: LastSwap): SwapView {
  return lastSwap
}

test("compact-handoff's initial values read as the answer mod's 'nothing yet'", () => {
  expect(asRunView(IDLE).kind, 'the answer mod treats only idle as no run').toBe('idle')
  expect(asWordsView(NO_WORDS)).toEqual({ messages: [], dropped: 0 })
  expect(asSwapView(NO_SWAP)).toEqual({ kind: 'none' })
})
