// The bench's stages of a session's start, read from debug-log lines as Claude Code
// 2.1.332 writes them (copied from a bench run, paths shortened).
import { describe, expect, it } from 'vitest'
import { startStagesOf } from './start-stages.js'

const LOG = [
  '2026-12-01T04:05:19.744Z [DEBUG] Broken symlink or missing file encountered for settings.json',
  '2026-12-01T04:05:20.900Z [DEBUG] [REPL:mount] REPL mounted, disabled=false',
  '2026-12-01T04:05:21.468Z [DEBUG] hooks worker spawned (one for every plugin)',
  '2026-12-01T04:05:21.821Z [DEBUG] hooks module compact-handoff@inline loaded (worker, environment 1, tier user); events: session.start,session.end,command.run,turn.complete,session.compact',
  '2026-12-01T04:05:21.862Z [DEBUG] hooks module compact-handoff-answer@inline loaded (worker, environment 2, tier user); events: session.compact',
  '2026-12-01T04:05:21.874Z [DEBUG] hooks module cc-plugin-agents-md@builtin loaded (native, environment 3, tier builtin); events: session.start,prompt.context',
  '2026-12-01T04:05:22.610Z [DEBUG] session.start: raised (surface terminal, interactive)',
  '2026-12-01T04:05:22.656Z [DEBUG] hooks module cc-plugin-agents-md@builtin session.start settled in 15.8ms (native link, next() included)',
  '2026-12-01T04:05:22.676Z [DEBUG] hooks module compact-handoff@inline session.start settled in 64.2ms (worker hop, next() included)',
  '',
].join('\n')

const LAUNCH = Date.parse('2026-12-01T04:05:19.500Z')

describe('startStagesOf', () => {
  it('takes each stage from its line, the last mod to load, and only the mods that hook session.start', () => {
    expect(startStagesOf(LOG, LAUNCH, ['compact-handoff@inline', 'compact-handoff-answer@inline'])).toEqual({ mounted: 1400, spawned: 1968, loaded: 2362, raised: 3110, settled: 3176 })
  })

  it('leaves out a stage whose line is missing, and has only the mount without a mod', () => {
    expect(startStagesOf(LOG.replace(/^.*compact-handoff@inline session\.start settled.*$/m, ''), LAUNCH, ['compact-handoff@inline'])).toEqual({ mounted: 1400, spawned: 1968, loaded: 2321, raised: 3110 })
    expect(startStagesOf(LOG, LAUNCH, [])).toEqual({ mounted: 1400 })
    expect(startStagesOf(LOG.replace(/^.*REPL mounted.*$/m, ''), LAUNCH, [])).toEqual({})
  })
})
