// Records the deferred tools a main-loop ToolSearch loaded (loaded-tools.ts
// decides), so every stub can name them.
import type { EngineInterface } from 'claude-code'
import { loadedToolsOf, withToolsLoaded } from './loaded-tools.js'
import { updateLoadedTools } from './carried-state.js'

type $ = EngineInterface

/** A ToolSearch call's outcome; a refused or failed call loaded nothing. */
export async function recordToolsLoaded($: $, outcome: { deny?: string; isError?: true; result?: unknown }): Promise<void> {
  if (outcome.deny !== undefined || outcome.isError === true) return
  const loaded = loadedToolsOf(outcome.result)
  if (loaded.length > 0) await updateLoadedTools($, (tools) => withToolsLoaded(tools, loaded))
}
