// Judging the input record the wiring gathered about a handoff or plan file on disk:
// every problem names the file, a good file written in this run passes, and
// safety refusals are told apart from the fixes a repair turn may make.
import { describe, expect, test } from 'vitest'
import { runFixture, type FixtureFile } from '../../support/run-fixture.js'
import { fileReportOf, isReadable, problemLinesOf, resumeProblemsOf, type FileInput, type FileStat } from '../../../packages/compact-handoff/hooks/run/file-check.js'
import { HANDOFF_SECTIONS } from '../../../packages/compact-handoff/hooks/protocol/handoff-spec.js'
import { MAX_HANDOFF_BYTES } from '../../../packages/compact-handoff/hooks/protocol/protocol-contents.js'
import type { HandoffPath } from '../../../packages/compact-handoff/hooks/protocol/protocol-paths.js'
import type { Run } from '../../../packages/compact-handoff/hooks/run/run.js'
import { handoffTextOf, planTextOf } from '../../support/handoff-text.js'

const CWD_REAL = '/home/dev/proj'
const STARTED_MS = 50_000
const HANDOFF: HandoffPath = { kind: 'handoff', relPath: 'plans/handoffs/HANDOFF_parser_2026-11-29.md' }
const PLAN: HandoffPath = { kind: 'plan', relPath: '.claude/handoffs/PLAN_parser_2026-11-29.md' }

function runWith(files: FixtureFile[]): Run {
  return runFixture({ startedAtMs: STARTED_MS, files })
}

/** Every problem as one line, as an abort lists them. */
function fileProblemsOf(input: FileInput, run: Run): string[] {
  return problemLinesOf(fileReportOf(input, run))
}

function statOf(file: HandoffPath, changes: Partial<FileStat> = {}): FileStat {
  return { kind: 'file', size: 2_000, mtimeMs: STARTED_MS + 10, realPath: `${CWD_REAL}/${file.relPath}`, ...changes }
}

function fileInputOf(file: HandoffPath, changes: Partial<FileInput> = {}): FileInput {
  return { file, stat: statOf(file), cwdRealPath: CWD_REAL, ignoresCase: false, text: file.kind === 'plan' ? planTextOf() : handoffTextOf(), ...changes }
}

describe('fileProblemsOf on a good file', () => {
  test('finds nothing wrong with a handoff written in this run', () => {
    expect(fileProblemsOf(fileInputOf(HANDOFF), runWith([HANDOFF]))).toEqual([])
  })

  test('finds nothing wrong with a plan written in this run', () => {
    expect(fileProblemsOf(fileInputOf(PLAN), runWith([PLAN]))).toEqual([])
  })

  test('accepts a recorded file whose time stamp is older than the run', () => {
    const input = fileInputOf(HANDOFF, { stat: statOf(HANDOFF, { mtimeMs: STARTED_MS - 60_000 }) })
    expect(fileProblemsOf(input, runWith([HANDOFF]))).toEqual([])
  })

  test('asks for an unrecorded file changed during the run to be written with Write: only what the skill wrote is swapped in', () => {
    const input = fileInputOf(HANDOFF, { stat: statOf(HANDOFF, { mtimeMs: STARTED_MS }) })
    expect(fileReportOf(input, runWith([]))).toEqual({
      refusals: [],
      fixes: [{ path: HANDOFF.relPath, problems: ['was not written with the Write tool in this run: write the whole file again with the Write tool'] }],
    })
  })

  test('refuses a file this run only changed with Edit, never wrote whole: an Edit keeps what a stranger wrote around it', () => {
    const edited = `${HANDOFF.relPath} was changed with Edit in this run but never written whole with the Write tool: only a file this run wrote whole is swapped in`
    // A cloned handoff older than the run, and one whose time stamp the Edit made new.
    for (const mtimeMs of [STARTED_MS - 60_000, STARTED_MS + 10]) {
      expect(fileReportOf(fileInputOf(HANDOFF, { stat: statOf(HANDOFF, { mtimeMs }) }), runWith([{ ...HANDOFF, wrote: 'edited' }]))).toEqual({ refusals: [edited], fixes: [] })
    }
    expect(fileProblemsOf(fileInputOf(HANDOFF), runWith([{ ...HANDOFF, wrote: 'whole' }])), 'written whole, then Edited: recorded as whole').toEqual([])
  })

  test('accepts a session folder given with a trailing slash or backslashes', () => {
    expect(fileProblemsOf(fileInputOf(HANDOFF, { cwdRealPath: `${CWD_REAL}/` }), runWith([HANDOFF]))).toEqual([])
    const windows = fileInputOf(HANDOFF, {
      cwdRealPath: 'C:\\dev\\proj',
      stat: statOf(HANDOFF, { realPath: 'C:\\dev\\proj\\plans\\handoffs\\HANDOFF_parser_2026-11-29.md' }),
    })
    expect(fileProblemsOf(windows, runWith([HANDOFF]))).toEqual([])
  })
})

