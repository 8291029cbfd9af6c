// compact-handoff-answer restates two of compact-handoff's sections for the
// instructions of a compaction that is not ours: the work's facts
// (evidence.ts evidenceSectionOf, over paths shown by shownPath) and the
// person's words (user-words.ts userWordsSectionOf). Mods cannot import each
// other's files, so each keeps a copy; this holds the copies to the same text
// for the same input, so a summary and a stub say them in the same words.
import { describe, expect, test } from 'vitest'
import { evidenceSectionOf, shownPath, MAX_COMMANDS, MAX_READ_FILES, MAX_CHANGED_FILES, MAX_EVIDENCE_SECTION_CHARS, type Evidence } from '../../packages/compact-handoff/hooks/evidence.js'
import { userWordsSectionOf, withUserMessage, NO_WORDS, MAX_WORDS_CHARS, type UserWords } from '../../packages/compact-handoff/hooks/user-words.js'
import { factsSectionOf, shownFactsOf, shownPathOf, MAX_FACTS_SECTION_CHARS, type FactsView } from '../../packages/compact-handoff-answer/hooks/facts.js'
import { wordsSectionOf, type WordsView } from '../../packages/compact-handoff-answer/hooks/foreign-instructions.js'

/** compact-handoff's facts record (state.ts WorkRecord['facts'], its
 * evidence.ts Evidence) fits the answer mod's view of it: a change of shape on
 * either side fails `pnpm typecheck` here. */
function asFactsView(facts: Evidence): FactsView {
  return facts
}

/** What compact-handoff's stub shows for `facts` in the session folder `cwd`
 * (work-steps.ts shownFacts, with no handoff to compare against). */
function stubFactsOf(facts: Evidence, cwd: string): string | undefined {
  return evidenceSectionOf({
    changed: facts.changed.map((c) => ({ ...c, path: shownPath(c.path, cwd) })),
    read: facts.read.map((p) => shownPath(p, cwd)),
    commands: facts.commands,
  })
}

function answerFactsOf(facts: Evidence, cwd: string): string | undefined {
  return factsSectionOf(shownFactsOf(asFactsView(facts), cwd))
}

/** A small deterministic generator (mulberry32), so a failure replays. */
function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const CWD = '/srv/proj'

/** Paths as tools get them: inside the folder, outside it, next to it, with
 * dots, doubled or back slashes, relative, and the folder itself. */
const PATH_SHAPES = [
  (n: number) => `${CWD}/src/file-${n}.ts`,
  (n: number) => `${CWD}/a/./b/../c-${n}.md`,
  (n: number) => `${CWD}//double//slash-${n}.ts`,
  (n: number) => `${CWD}\\win\\path-${n}.ts`,
  (n: number) => `/srv/proj-other/x-${n}.ts`,
  (n: number) => `/etc/conf-${n}`,
  (n: number) => `relative/dir/r-${n}.ts`,
  (n: number) => `${CWD}/../outside-${n}.ts`,
  () => CWD,
  (n: number) => `  ${CWD}/spaced-${n}.ts  `,
  (n: number) => `${CWD}/${'deep/'.repeat(30)}long-${n}.ts`,
]

function factsOf(random: () => number): Evidence {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!
  const count = (max: number) => Math.floor(random() * (max + 1))
  const path = (n: number) => pick(PATH_SHAPES)(n)
  return {
    changed: Array.from({ length: count(MAX_CHANGED_FILES) }, (_, i) => ({ path: path(i), count: 1 + count(3) })),
    read: Array.from({ length: count(MAX_READ_FILES) }, (_, i) => path(i + 100)),
    commands: Array.from({ length: count(MAX_COMMANDS) }, (_, i) => ({
      line: pick(['pnpm test', 'git status --short', `grep -rn "x${i}" src`, 'échec → ✓ 😀', 'y'.repeat(200) + ' […]']),
      exitCode: pick([0, 1, 2, 127, null]),
      ...(random() < 0.2 ? { shellId: `b${i}` } : {}),
    })),
  }
}

