/**
 * What the set-up needs beyond node and npm (pnpm enforces the node version
 * in package.json's `engines` itself), what each is for, and, for one that is
 * missing, the one line that says how to get it. Pure: setup-check.ts looks.
 */

export type SetupTool = {
  name: string
  /** The arguments that make it print its version and exit 0. */
  versionArgs: readonly string[]
  neededBy: string
}

export const SETUP_TOOLS: readonly SetupTool[] = [
  {
    name: 'tmux',
    versionArgs: ['-V'],
    neededBy: 'pnpm install fetches the mod API declarations from a short session under it; pnpm demo, pnpm bench and the real-session suite drive it',
  },
  { name: 'git', versionArgs: ['--version'], neededBy: "the unit suite's skill-eval scaffolds and the real-session suite's worktree scenario" },
  { name: 'bash', versionArgs: ['--version'], neededBy: "the unit suite's skill-eval scaffolds" },
]

/** How to install `tool` on this platform (`process.platform`). */
export function installHintOf(tool: string, platform: string): string {
  switch (platform) {
    case 'darwin':
      return `brew install ${tool}`
    case 'win32':
      return `run the set-up inside WSL, where apt-get install ${tool} gets it`
    default:
      return `apt-get install ${tool} (Debian, Ubuntu), dnf install ${tool} (Fedora), or your system's package manager`
  }
}

/** One line per missing tool, then what to do after; nothing when all are there. */
export function missingToolLinesOf(missing: readonly SetupTool[], platform: string): string[] {
  if (missing.length === 0) return []
  return [...missing.map((t) => `set-up: ${t.name} is missing (${t.neededBy}); to get it: ${installHintOf(t.name, platform)}`), 'set-up: then run pnpm install again.']
}
