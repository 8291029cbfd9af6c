// The wire value compact-handoff writes as the first line of the instructions
// it passes to `$.session.compact`. Mods cannot import each other's files (a
// hooks module reaches only its own plugin and 'claude-code'), so the sender
// keeps its own copy in its hooks/protocol/protocol.ts; tests/contract/marker-agreement.test.ts
// at the repository root fails when the two disagree.

/** Alone on the first line of the instructions, it marks a compaction as ours. */
export const MARKER = 'compact-handoff:v1'
