// What this mod knows of compact-handoff's run: the shape it reads (the
// partner's own is declared in compact-handoff's types; this mod declares its
// read-only view in ../types/index.d.ts). Beneath answer/, which routes on it.

/** compact-handoff's run phase as this mod reads it: any kind but 'idle' is a
 * run under way; `isCompacting` is set on 'swapping' while its compaction is
 * in flight. */
export type RunView = { kind: string; isCompacting?: boolean }
