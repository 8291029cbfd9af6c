// The work's facts recorded by code, their bounds, the stub's section, and the
// files a handoff never mentions.
import { describe, expect, test } from 'vitest'
import {
  MAX_CHANGED_FILES,
  MAX_COMMANDS,
  MAX_FACTS_SECTION_CHARS,
  MAX_READ_FILES,
  NO_FACTS,
  changedNotInHandoff,
  clippedCommandOf,
  factsSectionOf,
  exitCodeOf,
  shownPath,
  withChange,
  withCommand,
  withRead,
} from '../../../packages/compact-handoff/hooks/facts/facts.js'
import { MAX_COMMAND_CHARS } from '../../../packages/compact-handoff/hooks/text/text-clip.js'
import { forAll } from '../../support/property.js'

const CWD = '/srv/app'

describe('recording', () => {
  test('counts changes per file and moves the newest to the end', () => {
    let e = withChange(NO_FACTS, `${CWD}/a.ts`)
    e = withChange(e, `${CWD}/b.ts`)
    e = withChange(e, `${CWD}/a.ts`)
    expect(e.changed).toEqual([
      { path: `${CWD}/b.ts`, count: 1 },
      { path: `${CWD}/a.ts`, count: 2 },
    ])
  })

  test('gives back the same facts for a Read of the newest read, and moves an older one to the end', () => {
    const e = withRead(withRead(NO_FACTS, `${CWD}/a.ts`), `${CWD}/b.ts`)
    expect(withRead(e, `${CWD}/b.ts`), 'nothing new: the caller writes nothing').toBe(e)
    expect(withRead(e, `${CWD}/a.ts`).read).toEqual([`${CWD}/b.ts`, `${CWD}/a.ts`])
  })

  test('keeps only the newest entries of each list', () => {
    let e = NO_FACTS
    for (let i = 0; i < 100; i++) e = withCommand(withRead(withChange(e, `/f${i}`), `/r${i}`), `cmd ${i}`, 0)
    expect(e.changed.length).toBe(MAX_CHANGED_FILES)
    expect(e.read.length).toBe(MAX_READ_FILES)
    expect(e.commands.length).toBe(MAX_COMMANDS)
    expect(e.commands.at(-1)?.line).toBe('cmd 99')
    expect(e.changed[0]?.path).toBe(`/f${100 - MAX_CHANGED_FILES}`)
  })

  test('clips a long command visibly, never inside a surrogate pair', () => {
    forAll(
      (rand) => 'x'.repeat(rand.int(MAX_COMMAND_CHARS + 5)) + '😀'.repeat(rand.int(150)),
      (line) => {
        const clipped = clippedCommandOf(line)
        expect(clipped.length).toBeLessThanOrEqual(MAX_COMMAND_CHARS + 4)
        expect(clipped, 'no lone surrogate').not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/)
        if (line.trim().length > MAX_COMMAND_CHARS) expect(clipped.endsWith(' […]')).toBe(true)
      },
    )
  })

  test('reads the exit status: 0 without error, the code an error names, or unknown', () => {
    expect(exitCodeOf({})).toBe(0)
    expect(exitCodeOf({ isError: true, text: 'Exit code 2\nnpm ERR!' })).toBe(2)
    expect(exitCodeOf({ isError: true, text: 'killed' })).toBeNull()
  })

  test('shows paths inside the session folder relative to it', () => {
    expect(shownPath(`${CWD}/src/a.ts`, CWD)).toBe('src/a.ts')
    expect(shownPath('/etc/hosts', CWD)).toBe('/etc/hosts')
  })

  test('shows a Windows path relative to a Windows folder, in any drive-letter case or separators, and one outside as given', () => {
    const folder = 'C:\\Users\\me\\proj'
    expect(shownPath('c:\\Users\\me\\proj\\src\\a.ts', folder)).toBe('src/a.ts')
    expect(shownPath('C:/Users/me/proj/src\\a.ts', folder)).toBe('src/a.ts')
    expect(shownPath('D:\\data\\b.ts', folder)).toBe('D:\\data\\b.ts')
    expect(shownPath('C:\\Users\\me\\proj2\\b.ts', folder)).toBe('C:\\Users\\me\\proj2\\b.ts')
  })
})

