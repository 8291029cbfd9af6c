// Answers compact-handoff's compaction in the engine's place: the conversation
// becomes one user message holding the stub that names the handoff files, and
// no summariser request is made. compact-handoff cannot answer it itself: a
// plugin's own timer-started `$.session.compact` skips every hook of that
// plugin, so the answering hook has to live in another one (this mod).
import type { Register } from 'claude-code'
import { stubOf } from './marked-stub.js'

export const register: Register = (on) => {
  // No matcher on trigger: under the test kit a plugin's compaction arrives
  // with no trigger at all, which a `{ trigger: 'plugin' }` matcher never hears.
  on('session.compact', ($, e, next) => {
    const stub = stubOf(e)
    if (stub === undefined) return next(e)
    // Handle-less, so the engine builds the row from role and text. e.messages
    // is never read: the kit leaves it undefined on a plugin's compaction.
    return { messages: [{ role: 'user', text: stub, toolUses: [] }] }
  }).catch(($, e, next) => {
    // Fail open: a broken answer must not cost the user their compaction.
    // next(e) runs the engine's summariser, or replays its result if the hook
    // had already passed the event on, so nothing runs twice.
    return next(e)
  })
}
