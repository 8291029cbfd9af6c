// The protocol's parsers under random and hostile text: they read model output
// and tool paths, so they must never throw, must round-trip what the skills
// print, and must never place a path outside the session's handoff folders.
import { posix } from 'node:path'
import { describe, expect, test } from 'vitest'
import { readFrontmatterOf } from '../../packages/compact-handoff/hooks/frontmatter.js'
import {
  CONTINUE_PROMPT_HEADER,
  FAILED_PREFIX,
  MARKER,
  READY_PREFIX,
  formatContinuePrompt,
  formatSentinel,
  parseContinuePrompt,
  parseSentinel,
  type Sentinel,
} from '../../packages/compact-handoff/hooks/protocol.js'
import { isChainValue, isFocusValue, isSeqValue } from '../../packages/compact-handoff/hooks/protocol-contents.js'
import {
  HANDOFF_DIRS,
  classifyHandoffPath,
  fileKindOfName,
  fileKindOfRelPath,
  mayBeHandoffPath,
  relativeToCwd,
} from '../../packages/compact-handoff/hooks/protocol-paths.js'
import { forAll, type Rand } from '../support/property.js'

const CWD = '/srv/proj'

/** Pieces of model output chosen to hit the parsers' edges. */
const TEXT_PIECES = [
  'a', 'Z', '7', ' ', '  ', '\t', '\n', '\n', '\r\n', '\r', '\u2028', '\u00a0', '\ufeff', '\0', '\ud800', 'é', '🙂', '中文',
  '`', '```', '*', '**', '- ', '* ', '|', ' | ', '-', '---', '-'.repeat(60), '/', '\\', '..', '.', ':',
  READY_PREFIX, FAILED_PREFIX, CONTINUE_PROMPT_HEADER, MARKER, 'plans/handoffs/', '.claude/handoffs/', 'HANDOFF_x.md', 'PLAN_y.md',
] as const

function randomTextOf(rand: Rand, maxPieces = 30): string {
  let s = ''
  const count = rand.int(maxPieces + 1)
  for (let i = 0; i < count; i++) s += rand.pick(TEXT_PIECES)
  return s
}

/** Prose that holds no sentinel and no continue-prompt header anywhere. */
function proseOf(rand: Rand): string {
  return randomTextOf(rand)
    .split(READY_PREFIX).join('READY')
    .split(FAILED_PREFIX).join('FAILED')
    .split(CONTINUE_PROMPT_HEADER).join('PASTE')
}

/** Characters a sentinel field may hold: anything on one line, backticks and
 * pipes inside a word, Unicode, dashes, slashes. */
const FIELD_CHARS = ['a', 'b', 'Z', '0', '.', '/', '\\', '-', '_', 'é', '🙂', '中', ':', '(', ')', '#', '*', '`'] as const

/** A word that neither starts nor ends with a backtick (those the parser strips). */
function wordOf(rand: Rand): string {
  let w = rand.pick(['a', 'é', '🙂', 'Z', '/', '.', '-'])
  const count = rand.int(12)
  for (let i = 0; i < count; i++) w += rand.pick(FIELD_CHARS)
  return w + rand.pick(['a', 'é', '🙂', '9', 'd', '.md'])
}

function phraseOf(rand: Rand): string {
  return Array.from({ length: 1 + rand.int(4) }, () => wordOf(rand)).join(' ')
}

function sentinelOf(rand: Rand): Sentinel {
  return rand.int(2) === 0
    ? { kind: 'ready', paths: Array.from({ length: rand.int(4) }, () => phraseOf(rand)) }
    : { kind: 'failed', reason: phraseOf(rand) }
}

const LINE_ENDS = ['\n', '\r\n'] as const