describe("the stub's facts section", () => {
  test('lists changed files, read files and commands, newest first, with exit status', () => {
    let e = withChange(withChange(NO_FACTS, 'src/a.ts'), 'src/a.ts')
    e = withChange(e, 'src/b.ts')
    e = withRead(withRead(e, 'README.md'), 'src/c.ts')
    e = withCommand(withCommand(e, 'pnpm test', 1), 'git status', 0)
    expect(factsSectionOf(e, ['src/b.ts'])?.split('\n')).toEqual([
      'What this session did, recorded by code from its tool calls (facts, not notes):',
      'Changed this session, not in the handoff: src/b.ts',
      'Files changed: src/b.ts, src/a.ts (2×)',
      'Files read: src/c.ts, README.md',
      'Last commands, newest first:',
      '- git status  → exit 0',
      '- pnpm test  → exit 1',
    ])
  })

  test('is absent when nothing was recorded', () => {
    expect(factsSectionOf(NO_FACTS)).toBeUndefined()
  })

  test('stays within its size bound however much was recorded', () => {
    let e = NO_FACTS
    for (let i = 0; i < 100; i++) e = withCommand(withRead(withChange(e, `/very/long/path/${'d'.repeat(150)}/${i}.ts`), `/r/${'x'.repeat(150)}${i}`), clippedCommandOf('y'.repeat(500)), i)
    const section = factsSectionOf(e) ?? ''
    const mark = section.split('\n').at(-1) ?? ''
    expect(section.length - mark.length).toBeLessThanOrEqual(MAX_FACTS_SECTION_CHARS)
    expect(mark.length, 'the mark is bounded too').toBeLessThan(500)
    // 100 commands, the newest MAX_COMMANDS kept; of those the ones that do not fit are counted with them.
    const shown = section.split('\n').filter((l) => l.startsWith('- y')).length
    expect(mark).toMatch(new RegExp(`^- and ${100 - shown} older commands not shown, ${100 - shown - 1} of them failed: y+ \\[…\\] → exit \\d+; `))
    expect(section, 'the lists of paths say how many they left out').toMatch(/^Files changed: .*, and \d+ more \(and 60 changed earlier, not recorded: past the 40 kept\)$/m)
    expect(section).toMatch(/^Files read: .*, and \d+ more$/m)
  })

  test('a list of paths never crowds out the commands and their exit statuses', () => {
    let e = NO_FACTS
    for (let i = 0; i < MAX_READ_FILES; i++) e = withRead(withChange(e, `/very/long/path/${'d'.repeat(150)}/${i}.ts`), `/r/${'x'.repeat(150)}${i}`)
    e = withCommand(withCommand(e, 'pnpm tsc --noEmit', 2), 'git status --short', 0)
    const section = factsSectionOf(e, e.changed.map((c) => c.path)) ?? ''
    expect(section).toContain('- git status --short  → exit 0')
    expect(section).toContain('- pnpm tsc --noEmit  → exit 2')
    expect(section.length).toBeLessThanOrEqual(MAX_FACTS_SECTION_CHARS)
  })

  test('says how many older commands the record let go, how many of them failed and which went to the background', () => {
    let e = withCommand(NO_FACTS, 'pnpm test', 1)
    e = withCommand(e, 'pnpm dev', null, 'b7k2')
    for (let i = 0; i < MAX_COMMANDS; i++) e = withCommand(e, `echo ${i}`, 0)
    expect(e.dropped).toEqual({ commands: 2, failed: 1, background: 1, changed: 0 })
    expect(factsSectionOf(e)?.split('\n').at(-1)).toBe('- and 2 older commands not shown, 1 of them failed, 1 started in the background')
  })

  test('the failures and background shells it leaves out for room are named', () => {
    let e = withCommand(NO_FACTS, `pnpm tsc --noEmit ${'a'.repeat(190)}`, 2)
    e = withCommand(e, `pnpm dev ${'b'.repeat(190)}`, null, 'b7k2')
    for (let i = 0; i < MAX_COMMANDS - 2; i++) e = withCommand(e, `echo ${i} ${'c'.repeat(190)}`, 0)
    const mark = factsSectionOf(e)?.split('\n').at(-1) ?? ''
    expect(mark).toMatch(/^- and \d+ older commands not shown, 1 of them failed: pnpm tsc --noEmit a+ \[…\] → exit 2, 1 started in the background: pnpm dev b+ \[…\] → started in the background as shell b7k2$/)
  })
})

describe('files changed but not in the handoff', () => {
  const handoff = ['## Goal', 'x', '## Files', '- src/parser.ts', '- tokenizer.ts (whole file)', '## Next step', 'src/other.ts is mentioned here only'].join('\n')

  test('names only those the Files section mentions by neither path nor name', () => {
    let e = NO_FACTS
    for (const p of ['src/parser.ts', 'src/lib/tokenizer.ts', 'src/other.ts', 'plans/handoffs/HANDOFF_a.md']) e = withChange(e, p)
    expect(changedNotInHandoff(e, handoff, ['plans/handoffs/HANDOFF_a.md'])).toEqual(['src/other.ts'])
  })

  test('finds the name of a Windows path outside the folder after its last backslash', () => {
    const e = withChange(withChange(NO_FACTS, 'D:\\shared\\tokenizer.ts'), 'D:\\shared\\elsewhere.ts')
    expect(changedNotInHandoff(e, handoff, [])).toEqual(['D:\\shared\\elsewhere.ts'])
  })
})
