// The bench's split of the swap's latency, read from debug-log lines as Claude Code
// 2.1.332 writes them (copied from a bench run, paths shortened).
import { describe, expect, it } from 'vitest'
import { SWAP_STEPS, swapStepsOf } from './swap-steps.js'

const LOG = [
  '2026-12-01T04:05:30.243Z [DEBUG] [API REQUEST] /v1/messages source=repl_main_thread',
  '2026-12-01T04:05:30.362Z [DEBUG] [engine] turn 4 end (turns=2 usage in=2900 out=290 cost=$0.0174 api=2109ms stop=end_turn resultLen=363)',
  '2026-12-01T04:05:30.409Z [DEBUG] $.ui.status (compact-handoff): handoff: checking the handoff files',
  '2026-12-01T04:05:30.438Z [DEBUG] $.ui.status (compact-handoff): handoff: swap queued (the go-command runs once the session is idle)',
  '2026-12-01T04:05:30.440Z [DEBUG] $.command.run (compact-handoff): 56 chars queued',
  '2026-12-01T04:05:30.441Z [DEBUG] hooks module compact-handoff@inline turn.complete settled in 79.1ms (worker hop, next() included)',
  '2026-12-01T04:05:30.455Z [DEBUG] hooks module compact-handoff@inline: command.run nested in compact-handoff#8',
  '2026-12-01T04:05:30.464Z [DEBUG] $.ui.status (compact-handoff): handoff: replacing the conversation',
  '2026-12-01T04:05:30.467Z [DEBUG] $.session.compact (compact-handoff): compacting, 1626 chars of instructions',
  '2026-12-01T04:05:30.474Z [DEBUG] hooks module compact-handoff@inline, compact-handoff-answer@inline: session.compact nested in compact-handoff#7',
  '2026-12-01T04:05:30.511Z [DEBUG] compact-handoff-answer (user) answered session.compact without next() in 31.0ms; nothing beneath it ran for this dispatch',
  "2026-12-01T04:05:30.512Z [DEBUG] session.compact (plugin): a hook's 1 messages stand (hooked by compact-handoff-answer+cc-plugin-agents-md); core never ran",
  '2026-12-01T04:05:30.683Z [DEBUG] $.ui.status (compact-handoff): (cleared)',
  '2026-12-01T04:05:30.683Z [DEBUG] $.prompt.submit (compact-handoff): 91 chars',
  '2026-12-01T04:05:30.815Z [DEBUG] [engine] turn 5 start',
  '2026-12-01T04:05:31.235Z [DEBUG] [engine] turn 5 end (turns=3 usage in=3200 out=320 cost=$0.0192 api=2350ms stop=end_turn resultLen=11)',
  '',
].join('\n')

const at = (time: string): number => Date.parse(`2026-12-01T04:05:${time}Z`)

describe('swapStepsOf', () => {
  it('splits the time from the answer to the next request at each mark, in order', () => {
    const steps = swapStepsOf(LOG, at('30.250'), at('30.870'))
    expect(steps).toEqual({ turnEnd: 112, check: 78, go: 27, compaction: 45, finish: 171, request: 187 })
    // The steps add up to the whole.
    expect(SWAP_STEPS.reduce((sum, step) => sum + (steps?.[step] ?? NaN), 0)).toBe(at('30.870') - at('30.250'))
  })

  it('finds nothing when a mark is missing, and never takes a mark from before the previous one', () => {
    expect(swapStepsOf(LOG.replace(/^.*compacting.*$/m, ''), at('30.250'), at('30.870'))).toBeUndefined()
    expect(swapStepsOf(LOG.replace(/^.*chars queued.*$/m, ''), at('30.250'), at('30.870')), 'a swap with no go-command').toBeUndefined()
    // A submit logged before the compaction (another path) is not the swap's.
    const reordered = LOG.replace(/^.*\$\.prompt\.submit.*$/m, '').replace(/^(.*checking the handoff files.*)$/m, '$1\n2026-12-01T04:05:30.420Z [DEBUG] $.prompt.submit (compact-handoff): 91 chars')
    expect(swapStepsOf(reordered, at('30.250'), at('30.870'))).toBeUndefined()
  })
})
