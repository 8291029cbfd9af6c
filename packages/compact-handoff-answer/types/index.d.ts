// What this mod reads from the session ($.state). It owns no state; it reads
// compact-handoff's (any plugin reads any value, only the owner writes).
// compact-handoff's own contract (packages/compact-handoff/types/index.d.ts)
// declares the full shapes; this is the read-only view this mod relies on. The
// engine wants a contract self-contained (no imports), so nothing is shared,
// and the two declarations of 'compact-handoff' differ, so the two mods
// type-check in separate programs (tsconfig.mods.json, tsconfig.answer.json).

declare module 'claude-code' {
  interface PluginState {
    'compact-handoff': {
      /** The handoff run under way. Only 'idle' means none: every other kind
       * counts as pending, so a kind added later errs on the side of skipping a
       * precompute rather than letting a stale summary land. */
      run: { kind: string }
      /** The person's own prompts, oldest first, each already bounded. */
      words: { messages: string[]; dropped: number }
      /** The newest swap of this session and the files it installed. */
      lastSwap: { kind: 'none' } | { kind: 'swapped'; handoff: string; plan?: string }
    }
  }
}
