/**
 * Kept only for tests/skill-evals.test.ts, which imports these five names from here; the
 * harness is split by concern (run-dir.ts, repo-root.ts, claude-cli.ts, staging.ts,
 * environment.ts, tmux-session.ts, poll.ts). Delete this file once that import names the
 * new files.
 */
export { repoRoot } from './repo-root.js'
export { runClaude } from './claude-cli.js'
export { createRunDir, type RunDir } from './run-dir.js'
export { stageCopy } from './staging.js'
