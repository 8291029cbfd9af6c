// Answers compact-handoff's compaction in the engine's place: the conversation
// becomes one user message holding the stub that names the handoff files, and
// no summariser request is made. Only the compaction compact-handoff itself
// raised while its run swaps is answered (route.ts isOwnSwap); a marked one
// from anyone else goes on to the engine. compact-handoff cannot answer it itself: a
// plugin's own timer-started `$.session.compact` skips every hook of that
// plugin, so the answering hook has to live in another one (this mod).
//
// Around compact-handoff's runs it also guards the main loop's other
// compactions: a precompute is vetoed while a run is pending, and a /compact or
// threshold compaction left to the engine is told where the newest handoff is,
// what the person wrote and what the work did, read from compact-handoff's
// state, and to write the summary in a handoff's sections.
import type { Register } from 'claude-code'
import { precomputeSkipOf, routeOf } from './route.js'
import { summaryInstructionsOf } from './foreign-instructions.js'
import { readPartnerView, readRun } from './partner-state.js'

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
      case 'summary': {
        const instructions = summaryInstructionsOf(e.instructions, await readPartnerView($))
        return next({ ...e, instructions })
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
