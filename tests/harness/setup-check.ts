/**
 * The set-up's first step after the build (package.json `prepare`): fails,
 * saying in one line each how to get it, when a tool the demo or the tests
 * need beyond node and npm is missing, instead of a stack trace later.
 */
import { execFileSync } from 'node:child_process'
import { SETUP_TOOLS, missingToolLinesOf, type SetupTool } from './setup-tools.js'

function isFound(tool: SetupTool): boolean {
  try {
    execFileSync(tool.name, tool.versionArgs, { stdio: 'ignore', timeout: 10_000 })
    return true
  } catch {
    return false
  }
}

const lines = missingToolLinesOf(SETUP_TOOLS.filter((t) => !isFound(t)), process.platform)
if (lines.length > 0) {
  for (const line of lines) console.error(line)
  process.exit(1)
}
console.log(`set-up: ${SETUP_TOOLS.map((t) => t.name).join(', ')} found`)