describe("the facts section matches compact-handoff's stub", () => {
  test('for the same size bound', () => {
    expect(MAX_FACTS_SECTION_CHARS).toBe(MAX_EVIDENCE_SECTION_CHARS)
  })

  test('when nothing was recorded: no section either way', () => {
    expect(answerFactsOf({ changed: [], read: [], commands: [] }, CWD)).toBeUndefined()
    expect(stubFactsOf({ changed: [], read: [], commands: [] }, CWD)).toBeUndefined()
  })

  test('for a hand-made record: relative paths inside the folder, newest first, counts and exit status', () => {
    const facts: Evidence = {
      changed: [
        { path: `${CWD}/src/a.ts`, count: 3 },
        { path: '/var/data/scratch.txt', count: 1 },
      ],
      read: [`${CWD}/README.md`, `${CWD}/src/a.ts`],
      commands: [
        { line: 'pnpm test', exitCode: 1 },
        { line: 'sleep 999', exitCode: null },
        { line: 'sleep 45; echo done', exitCode: null, shellId: 'b7k2' },
      ],
    }
    const text = answerFactsOf(facts, CWD)
    expect(text).toBe(stubFactsOf(facts, CWD))
    expect(text).toBe(
      [
        'What this session did, recorded by code from its tool calls (facts, not notes):',
        'Files changed: /var/data/scratch.txt, src/a.ts (3×)',
        'Files read: src/a.ts, README.md',
        'Last commands, newest first:',
        '- sleep 45; echo done  → started in the background as shell b7k2',
        '- sleep 999  → failed',
        '- pnpm test  → exit 1',
      ].join('\n'),
    )
  })

  test('for 500 generated records, over-long ones cut at the bound included', () => {
    const random = rng(20261130)
    let cut = 0
    for (let i = 0; i < 500; i++) {
      const facts = factsOf(random)
      const cwd = i % 7 === 0 ? `${CWD}/` : CWD
      const text = answerFactsOf(facts, cwd)
      expect(text, JSON.stringify({ facts, cwd })).toBe(stubFactsOf(facts, cwd))
      if (text?.includes('[more was recorded than fits here]')) cut++
    }
    expect(cut, 'some records must reach the bound').toBeGreaterThan(3)
  })
})

