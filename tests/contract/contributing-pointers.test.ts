// CONTRIBUTING.md sends a newcomer to files and to names inside them: each
// `path/file.ts` it names must exist, and each "`file.ts` `symbol`" or
// "`symbol` (`file.ts`)" must find the symbol in that file. A path inside a
// mod's hooks is written from `hooks/` (`run/run.ts`), a bare file name
// (`run.ts`) names the one file of that name.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { repoRoot } from '../harness/repo-root.js'

const ROOT = repoRoot()
const TEXT = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8')
const FILES = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter((f) => f !== '')
/** Where a path CONTRIBUTING.md writes short is read from, first match wins. */
const BASES = ['', 'tests/harness/', 'packages/compact-handoff/hooks/', 'packages/compact-handoff-answer/hooks/', 'packages/compact-handoff/', 'packages/compact-handoff-answer/']

/** A code span that names a file: a path of plain segments ending in an extension, no
 * placeholder, not a suffix (`-steps.ts`), not a file of the person's project (`.claude/…`). */
const FILE_SPAN_RE = /^(?!\.claude\/)\w[\w.-]*(?:\/[\w.-]+)*\.(?:ts|tsx|js|mjs|md|json|jsonl|yaml|txt|sh)$|^\.claude-plugin\/[\w.-]+$/
const IDENTIFIER = String.raw`[A-Za-z_$][\w$]*`

function lineOf(index: number): number {
  return TEXT.slice(0, index).split('\n').length
}

/** The repository files a span may mean: by its path from each base, or by its name alone. */
function filesOf(span: string): string[] {
  if (!span.includes('/')) return FILES.filter((f) => f === span || f.endsWith('/' + span))
  const hit = BASES.map((base) => base + span).find((path) => FILES.includes(path))
  return hit === undefined ? [] : [hit]
}

test('every file CONTRIBUTING.md names exists', () => {
  const missing = [...TEXT.matchAll(/`([^`\n]+)`/g)]
    .filter((m) => FILE_SPAN_RE.test(m[1]!) && filesOf(m[1]!).length === 0)
    .map((m) => `CONTRIBUTING.md:${lineOf(m.index)}: \`${m[1]}\``)
  expect(missing, 'point each at the file as it is now').toEqual([])
})

test('every symbol CONTRIBUTING.md places in a file is in it', () => {
  const pairs = [
    ...[...TEXT.matchAll(new RegExp(String.raw`\`([^\`\s]+\.tsx?)\` \`(${IDENTIFIER})\``, 'g'))].map((m) => ({ file: m[1]!, symbol: m[2]!, index: m.index })),
    ...[...TEXT.matchAll(new RegExp(String.raw`\`(${IDENTIFIER})\` \(\`([^\`\s]+\.tsx?)\``, 'g'))].map((m) => ({ file: m[2]!, symbol: m[1]!, index: m.index })),
  ]
  expect(pairs.length, 'CONTRIBUTING.md places symbols in files').toBeGreaterThan(10)
  const word = (symbol: string) => new RegExp(String.raw`(?<![\w$])${symbol.replace(/\$/g, '\\$')}(?![\w$])`)
  const stale = pairs
    .filter(({ file, symbol }) => !filesOf(file).some((f) => word(symbol).test(readFileSync(join(ROOT, f), 'utf8'))))
    .map(({ file, symbol, index }) => `CONTRIBUTING.md:${lineOf(index)}: \`${symbol}\` is not in \`${file}\``)
  expect(stale, 'name the file that holds each').toEqual([])
})
