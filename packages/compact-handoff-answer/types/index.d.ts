// This mod's view of session state ($.state): it owns no key; this is the
// read-only view of compact-handoff's run it relies on (any plugin reads any value, only
// the owner writes). compact-handoff's own contract
// (packages/compact-handoff/types/index.d.ts) declares the full shapes. The
// engine wants a contract self-contained (no imports), so nothing is shared,
// and the two declarations of 'compact-handoff' differ, so the two mods
// type-check in separate programs (tsconfig.mods.json, tsconfig.answer.json).

declare module 'claude-code' {
  interface PluginState {
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