describe('fileProblemsOf where the file system ignores letter case', () => {
  const outside = `${HANDOFF.relPath} resolves outside plans/handoffs/ and .claude/handoffs/ of this project`
  const windowsInput = (realPath: string) => fileInputOf(HANDOFF, { cwdRealPath: 'C:\\Users\\me\\proj', ignoresCase: true, stat: statOf(HANDOFF, { realPath }) })

  test('on Windows, takes a real path of another drive-letter or folder case, and still refuses every other place', () => {
    expect(fileProblemsOf(windowsInput('c:\\users\\ME\\proj\\Plans\\handoffs\\HANDOFF_parser_2026-11-29.md'), runWith([HANDOFF]))).toEqual([])
    expect(fileProblemsOf(windowsInput('\\\\?\\C:\\Users\\me\\proj\\plans\\handoffs\\HANDOFF_parser_2026-11-29.md'), runWith([HANDOFF])), 'a long-form real path').toEqual([])
    for (const elsewhere of [
      'C:\\Users\\me\\proj2\\plans\\handoffs\\HANDOFF_parser_2026-11-29.md',
      'D:\\Users\\me\\proj\\plans\\handoffs\\HANDOFF_parser_2026-11-29.md',
      '\\\\?\\C:\\Users\\me\\proj\\plans\\..\\plans\\handoffs\\HANDOFF_parser_2026-11-29.md',
      '\\\\server\\share\\Users\\me\\proj\\plans\\handoffs\\HANDOFF_parser_2026-11-29.md',
    ]) expect(fileProblemsOf(windowsInput(elsewhere), runWith([HANDOFF])), elsewhere).toEqual([outside])
  })

  test('on macOS by default, takes a real path of another folder case; a file system that keeps case does not', () => {
    const mac = fileInputOf(HANDOFF, { cwdRealPath: '/Users/me/proj', ignoresCase: true, stat: statOf(HANDOFF, { realPath: '/Users/me/Proj/plans/handoffs/HANDOFF_parser_2026-11-29.md' }) })
    expect(fileProblemsOf(mac, runWith([HANDOFF]))).toEqual([])
    expect(fileProblemsOf({ ...mac, ignoresCase: false }, runWith([HANDOFF]))).toEqual([outside])
  })
})

