import { defineConfig } from 'vitest/config'

// Each file drives real claude sessions in tmux: running files side by side on a 2-core
// machine makes startup times swing by seconds, so files run one at a time. A failed
// real-session check is investigated from its kept run dir, never retried into green.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    retry: 0,
  },
})
