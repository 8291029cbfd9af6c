// This mod's session state ($.state): the one key it owns, and the read-only
// view of compact-handoff's run it relies on (any plugin reads any value, only
// the owner writes). compact-handoff's own contract
// (packages/compact-handoff/types/index.d.ts) declares the full shapes. The
// engine wants a contract self-contained (no imports), so nothing is shared,
// and the two declarations of 'compact-handoff' differ, so the two mods
// type-check in separate programs (tsconfig.mods.json, tsconfig.answer.json).

declare module 'claude-code' {
  interface PluginState {
    'compact-handoff-answer': {
      /** Option askAfterCompaction: 'pending' after a /compact or automatic
       * compaction of the main loop replaced the conversation with a summary;
       * the first main-loop tool call after it takes the flag and asks the
       * person whether Claude may carry on (hooks/state.ts). */
      ask: { kind: 'none' } | { kind: 'pending'; trigger: 'manual' | 'auto' }
    }
    'compact-handoff': {
      /** The handoff run under way. Only 'idle' means none: every other kind
       * counts as pending, so a kind added later errs on the side of skipping a
       * precompute rather than letting a stale summary land. `isCompacting`
       * is set on 'swapping' while its compaction is in flight: the only time
       * this mod answers a marked compaction. */
      run: { kind: string; isCompacting?: boolean }
    }
  }
}