describe('fileProblemsOf on a file that must not be used', () => {
  const name = HANDOFF.relPath
  const outside = `${name} resolves outside plans/handoffs/ and .claude/handoffs/ of this project`

  test('asks for a missing file to be written', () => {
    expect(fileReportOf(fileInputOf(HANDOFF, { stat: undefined, text: undefined }), runWith([HANDOFF]))).toEqual({
      refusals: [],
      fixes: [{ path: name, problems: ['does not exist: write it with the Write tool'] }],
    })
  })

  test('counts where a file is, who wrote it and its size as refusals, never as fixes', () => {
    const unsafe: FileInput[] = [
      fileInputOf(HANDOFF, { stat: statOf(HANDOFF, { kind: 'dir' }) }),
      fileInputOf(HANDOFF, { stat: statOf(HANDOFF, { realPath: '/etc/passwd' }) }),
      fileInputOf(HANDOFF, { stat: statOf(HANDOFF, { size: MAX_HANDOFF_BYTES + 1 }), text: undefined }),
    ]
    for (const input of unsafe) expect(fileReportOf(input, runWith([HANDOFF])).fixes).toEqual([])
    const old = fileInputOf(HANDOFF, { stat: statOf(HANDOFF, { mtimeMs: STARTED_MS - 1 }) })
    expect(fileReportOf(old, runWith([])).fixes).toEqual([])
  })

  test('counts format problems as fixes', () => {
    const text = handoffTextOf().replace(/## Verify[\s\S]*$/, '')
    const report = fileReportOf(fileInputOf(HANDOFF, { text }), runWith([HANDOFF]))
    expect(report.refusals).toEqual([])
    expect(report.fixes[0]?.problems.length).toBeGreaterThan(0)
  })

  test.each(['dir', 'other'] as const)('refuses a %s in place of a file', (kind) => {
    expect(fileProblemsOf(fileInputOf(HANDOFF, { stat: statOf(HANDOFF, { kind }) }), runWith([HANDOFF]))).toEqual([`${name} is not a regular file`])
  })

  test.each([
    ['a symlink to a file elsewhere', '/etc/passwd'],
    ['a symlink to another project', '/home/dev/other/plans/handoffs/HANDOFF_parser_2026-11-29.md'],
    ['a folder whose name only starts like the project', '/home/dev/proj2/plans/handoffs/HANDOFF_parser_2026-11-29.md'],
    ['a nested subfolder of a handoff folder', `${CWD_REAL}/plans/handoffs/old/HANDOFF_parser_2026-11-29.md`],
    ['the project folder itself', `${CWD_REAL}/HANDOFF_parser_2026-11-29.md`],
  ])('refuses %s', (_name, realPath) => {
    expect(fileProblemsOf(fileInputOf(HANDOFF, { stat: statOf(HANDOFF, { realPath }) }), runWith([HANDOFF]))).toEqual([outside])
  })

  test('refuses a file whose real path is unknown', () => {
    expect(fileProblemsOf(fileInputOf(HANDOFF, { stat: statOf(HANDOFF, { realPath: undefined }) }), runWith([HANDOFF]))).toEqual([outside])
  })

  test('refuses an unrecorded file older than the run', () => {
    const input = fileInputOf(HANDOFF, { stat: statOf(HANDOFF, { mtimeMs: STARTED_MS - 1 }) })
    expect(fileProblemsOf(input, runWith([]))).toEqual([`${name} was not written during this run (it is older than the run)`])
  })

  test('refuses a file over the size cap without reading it', () => {
    const input = fileInputOf(HANDOFF, { stat: statOf(HANDOFF, { size: MAX_HANDOFF_BYTES + 1 }), text: undefined })
    expect(fileProblemsOf(input, runWith([HANDOFF]))).toEqual([`${name} is ${MAX_HANDOFF_BYTES + 1} bytes, over the ${MAX_HANDOFF_BYTES}-byte cap`])
  })

  test('refuses a file that could not be read', () => {
    expect(fileProblemsOf(fileInputOf(HANDOFF, { text: undefined }), runWith([HANDOFF]))).toEqual([`${name} could not be read`])
  })

  test('refuses a file too short to carry a session, each problem naming the file', () => {
    const problems = fileProblemsOf(fileInputOf(HANDOFF, { text: '# Handoff\n\nAll fine.\n' }), runWith([HANDOFF]))
    expect(problems.length).toBeGreaterThan(0)
    for (const problem of problems) expect(problem.startsWith(`${name}: `), problem).toBe(true)
    expect(problems.some((p) => p.includes('non-blank characters')), problems.join('\n')).toBe(true)
  })

  test('refuses a handoff missing a required section', () => {
    const text = handoffTextOf().replace(/## Verify[\s\S]*$/, '')
    expect(fileProblemsOf(fileInputOf(HANDOFF, { text }), runWith([HANDOFF]))).toContain(
      `${name}: missing section "## Verify": add it after "## Next step" (write "None" when there is nothing to say)`,
    )
  })

  test('refuses a plan text saved under a handoff name', () => {
    const problems = fileProblemsOf(fileInputOf(HANDOFF, { text: planTextOf() }), runWith([HANDOFF]))
    expect(problems.length).toBeGreaterThan(0)
    for (const problem of problems) expect(problem.startsWith(`${name}: `), problem).toBe(true)
  })
})

describe('isReadable', () => {
  test('reads a regular file up to the cap', () => {
    expect(isReadable(statOf(HANDOFF, { size: 0 }))).toBe(true)
    expect(isReadable(statOf(HANDOFF, { size: MAX_HANDOFF_BYTES }))).toBe(true)
  })

  test('does not read a missing file, a folder or a file over the cap', () => {
    expect(isReadable(undefined)).toBe(false)
    expect(isReadable(statOf(HANDOFF, { kind: 'dir' }))).toBe(false)
    expect(isReadable(statOf(HANDOFF, { kind: 'other' }))).toBe(false)
    expect(isReadable(statOf(HANDOFF, { size: MAX_HANDOFF_BYTES + 1 }))).toBe(false)
  })
})

describe('a refusal of the one rule for project files (disk/disk-rule.ts)', () => {
  const why = 'plans/handoffs is a symbolic link, and compact-handoff never writes or reads through one'
  test('ends the run before anything else, even for a file that is not there (a repair would write through the link)', () => {
    expect(fileReportOf(fileInputOf(HANDOFF, { diskRefusal: why }), runWith([HANDOFF]))).toEqual({ refusals: [why], fixes: [] })
    expect(fileReportOf(fileInputOf(HANDOFF, { diskRefusal: why, stat: undefined, text: undefined }), runWith([HANDOFF]))).toEqual({ refusals: [why], fixes: [] })
  })

  test('keeps a handoff from being resumed', () => {
    expect(resumeProblemsOf(fileInputOf(HANDOFF, { diskRefusal: why }), '/home/dev/proj')).toEqual([why])
  })
})

describe('a handoff missing a section', () => {
  const last = HANDOFF_SECTIONS[HANDOFF_SECTIONS.length - 1]!
  const shortText = handoffTextOf().replace(new RegExp(`## ${last}\\n\\n[^\\n]*\\n`), '')

  test('is not resumed, and a run never swaps it in', () => {
    expect(resumeProblemsOf(fileInputOf(HANDOFF, { text: shortText }), CWD_REAL)).toEqual([expect.stringContaining(`missing section "## ${last}"`)])
    expect(fileProblemsOf(fileInputOf(HANDOFF, { text: shortText }), runWith([HANDOFF]))).toEqual([expect.stringContaining(`missing section "## ${last}"`)])
  })

  test('a whole one is resumed', () => {
    expect(resumeProblemsOf(fileInputOf(HANDOFF), CWD_REAL)).toEqual([])
  })
})