describe('parseSentinel', () => {
  test('never throws on random text, and what it finds is well formed', () => {
    forAll(randomTextOf, (text) => {
      const sentinel = parseSentinel(text)
      if (sentinel?.kind === 'ready') {
        for (const path of sentinel.paths) expect(path, 'paths are trimmed and non-empty').toBe(path.trim())
        expect(sentinel.paths).not.toContain('')
      }
      if (sentinel?.kind === 'failed') expect(sentinel.reason).not.toBe('')
    })
  })

  test('finds nothing in text that holds neither prefix', () => {
    forAll(proseOf, (text) => expect(parseSentinel(text)).toBeUndefined())
  })

  test('reads back what formatSentinel printed', () => {
    forAll(sentinelOf, (sentinel) => expect(parseSentinel(formatSentinel(sentinel))).toEqual(sentinel))
  })

  test('reads back the sentinel line between random prose, with LF or CRLF line ends', () => {
    forAll(
      (rand) => ({ sentinel: sentinelOf(rand), before: proseOf(rand), after: proseOf(rand), end: rand.pick(LINE_ENDS) }),
      ({ sentinel, before, after, end }) => {
        const answer = `${before}${end}${formatSentinel(sentinel)}${end}${after}`
        expect(parseSentinel(answer)).toEqual(sentinel)
      },
    )
  })

  test('takes the last sentinel line when the answer holds several', () => {
    forAll(
      (rand) => ({ first: sentinelOf(rand), last: sentinelOf(rand), prose: proseOf(rand) }),
      ({ first, last, prose }) => {
        const answer = [formatSentinel(first), prose, formatSentinel(last), prose].join('\n')
        expect(parseSentinel(answer)).toEqual(last)
      },
    )
  })

  test.each([
    ['single backticks', '`', '`'],
    ['triple backticks', '```', '```'],
    ['a dash bullet and backticks', '- `', '`'],
    ['a star bullet and backticks', '* `', '`'],
    ['surrounding blanks', '   ', '\t '],
  ])('tolerates %s around the line', (_name, open, close) => {
    forAll(sentinelOf, (sentinel) => {
      expect(parseSentinel(`Done.\n${open}${formatSentinel(sentinel)}${close}\n`)).toEqual(sentinel)
    }, { runs: 300 })
  })

  test('strips backticks around each named path', () => {
    expect(parseSentinel(`${READY_PREFIX} \`plans/handoffs/HANDOFF_a.md\` | \`\`plans/handoffs/PLAN_b.md\`\``)).toEqual({
      kind: 'ready',
      paths: ['plans/handoffs/HANDOFF_a.md', 'plans/handoffs/PLAN_b.md'],
    })
  })

  test('reads a READY line naming nothing as a sentinel with no paths', () => {
    expect(parseSentinel(`${READY_PREFIX}  |  | `)).toEqual({ kind: 'ready', paths: [] })
  })

  test('gives a FAILED line without a reason a placeholder reason', () => {
    expect(parseSentinel(`${FAILED_PREFIX}   `)).toEqual({ kind: 'failed', reason: 'no reason given' })
  })

  test('ignores a prefix that does not start the line', () => {
    expect(parseSentinel(`I will print ${READY_PREFIX} plans/handoffs/HANDOFF_a.md at the end.`)).toBeUndefined()
  })

  test('stays fast on 100 000-character lines of backticks, stars, dashes and blanks', () => {
    const n = 100_000
    const hostile = [
      `${READY_PREFIX} x${'`'.repeat(n)}y`,
      `x${'`'.repeat(n)}y`,
      `x${'*'.repeat(n)}y`,
      '-'.repeat(n),
      `${' '.repeat(n)}x`,
      `${READY_PREFIX} ${'| '.repeat(n / 2)}`,
    ]
    const started = performance.now()
    for (const line of hostile) parseSentinel(line)
    expect(performance.now() - started, 'a quadratic regex takes seconds here').toBeLessThan(1000)
  })
})

/** A prompt line that is not a rule of dashes and not the header: the block's
 * grammar cannot carry those, so the round trip excludes them. */
function promptLineOf(rand: Rand): string {
  const line = rand.pick([
    () => phraseOf(rand),
    () => `- ${phraseOf(rand)}`,
    () => `--- ${phraseOf(rand)} ---`,
    () => `\`\`\`${phraseOf(rand)}`,
    () => `${'-'.repeat(2)}`,
    () => '',
    () => `${'x'.repeat(rand.int(3) * 5000)}`,
  ])()
  return line
}

