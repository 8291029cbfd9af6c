#!/usr/bin/env node
// tsconfig.build.json compiles the workspace's Node sources into one dist/ at
// its root, so the package's bin reaches the compiled CLI there.
import { main } from '../../../dist/packages/handoff-tools/src/cli.js'

await main(process.argv.slice(2))
