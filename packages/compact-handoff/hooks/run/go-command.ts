// The run's own hidden step: the go-command it queues once the checks pass.
// The run needs its name and who may send it; the commands folder, above the
// run, registers it.
import { OWN_PLUGIN } from '../stub/swap-text.js'

/** Hidden (out of the `/` menu): queued by compact-handoff itself once the
 * checks pass. A queued command runs once the session is idle, the one moment
 * the engine lets a compaction through; its hook takes the run's go step. */
export const GO_COMMAND = 'compact-handoff-go'

/** Whether the go-command was queued by compact-handoff itself: the host sets
 * `origin`, so neither another plugin nor the person typing it passes. */
export function isOwnGo(origin: { kind: string; name?: string }): boolean {
  return origin.kind === 'plugin' && origin.name === OWN_PLUGIN
}

export const GO_REFUSED_TEXT = `/${GO_COMMAND} is compact-handoff's own step of a swap it queued itself; nothing is waiting on it here, so nothing changed.`
