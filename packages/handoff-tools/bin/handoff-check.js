#!/usr/bin/env node
// The package's own build (tsconfig.build.json, run by the workspace's
// `pnpm build`) compiles src/ and the protocol it shares with the mod into
// dist/ beside this folder.
import { main } from '../dist/handoff-tools/src/cli.js'

await main(process.argv.slice(2))
