import { defineConfig } from 'vitest/config'

// Every *.test.ts inside a mod folder belongs to `claude plugin test`, which runs
// it in the engine's own host; vitest takes only the Node-side suites in tests/.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: ['packages/**', 'node_modules/**', 'dist/**'],
    testTimeout: 20_000,
  },
})
