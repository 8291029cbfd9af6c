// Every relative link in the repository's Markdown leads somewhere: to a file
// or folder the repository holds and, for a `#anchor` into a Markdown file, to
// a heading that makes it. The README links each part moved out of it to its
// page; a page renamed or a heading reworded fails here, naming the link.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { repoRoot } from '../harness/repo-root.js'
import { anchorsOf, brokenLinksOf, relativeLinksOf, slugOf, type MarkdownFile } from '../support/markdown-links.js'

const ROOT = repoRoot()

/** The repository's files as a clone has them: tracked, or new and not ignored
 * (so a page not yet committed counts, and a build output never does). */
const PATHS = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((path) => path !== '')
const FILES = new Set(PATHS)
const FOLDERS = new Set(PATHS.flatMap((path) => path.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))))
const exists = (path: string): boolean => FILES.has(path) || FOLDERS.has(path)
const textOf = (path: string): string => readFileSync(join(ROOT, path), 'utf8')

const markdown: MarkdownFile[] = PATHS.filter((path) => path.endsWith('.md')).map((path) => ({ path, text: textOf(path) }))

describe('the links of the Markdown files', () => {
  test('are found in the files that hold them', () => {
    expect(relativeLinksOf(textOf('README.md')).length, 'README.md links its pages').toBeGreaterThan(5)
  })

  test('every relative link leads to a file, folder or heading that exists', () => {
    const broken = brokenLinksOf(markdown, exists, textOf).map((b) => `${b.where}: ${b.url}: ${b.why}`)
    expect(broken).toEqual([])
  })

  test('every docs/ page is linked from README.md', () => {
    const linked = new Set(relativeLinksOf(textOf('README.md')).map((l) => l.url.split('#')[0]))
    const pages = PATHS.filter((path) => path.startsWith('docs/') && path.endsWith('.md'))
    expect(pages.length).toBeGreaterThan(0)
    expect(pages.filter((page) => !linked.has(page)), 'link each page from README.md').toEqual([])
  })
})

describe("GitHub's heading ids", () => {
  test.each([
    ["Claude Code's compactions", 'claude-codes-compactions'],
    ['The eval suite (`evals/`)', 'the-eval-suite-evals'],
    ['`packages/compact-handoff/hooks/`', 'packagescompact-handoffhooks'],
    ['Allowed without asking: only the skill\'s own file, during its own turn', 'allowed-without-asking-only-the-skills-own-file-during-its-own-turn'],
    ['Wall time, Enter → first request', 'wall-time-enter--first-request'],
    ['snake_case and Ünïcode', 'snake_case-and-ünïcode'],
  ])('%s is #%s', (heading, slug) => {
    expect(slugOf(heading)).toBe(slug)
    expect(anchorsOf(`# ${heading}\n`)).toEqual(new Set([slug]))
  })

  test('a repeated heading is numbered; a heading in a code block or the frontmatter makes none', () => {
    const text = '---\ntitle: x\n---\n\n## Limits\n\n```\n## Not a heading\n```\n\n## Limits\n\n### *Limits*\n'
    expect(anchorsOf(text)).toEqual(new Set(['limits', 'limits-1', 'limits-2']))
  })
})

describe('a broken link is reported', () => {
  const pages: Record<string, string> = {
    'README.md': '# Top\n\n## Use it\n',
    'docs/a.md': '# A\n\n## Kept words\n',
  }
  const check = (text: string) => {
    const all: Record<string, string> = { ...pages, 'docs/b.md': text }
    const has = (path: string) => path in all || path === 'docs' || path === 'src/x.ts'
    return brokenLinksOf([{ path: 'docs/b.md', text }], has, (path) => all[path] ?? '').map((b) => `${b.where}: ${b.why}`)
  }

  test('a link to a file, folder, heading, code file or the web that exists passes', () => {
    const text = [
      '[a](a.md) [a, heading](a.md#kept-words) [up](../README.md#use-it) [folder](../docs/) [code](../src/x.ts#L3)',
      '[web](https://example.com/x.md#nowhere) [mail](mailto:me@example.com) [ref][r]',
      '',
      '[r]: ./a.md#a',
    ].join('\n')
    expect(check(text)).toEqual([])
  })

  test.each([
    ['a file that is not there', '[gone](gone.md)', 'docs/b.md:1: no file or folder docs/gone.md'],
    ['a heading that is not there', '[a](a.md#kept-word)', 'docs/b.md:1: no heading of docs/a.md makes #kept-word'],
    ['a heading spelt as shown, not as GitHub ids it', '[a](a.md#Kept-words)', 'docs/b.md:1: no heading of docs/a.md makes #Kept-words'],
    ['an anchor of its own file that is not there', '# B\n\n[self](#c)', 'docs/b.md:3: no heading of docs/b.md makes #c'],
    ['a link out of the repository', '[out](../../etc/passwd)', 'docs/b.md:1: leads out of the repository'],
    ['a definition to a file that is not there', '[x][r]\n\n[r]: ./nope.md', 'docs/b.md:3: no file or folder docs/nope.md'],
    ['an image that is not there', '![shot](shot.png)', 'docs/b.md:1: no file or folder docs/shot.png'],
  ])('%s', (_, text, report) => {
    expect(check(text)).toEqual([report])
  })
})
