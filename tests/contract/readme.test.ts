// README.md is the page a new user reads: short enough for two minutes, the
// parts they need under their own headings, every command the mod answers, and
// the contributor's set-up and test command as the repository has them (CI runs
// the test command README gives: .ci/run). What README leaves out lives in
// docs/, each page linked (tests/contract/links.test.ts).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { repoRoot } from '../harness/repo-root.js'
import { SETUP_TOOLS } from '../harness/setup-tools.js'
import { HANDOFF_COMMAND, PLAN_COMMAND, intentOf } from '../../packages/compact-handoff/hooks/commands/command-intent.js'

const textOf = (path: string): string => readFileSync(join(repoRoot(), path), 'utf8')
const README = textOf('README.md')
const MAX_LINES = 150

/** A `## ` section of README, up to the next heading of that level. */
function sectionOf(heading: string): string {
  const start = README.indexOf(`\n## ${heading}\n`)
  if (start < 0) return ''
  const end = README.indexOf('\n## ', start + 1)
  return README.slice(start, end < 0 ? undefined : end)
}

test(`README.md is at most ${MAX_LINES} lines`, () => {
  expect(README.trimEnd().split('\n').length).toBeLessThanOrEqual(MAX_LINES)
})

test.each(['Install', 'Use', 'What you will see', 'Options', 'Troubleshooting', 'Security', 'Contributing'])('README.md has its "%s" section', (heading) => {
  expect(sectionOf(heading), `a "## ${heading}" section`).not.toBe('')
})

describe("README.md's Use section", () => {
  // Each control word as README writes it, with what the mod makes of it.
  const words: [string, ReturnType<typeof intentOf>['kind'] | 'review'][] = [
    ['cancel', 'cancel'],
    ['status', 'status'],
    ['apply', 'apply'],
    ['resume', 'resume'],
    ['review', 'review'],
  ]

  test.each(words)('names /compact-handoff %s, which the mod answers', (word, kind) => {
    const intent = intentOf(HANDOFF_COMMAND, word)
    expect(intent.kind === 'start' && intent.apply === 'review' ? 'review' : intent.kind).toBe(kind)
    expect(sectionOf('Use')).toContain(`\`/${HANDOFF_COMMAND} ${word}`)
  })

  test('names both commands', () => {
    for (const command of [HANDOFF_COMMAND, PLAN_COMMAND]) expect(sectionOf('Use')).toContain(`\`/${command} [focus]\``)
  })
})

describe("README.md's Contributing section", () => {
  const section = sectionOf('Contributing')
  const manifest = JSON.parse(textOf('package.json')) as { packageManager: string; engines: { node: string }; scripts: Record<string, string> }

  test('gives the test command CI runs', () => {
    const ciCommands = textOf('.ci/run').trimEnd().split('\n')
    expect(ciCommands.at(-1), '.ci/run ends with the test command').toBe('pnpm test')
    expect(section).toContain('```sh\npnpm test\n```')
    expect(manifest.scripts.test).toBeDefined()
  })

  test('names the node version package.json asks for, npm, and every tool the set-up checks for', () => {
    expect(section).toContain(`node ${manifest.engines.node.replace(/^>=/, '')} or later`)
    expect(section).toContain('npm')
    for (const tool of SETUP_TOOLS) expect(section, tool.name).toContain(`\`${tool.name}\``)
  })

  test("installs package.json's pnpm", () => {
    expect(section).toContain(`npm install -g ${manifest.packageManager} && pnpm install`)
  })
})