function promptOf(rand: Rand): string {
  return Array.from({ length: 1 + rand.int(6) }, () => promptLineOf(rand)).join(rand.pick(LINE_ENDS))
}

/** What parseContinuePrompt gives back for a printed prompt: trimmed, CRLF read as LF. */
function expectedPrompt(prompt: string): string | undefined {
  const trimmed = prompt.trim()
  return trimmed === '' ? undefined : trimmed.replace(/\r\n/g, '\n')
}

describe('parseContinuePrompt', () => {
  test('never throws on random text, and what it finds is trimmed and non-empty', () => {
    forAll(randomTextOf, (text) => {
      const prompt = parseContinuePrompt(text)
      if (prompt !== undefined) {
        expect(prompt).toBe(prompt.trim())
        expect(prompt).not.toBe('')
      }
    })
  })

  test('finds nothing in text without the header line', () => {
    forAll(proseOf, (text) => expect(parseContinuePrompt(text)).toBeUndefined())
  })

  test('reads back what formatContinuePrompt printed', () => {
    forAll(promptOf, (prompt) => expect(parseContinuePrompt(formatContinuePrompt(prompt))).toBe(expectedPrompt(prompt)))
  })

  test('reads back the block between random prose and text after it, with LF or CRLF line ends', () => {
    forAll(
      (rand) => ({ prompt: promptOf(rand), before: proseOf(rand), after: proseOf(rand), end: rand.pick(LINE_ENDS) }),
      ({ prompt, before, after, end }) => {
        const block = formatContinuePrompt(prompt).replace(/\r?\n/g, end)
        const answer = `${before}${end}${block}${end}${after}${end}${READY_PREFIX} plans/handoffs/HANDOFF_a.md`
        expect(parseContinuePrompt(answer)).toBe(expectedPrompt(prompt))
      },
    )
  })

  test('takes the block after the last header when the answer holds two', () => {
    const answer = [formatContinuePrompt('the old prompt'), 'Then, better:', formatContinuePrompt('the new prompt'), 'Bye.'].join('\n')
    expect(parseContinuePrompt(answer)).toBe('the new prompt')
  })

  test('reads a block whose rules sit inside a code fence', () => {
    const answer = `${CONTINUE_PROMPT_HEADER}\n\n\`\`\`\n---\nRead the handoff.\n---\n\`\`\``
    expect(parseContinuePrompt(answer)).toBe('Read the handoff.')
  })

  test.each([
    ['in backticks', `\`${CONTINUE_PROMPT_HEADER}\``],
    ['in bold', `**${CONTINUE_PROMPT_HEADER}**`],
    ['as a bullet in backticks', `- \`${CONTINUE_PROMPT_HEADER}\``],
  ])('accepts the header %s', (_name, header) => {
    expect(parseContinuePrompt(`${header}\n-----\nRead the handoff.\n-----`)).toBe('Read the handoff.')
  })

  test.each([
    ['text between the header and the first rule', `${CONTINUE_PROMPT_HEADER}\nHere it is:\n---\nRead it.\n---`],
    ['an unclosed block', `${CONTINUE_PROMPT_HEADER}\n---\nRead it.`],
    ['an empty block', `${CONTINUE_PROMPT_HEADER}\n---\n \n\t\n---`],
    ['a header with no block', CONTINUE_PROMPT_HEADER],
    ['two dashes as rules', `${CONTINUE_PROMPT_HEADER}\n--\nRead it.\n--`],
  ])('finds nothing in %s', (_name, answer) => {
    expect(parseContinuePrompt(answer)).toBeUndefined()
  })

  test('stays fast on 100 000-character lines of stars, backticks and dashes', () => {
    const n = 100_000
    const answer = [`x${'*'.repeat(n)}y`, `x${'`'.repeat(n)}y`, `${'-'.repeat(n)}x`, `${' '.repeat(n)}x`].join('\n')
    const started = performance.now()
    parseContinuePrompt(answer)
    parseContinuePrompt(`${CONTINUE_PROMPT_HEADER}\n${answer}`)
    expect(performance.now() - started, 'a quadratic regex takes seconds here').toBeLessThan(1000)
  })
})

/** Path segments: real handoff folders and names, dot segments, blanks, Unicode,
 * the cwd's own names (so `..` can climb out and back in), a Windows drive. */
const SEGMENTS = [
  'plans', 'handoffs', '.claude', 'HANDOFF_a.md', 'PLAN_b-1.md', 'HANDOFF_.md', 'handoff_a.md', 'notes.md',
  '..', '..', '.', '', ' ', 'srv', 'proj', 'other', 'sub', 'é', '🙂', 'C:', 'a b',
] as const
const SEPARATORS = ['/', '/', '\\', '//', '\\/'] as const

function pathOf(rand: Rand): string {
  const count = rand.int(9)
  let path = rand.pick(['', '', '/', '\\', `${CWD}/`, `${CWD}\\`, ' ', './', '../'])
  for (let i = 0; i < count; i++) path += (i === 0 ? '' : rand.pick(SEPARATORS)) + rand.pick(SEGMENTS)
  return path + rand.pick(['', '', '', '/', ' ', '\n'])
}

/** What a path resolves to from CWD, per Node's own POSIX rules (backslashes read as slashes). */
function resolvedOf(path: string): string {
  return posix.resolve(CWD, path.trim().replace(/\\/g, '/'))
}

function isInsideCwd(resolved: string): boolean {
  const rel = posix.relative(CWD, resolved)
  return rel !== '' && !rel.startsWith('..') && !posix.isAbsolute(rel)
}

describe('relativeToCwd', () => {
  test('never throws, and answers a clean relative path that Node resolves to the same place', () => {
    forAll(pathOf, (path) => {
      const rel = relativeToCwd(path, CWD)
      if (rel === undefined) return
      expect(rel.split('/'), 'no empty, "." or ".." segments').not.toContain('')
      expect(rel.split('/')).not.toContain('.')
      expect(rel.split('/')).not.toContain('..')
      expect(rel).not.toMatch(/\\/)
      expect(posix.join(CWD, rel)).toBe(resolvedOf(path))
    })
  })

  test('answers nothing for any path Node resolves outside the session folder', () => {
    forAll(pathOf, (path) => {
      if (!isInsideCwd(resolvedOf(path))) expect(relativeToCwd(path, CWD)).toBeUndefined()
    })
  })

  test.each([
    ['an absolute path inside', `${CWD}/plans/handoffs/HANDOFF_a.md`, 'plans/handoffs/HANDOFF_a.md'],
    ['a relative path', 'plans/handoffs/HANDOFF_a.md', 'plans/handoffs/HANDOFF_a.md'],
    ['backslashes', 'plans\\handoffs\\HANDOFF_a.md', 'plans/handoffs/HANDOFF_a.md'],
    ['a detour out and back in', `${CWD}/../proj/plans/x/../handoffs/./HANDOFF_a.md`, 'plans/handoffs/HANDOFF_a.md'],
    ['a cwd with a trailing slash', 'plans/a.md', 'plans/a.md'],
  ])('resolves %s', (_name, path, rel) => {
    expect(relativeToCwd(path, `${CWD}/`)).toBe(rel)
    expect(relativeToCwd(path, CWD)).toBe(rel)
  })

  test.each([
    ['a sibling folder', '/srv/proj2/plans/handoffs/HANDOFF_a.md'],
    ['a climb out of the folder', '../other/plans/handoffs/HANDOFF_a.md'],
    ['a climb above the file system root', '../../../../srv/proj/plans/handoffs/HANDOFF_a.md'],
    ['the folder itself', CWD],
    ['an empty path', ''],
    ['a blank path', ' \n '],
  ])('answers nothing for %s', (_name, path) => {
    expect(relativeToCwd(path, CWD)).toBeUndefined()
  })
})

function handoffPathOf(rand: Rand): { path: string; relPath: string; kind: 'handoff' | 'plan' } {
  const dir = rand.pick(HANDOFF_DIRS)
  const kind = rand.pick(['handoff', 'plan'] as const)
  const name = `${kind === 'plan' ? 'PLAN' : 'HANDOFF'}_${rand.pick(['a', 'parser-rewrite_2026-11-29', 'x.y_2', '9'])}.md`
  const relPath = `${dir}/${name}`
  const sep = rand.pick(SEPARATORS)
  const detour = rand.pick(['', './', 'sub/../', `../${posix.basename(CWD)}/`])
  const spelled = `${detour}${dir}/${rand.pick(['', './', 'x/../'])}${name}`.split('/').join(sep)
  const path = rand.pick([spelled, `${CWD}${sep}${spelled}`, ` ${spelled} `, `${spelled}${sep}`])
  return { path, relPath, kind }
}

describe('classifyHandoffPath', () => {
  test('classifies every spelling of a handoff or plan file directly under a handoff folder', () => {
    forAll(handoffPathOf, ({ path, relPath, kind }) => {
      expect(classifyHandoffPath(path, CWD)).toEqual({ kind, relPath })
    })
  })

  test('never throws, and what it accepts is a file of our name directly under a handoff folder inside the session', () => {
    forAll(pathOf, (path) => {
      const file = classifyHandoffPath(path, CWD)
      if (file === undefined) return
      const cut = file.relPath.lastIndexOf('/')
      expect(HANDOFF_DIRS).toContain(file.relPath.slice(0, cut))
      expect(fileKindOfName(file.relPath.slice(cut + 1))).toBe(file.kind)
      expect(relativeToCwd(path, CWD)).toBe(file.relPath)
      expect(isInsideCwd(resolvedOf(path)), 'a `..` that escapes the session is never classified').toBe(true)
    })
  })

  test.each([
    ['a nested subfolder', 'plans/handoffs/old/HANDOFF_a.md'],
    ['the handoff folder of another project', '/srv/other/plans/handoffs/HANDOFF_a.md'],
    ['a climb out through `..`', 'plans/handoffs/../../../other/plans/handoffs/HANDOFF_a.md'],
    ['a folder that is not a handoff folder', 'handoffs/HANDOFF_a.md'],
    ['a lowercase prefix', 'plans/handoffs/handoff_a.md'],
    ['a name with nothing after the prefix', 'plans/handoffs/HANDOFF_.md'],
    ['another extension', 'plans/handoffs/HANDOFF_a.txt'],
    ['the folder alone', 'plans/handoffs'],
  ])('rejects %s', (_name, path) => {
    expect(classifyHandoffPath(path, CWD)).toBeUndefined()
  })
})

describe('mayBeHandoffPath', () => {
  test('is true for every path classifyHandoffPath accepts, among random paths', () => {
    forAll(pathOf, (path) => {
      if (classifyHandoffPath(path, CWD) !== undefined) expect(mayBeHandoffPath(path)).toBe(true)
    }, { runs: 20_000 })
  })

  test('is true for every spelling of a handoff path', () => {
    forAll(handoffPathOf, ({ path }) => expect(mayBeHandoffPath(path)).toBe(true))
  })

  test.each([
    ['an ordinary source file', `${CWD}/src/index.ts`],
    ['a markdown file elsewhere', `${CWD}/docs/HANDOFF_guide.md`],
    ['a handoff folder file of another kind', `${CWD}/plans/handoffs/notes.md`],
    ['an empty path', ''],
  ])('lets %s pass without a closer look', (_name, path) => {
    expect(mayBeHandoffPath(path)).toBe(false)
  })

  test('stays fast on a 100 000-character path', () => {
    const started = performance.now()
    mayBeHandoffPath(`/handoffs/HANDOFF_${'.md '.repeat(25_000)}x`)
    mayBeHandoffPath(`${'/handoffs'.repeat(10_000)}/${'/'.repeat(10_000)}x`)
    expect(performance.now() - started).toBeLessThan(1000)
  })
})

describe('fileKindOfName', () => {
  test.each([
    ['HANDOFF_parser-rewrite_2026-11-29.md', 'handoff'],
    ['HANDOFF_parser-rewrite_2026-11-29_2.md', 'handoff'],
    ['PLAN_parser-rewrite_2026-11-29.md', 'plan'],
    ['HANDOFF_a.b.md', 'handoff'],
  ])('reads %s as a %s', (name, kind) => {
    expect(fileKindOfName(name)).toBe(kind)
  })

  test.each(['HANDOFF_.md', 'HANDOFF_-a.md', 'HANDOFF_a b.md', 'HANDOFF_a.MD', 'plan_a.md', 'NOTES_a.md', 'HANDOFF_a.md.bak', 'HANDOFF_é.md', ''])(
    'rejects %j',
    (name) => {
      expect(fileKindOfName(name)).toBeUndefined()
    },
  )
})

describe('fileKindOfRelPath', () => {
  test('a handoff or plan file directly in a handoff folder, nothing else', () => {
    expect(fileKindOfRelPath('plans/handoffs/HANDOFF_x_2026-11-29.md')).toBe('handoff')
    expect(fileKindOfRelPath('.claude/handoffs/PLAN_x_2026-11-29.md')).toBe('plan')
    expect(fileKindOfRelPath('plans/HANDOFF_x.md')).toBeUndefined()
    expect(fileKindOfRelPath('plans/handoffs/old/HANDOFF_x.md')).toBeUndefined()
    expect(fileKindOfRelPath('HANDOFF_x.md')).toBeUndefined()
    expect(fileKindOfRelPath('plans/handoffs/notes.md')).toBeUndefined()
  })
})

describe('the frontmatter values', () => {
  test('seq is a whole number from 1, as written', () => {
    for (const ok of ['1', '2', '10', '123456']) expect(isSeqValue(ok), ok).toBe(true)
    for (const bad of ['0', '01', '-1', '+1', '1.0', '1e0', ' 1', '', 'one']) expect(isSeqValue(bad), bad).toBe(false)
  })

  test('chain is a handoff file name without .md; focus is not blank', () => {
    expect(isChainValue('HANDOFF_x_2026-11-29')).toBe(true)
    expect(isChainValue('PLAN_x_2026-11-29')).toBe(false)
    expect(isChainValue('new')).toBe(false)
    expect(isFocusValue('none')).toBe(true)
    expect(isFocusValue(' \u3000\t')).toBe(false)
  })
})

describe('readFrontmatterOf', () => {
  test('the one-line fields, the line each key is on, and where the body starts', () => {
    const { frontmatter, problems } = readFrontmatterOf('\uFEFF---\nkind: handoff\nfocus: "a: b"\n---\n# Title\n')
    expect(problems).toEqual([])
    expect(frontmatter?.fields).toEqual(new Map([['kind', 'handoff'], ['focus', 'a: b']]))
    expect(frontmatter?.keyLines.get('focus')).toBe(3)
    expect(frontmatter?.bodyStart).toBe(4)
  })

  test('what it cannot read, as problems with the validator\'s rule names where it has them', () => {
    expect(readFrontmatterOf('# no frontmatter\n').problems.map((p) => p.rule)).toEqual(['frontmatter-missing'])
    expect(readFrontmatterOf('---\nkind: handoff\n').problems.map((p) => p.rule)).toEqual(['frontmatter-missing'])
    const { problems } = readFrontmatterOf('---\nkind: handoff\nkind: plan\nfocus: [a, b]\n---\n')
    expect(problems).toEqual([
      { rule: 'frontmatter-yaml', line: 3, message: expect.stringMatching(/"kind" appears twice/) },
      { rule: 'frontmatter-unread', line: 4, message: expect.stringMatching(/not a "key: value" pair/) },
    ])
  })
})
