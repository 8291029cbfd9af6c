// What git's answer about a handoff file is worth: only an answer git gave with
// exit 0 is a fact. A missing git, a folder git refuses to read ("dubious
// ownership", exit 128), a path in a submodule, or a child ended by a signal
// (read as exit 1) all mean "git could not say", never "not tracked".
import { describe, expect, test } from 'vitest'
import { committerOf, doubtOf, lastCommitArgvOf, listArgvOf, listingOf, type GitRun } from '../../../packages/compact-handoff/hooks/resume/resume.js'

const REL = 'plans/handoffs/HANDOFF_x_2026-11-30.md'

function ran(exitCode: number, stdout = '', stderr = ''): GitRun {
  return { exitCode, stdout, stderr }
}

describe('listingOf', () => {
  test('tracked only when git listed the file, untracked only when git answered and listed nothing', () => {
    expect(listingOf(ran(0, `${REL}\0`))).toEqual({ kind: 'tracked' })
    expect(listingOf(ran(0, ''))).toEqual({ kind: 'untracked' })
  })

  test.each([
    ['git is not installed (the call rejected)', undefined, 'git could not be run'],
    ['a folder git refuses to read', ran(128, '', "fatal: detected dubious ownership in repository at '/srv/x'\nTo add an exception…"), "git exited with 128: fatal: detected dubious ownership in repository at '/srv/x'"],
    ['a path inside a submodule', ran(128, '', "fatal: Pathspec 'sub/x.md' is in submodule 'sub'\n"), "git exited with 128: fatal: Pathspec 'sub/x.md' is in submodule 'sub'"],
    ['a folder that is no repository', ran(128, '', 'fatal: not a git repository (or any of the parent directories): .git\n'), 'git exited with 128: fatal: not a git repository (or any of the parent directories): .git'],
    ['a child ended by a signal, which reads as exit 1', ran(1), 'git exited with 1'],
  ])('could not say when %s', (_name, run, why) => {
    expect(listingOf(run)).toEqual({ kind: 'unknown', why })
  })

  test('keeps only the first line of what git said, cut short', () => {
    const listing = listingOf(ran(128, '', `fatal: ${'x'.repeat(10_000)}\nmore`))
    expect(listing.kind === 'unknown' && listing.why.length).toBeLessThanOrEqual('git exited with 128: '.length + 160)
  })
})

describe('the git calls', () => {
  test('never read a file name as a pattern, and list without --error-unmatch (whose "not tracked" is an exit 1 a killed child shares)', () => {
    expect(listArgvOf(REL)).toEqual(['git', '--literal-pathspecs', 'ls-files', '-z', '--', REL])
    expect(lastCommitArgvOf(REL)).toEqual(['git', '--literal-pathspecs', 'log', '-1', '--format=%an, %ad', '--date=short', '--', REL])
  })

  test('name the last committer, or an unknown author when git could not say', () => {
    expect(committerOf(ran(0, 'Someone Else, 2026-11-20\n'))).toBe('Someone Else, 2026-11-20')
    expect(committerOf(ran(128, '', 'fatal'))).toBe('an unknown author')
    expect(committerOf(undefined)).toBe('an unknown author')
  })
})

describe('doubtOf', () => {
  test('asks first unless git said the file is not tracked', () => {
    expect(doubtOf({ kind: 'untracked' })).toBeUndefined()
    expect(doubtOf({ kind: 'tracked', by: 'Someone Else, 2026-11-20' })).toBe('is tracked by git, last committed by Someone Else, 2026-11-20')
    expect(doubtOf({ kind: 'unknown', why: 'git could not be run' })).toBe('could not be checked with git (git could not be run)')
  })
})
