// The deferred tools the main loop loaded with ToolSearch. The engine's own
// compaction keeps their schemas in the request's tools; after a compaction a
// mod answers they are gone, a turn later too, and the first request has no
// list of deferred tools either (seen live, 2.1.332). No mod call loads a
// schema, so the stub names them and says how to load them again. Pure:
// carried-steps.ts records.
import { headOf } from '../text/text-clip.js'

/** Names kept; the newest loads win. Each name bounded: names are short, a stub never trusts one. */
export const MAX_LOADED_TOOLS = 30
const MAX_TOOL_NAME_CHARS = 100

/** The names a ToolSearch result says it loaded (`matches`), none for any other shape. */
export function loadedToolsOf(result: unknown): string[] {
  if (typeof result !== 'object' || result === null) return []
  const matches = (result as { matches?: unknown }).matches
  if (!Array.isArray(matches)) return []
  // A tool's name is one word (`WebFetch`, `mcp__server__tool`): anything else is not named.
  return matches.filter((m): m is string => typeof m === 'string' && m !== '' && !/\s/.test(m)).map((m) => headOf(m, MAX_TOOL_NAME_CHARS))
}

/** `tools` with `loaded` added as the newest, each name once, bounded. */
export function withToolsLoaded(tools: readonly string[], loaded: readonly string[]): string[] {
  if (loaded.length === 0) return [...tools]
  const fresh = new Set(loaded)
  return [...tools.filter((t) => !fresh.has(t)), ...fresh].slice(-MAX_LOADED_TOOLS)
}

/** The stub's lines: none when nothing was loaded. */
export function loadedToolsSectionOf(tools: readonly string[]): string | undefined {
  if (tools.length === 0) return undefined
  return [
    `Deferred tools loaded earlier in this session with ToolSearch, whose schemas the replaced conversation held: ${tools.join(', ')}.`,
    `They are not loaded now: to call one, load it again first with ToolSearch (query "select:${tools.join(',')}").`,
  ].join('\n')
}