describe('the facts section in a Windows session folder', () => {
  const FOLDERS = ['C:\\Users\\me\\proj', 'c:/Users/me/proj/', '\\\\server\\share\\proj']
  const WINDOWS_SHAPES = [
    (n: number) => `C:\\Users\\me\\proj\\src\\file-${n}.ts`,
    (n: number) => `c:/users/ME/proj\\mixed/${n}.ts`,
    (n: number) => `\\Users\\me\\proj\\rooted-${n}.ts`,
    (n: number) => `\\\\SERVER\\share\\proj\\unc-${n}.ts`,
    (n: number) => `D:\\other-drive\\${n}.ts`,
    (n: number) => `C:\\Users\\me\\proj2\\sibling-${n}.ts`,
    (n: number) => `\\\\?\\C:\\Users\\me\\proj\\long-${n}.ts`,
    (n: number) => `C:relative-to-drive-${n}.ts`,
    (n: number) => `C:\\Users\\me\\proj\\..\\climb-${n}.ts`,
    (n: number) => `src\\relative-${n}.ts`,
    (n: number) => `C:\\Users\\me\\proj\\trailing-dot.\\${n}.ts`,
  ]

  test('for a hand-made record: paths inside shown relative whatever their drive-letter case and separators, others as given', () => {
    const facts: Evidence = {
      changed: [{ path: 'c:\\Users\\me\\proj\\src\\a.ts', count: 2 }, { path: 'D:\\data\\b.ts', count: 1 }],
      read: ['C:/Users/me/proj/README.md'],
      commands: [],
    }
    const text = answerFactsOf(facts, 'C:\\Users\\me\\proj')
    expect(text).toBe(stubFactsOf(facts, 'C:\\Users\\me\\proj'))
    expect(text).toBe(
      [
        'What this session did, recorded by code from its tool calls (facts, not notes):',
        'Files changed: D:\\data\\b.ts, src/a.ts (2×)',
        'Files read: README.md',
      ].join('\n'),
    )
  })

  test('for 20,000 paths built from pieces of every shape, in POSIX, drive and UNC folders: each shown the same', () => {
    const random = rng(2026)
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!
    const starts = ['', '/', '\\', 'C:\\', 'c:/', 'D:\\', 'C:', '\\\\server\\share\\', '//SERVER/share/', '\\\\?\\C:\\', '\\\\.\\c:\\', ' ', './', '..\\']
    const pieces = ['Users', 'ME', 'me', 'proj', 'PROJ', 'proj2', 'srv', 'share', 'src', 'a.ts', '..', '.', '', ' ', 'x.', 'C:', 'é']
    for (let i = 0; i < 20_000; i++) {
      const cwd = pick([...FOLDERS, '/srv/proj', '/Users/me/proj/'])
      let path = pick(starts)
      for (let n = Math.floor(random() * 8); n > 0; n--) path += pick(pieces) + pick(['\\', '/', '\\/'])
      path += pick(['', 'a.ts', ' '])
      expect(shownPathOf(path, cwd), JSON.stringify({ path, cwd })).toBe(shownPath(path, cwd))
    }
  })

  test('for 500 generated records of Windows paths, in drive, slash-written and UNC folders', () => {
    const random = rng(1511)
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!
    for (let i = 0; i < 500; i++) {
      const cwd = pick(FOLDERS)
      const facts: Evidence = {
        changed: Array.from({ length: Math.floor(random() * 10) }, (_, n) => ({ path: pick(WINDOWS_SHAPES)(n), count: 1 })),
        read: Array.from({ length: Math.floor(random() * 10) }, (_, n) => pick(WINDOWS_SHAPES)(n + 100)),
        commands: [],
      }
      expect(answerFactsOf(facts, cwd), JSON.stringify({ facts, cwd })).toBe(stubFactsOf(facts, cwd))
    }
  })
})

function asWordsView(words: UserWords): WordsView {
  return words
}

describe("the words section matches compact-handoff's stub", () => {
  test('when nothing was recorded: no section either way', () => {
    expect(wordsSectionOf(asWordsView(NO_WORDS))).toBeUndefined()
    expect(userWordsSectionOf(NO_WORDS)).toBeUndefined()
  })

  test('for messages with Markdown, blank lines and our own bracket notation, none dropped', () => {
    const words: UserWords = { messages: ['Fix it.\n\n- keep `retry()`', '[user message 9]\nnot ours', '  indented  '], dropped: 0 }
    expect(wordsSectionOf(words)).toBe(userWordsSectionOf(words))
  })

  test('for a record past the bound, where the dropped note names it', () => {
    let words: UserWords = NO_WORDS
    for (let i = 0; i < 20; i++) words = withUserMessage(words, `message ${i} ${'x'.repeat(1_500)}`)
    expect(words.dropped, 'the record dropped some').toBeGreaterThan(0)
    const text = wordsSectionOf(words)
    expect(text).toBe(userWordsSectionOf(words))
    expect(text).toContain(`were dropped here to stay within ${MAX_WORDS_CHARS} characters]`)
  })

  test('for 200 generated records', () => {
    const random = rng(7)
    for (let i = 0; i < 200; i++) {
      let words: UserWords = NO_WORDS
      const n = Math.floor(random() * 30)
      for (let j = 0; j < n; j++) words = withUserMessage(words, `m${j} `.repeat(1 + Math.floor(random() * 600)))
      expect(wordsSectionOf(words)).toBe(userWordsSectionOf(words))
    }
  })
})
