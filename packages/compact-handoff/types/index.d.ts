// The state this mod keeps in the session ($.state). Session-scoped, so a hot
// reload (which re-runs register and empties module variables) keeps both.
// The engine wants this contract self-contained (no imports), so the shapes are
// spelled out here; hooks/run-steps.ts reads and writes them as hooks/run.ts's
// Phase and hooks/nudge.ts's Nudge, and the mods' type-check fails if the two
// spellings drift apart.

declare module 'claude-code' {
  interface PluginState {
    'compact-handoff': {
      /** The handoff run under way, or idle (hooks/run.ts Phase). */
      run:
        | { kind: 'idle' }
        | { kind: 'launching'; run: CompactHandoffRun }
        | { kind: 'writing'; run: CompactHandoffRun; skillCommand: string }
        | { kind: 'checking'; run: CompactHandoffRun }
        | {
            kind: 'swapping'
            run: CompactHandoffRun
            swap: { handoff: string; plan?: string; instructions: string; continuePrompt: string; refusals: number }
          }
      /** Whether this context window was already nudged (hooks/nudge.ts Nudge). */
      nudge: { kind: 'armed' } | { kind: 'fired'; percent: number }
    }
  }

  /** hooks/run.ts Run. */
  type CompactHandoffRun = {
    id: string
    mode: 'resume' | 'plan'
    focus: string
    startedAtMs: number
    cwd: string
    files: { kind: 'handoff' | 'plan'; relPath: string }[]
  }
}
