// A session's start and end, as they concern a run: whether a person is at the
// prompt, and what a run under way held when the session ends.
import type { EngineInterface } from 'claude-code'
import { readInteractive, readPhase, setInteractive } from '../run/run-state.js'
import { dispatch } from '../run/run-steps.js'
import { restoreKept, resumeBeat } from '../run/held-steps.js'
import { clearContextUse } from '../status-line/status-line-steps.js'

type $ = EngineInterface

/** At every session.start (a hot reload runs it again). */
export async function noteSessionStart($: $, isInteractive: boolean): Promise<void> {
  await Promise.all([setInteractive($, isInteractive), resumeBeat($)])
  if (isInteractive) $.clock.after(0, () => void restoreKept($).catch(() => undefined))
}

/** Before the engine's end step: /clear starts the session's state over (seen
 * live, 2.1.332), so a run under way would be lost with what it held. Returns
 * whether a person is at the prompt, read before the state is gone. */
export async function endSession($: $, reason: string): Promise<boolean> {
  const isNewConversation = reason === 'clear' || reason === 'resume'
  // The engine keeps a plugin's status line across /clear (seen live, 2.1.332):
  // the old conversation's figure goes before the run's stage can uncover it.
  const [phase, isInteractive] = await Promise.all([readPhase($), readInteractive($), isNewConversation ? clearContextUse($) : undefined])
  if (phase.kind !== 'idle') await dispatch($, { kind: 'session-ended', reason })
  // The process goes on after /clear (or /resume) under a fresh state, with no
  // session.start: the flag is put back once that state is in place (checked
  // live for /clear in an SDK session).
  if (isNewConversation) $.clock.after(0, () => void setInteractive($, isInteractive).catch(() => undefined))
  return isInteractive
}
