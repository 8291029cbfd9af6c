// Answers compact-handoff's compaction in the engine's place: the conversation
// becomes one user message holding the stub that names the handoff files, and
// no summariser request is made. Only the compaction compact-handoff itself
// raised while its run swaps is answered (route.ts isSwapToAnswer); a marked one
// from anyone else goes on to the engine. compact-handoff cannot answer it itself: a
// plugin's own timer-started `$.session.compact` skips every hook of that
// plugin, so the answering hook has to live in another one (this mod).
//
// Around compact-handoff's runs it also vetoes a precompute of the main loop
// while a run is pending. compact-handoff, outer to this mod, handles the
// engine's other compactions (a fork's handoff, or the summariser's
// instructions, and the question askAfterCompaction asks after them).
import type { Register } from 'claude-code'
import { precomputeSkipOf, routeOf } from './answer/route.js'
import { readRun } from './partner/partner-state.js'

export const register: Register = (on) => {
  // No matcher on trigger: under the test kit a plugin's compaction arrives
  // with no trigger at all, which a `{ trigger: 'plugin' }` matcher never hears.
  on('session.compact', async ($, e, next) => {
    const run = await readRun($)
    const route = routeOf(e, next.origin.plugin, run)
    switch (route.kind) {
      case 'answer':
        // Handle-less, so the engine builds the row from role and text.
        // e.messages is never read: the kit leaves it undefined on a plugin's
        // compaction.
        return { messages: [{ role: 'user', text: route.stub, toolUses: [] }] }
      case 'precompute': {
        const skip = precomputeSkipOf(run)
        return skip === undefined ? next(e) : { skip }
      }
      case 'pass':
        return next(e)
    }
  }).catch(($, e, next) => {
    // Fail open: a broken answer or an unreadable state must not cost the user
    // their compaction. next(e) runs the engine's summariser, or replays its
    // result if the hook had already passed the event on, so nothing runs twice.
    return next(e)
  })
}
