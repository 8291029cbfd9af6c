// Stands in for compact-handoff-answer in this mod's kit tests: a kit test
// cannot import the partner mod's files (they sit outside this plugin's
// folder), and an inline plugin's `register` must be self-contained, so the
// answer mod's decision is restated here, whole: its marked stub
// (marked-stub.ts markedStubOf), whose swap it answers (route.ts isSwapToAnswer) and
// its precompute veto (route.ts precomputeSkipOf).
// tests/contract/answer-stand-in.test.ts runs this register and the real
// decision over the same compactions and fails where they differ. Not a test
// file: `claude plugin test` runs every *.test.ts it finds.
import type { On } from 'claude-code'

export const ANSWER_STAND_IN = {
  name: 'answer-stand-in',
  register(on: On) {
    on('session.compact', async ($, e, next) => {
      const run = (await $.state.get({ plugin: 'compact-handoff', key: 'run' } as const)).value ?? { kind: 'idle' as const }
      // The kit leaves a plugin's trigger undefined; the engine says 'plugin'.
      const trigger: string | undefined = e.trigger
      const instructions = e.instructions ?? ''
      const lineEnd = instructions.indexOf('\n')
      const stub = instructions.slice(lineEnd + 1)
      const isMarked =
        (trigger === 'plugin' || trigger === undefined) &&
        e.agentId === undefined &&
        lineEnd >= 0 &&
        instructions.slice(0, lineEnd).replace(/\r$/, '') === 'compact-handoff:v1' &&
        stub.trim() !== ''
      if (isMarked) {
        const isSwapToAnswer = next.origin.plugin === 'compact-handoff' && run.kind === 'swapping' && run.isCompacting === true
        return isSwapToAnswer ? { messages: [{ role: 'user' as const, text: stub, toolUses: [] }] } : next(e)
      }
      if (e.agentId === undefined && trigger === 'precompute' && run.kind !== 'idle') {
        return { skip: `compact-handoff run pending (${run.kind}): a summary computed now would be stale once the handoff swaps in` }
      }
      return next(e)
    })
  },
}
