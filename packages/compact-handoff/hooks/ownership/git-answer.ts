// What git's answer about a handoff file is worth. Only an answer git gave with
// exit 0 is a fact: `$.process.run` rejects when git cannot start (not
// installed), git exits 128 when it cannot read the folder (no repository,
// "dubious ownership") or the path lies inside a submodule, and a child ended
// by a signal reads as exit 1. Each of those is "git could not say", which is
// never taken to mean "not tracked".

/** undefined when `$.process.run` rejected (git could not start). */
export type GitRun = { exitCode: number; stdout: string; stderr: string } | undefined

export type Tracking = { kind: 'tracked'; by: string } | { kind: 'untracked' } | { kind: 'unknown'; why: string }

/** Lists `relPath` if git tracks it, and exits 0 either way when git can read
 * the folder (unlike `--error-unmatch`, whose "not tracked" is an exit 1 that a
 * killed child also reads as). Pathspecs are literal: a name is never a pattern. */
export function listArgvOf(relPath: string): string[] {
  return ['git', '--literal-pathspecs', 'ls-files', '-z', '--', relPath]
}

export function lastCommitArgvOf(relPath: string): string[] {
  return ['git', '--literal-pathspecs', 'log', '-1', '--format=%an, %ad', '--date=short', '--', relPath]
}

/** git's first line of complaint, cut: enough to tell the person why. */
const MAX_WHY_CHARS = 160

function whyOf(run: GitRun): string {
  if (run === undefined) return 'git could not be run'
  const cut = run.stderr.indexOf('\n')
  const first = (cut < 0 ? run.stderr : run.stderr.slice(0, cut)).trim().slice(0, MAX_WHY_CHARS)
  return first === '' ? `git exited with ${run.exitCode}` : `git exited with ${run.exitCode}: ${first}`
}

/** A tracked file's committer comes from committerOf (asked only for a tracked file). */
export function listingOf(listed: GitRun): { kind: 'tracked' } | Exclude<Tracking, { kind: 'tracked' }> {
  if (listed === undefined || listed.exitCode !== 0) return { kind: 'unknown', why: whyOf(listed) }
  return listed.stdout === '' ? { kind: 'untracked' } : { kind: 'tracked' }
}

export function committerOf(lastCommit: GitRun): string {
  const who = lastCommit?.exitCode === 0 ? lastCommit.stdout.trim() : ''
  return who === '' ? 'an unknown author' : who
}

/** Why a resume must ask first, as a clause after the file's name; undefined
 * only when git said the file is not tracked. */
export function doubtOf(tracking: Tracking): string | undefined {
  if (tracking.kind === 'untracked') return undefined
  return tracking.kind === 'tracked' ? `is tracked by git, last committed by ${tracking.by}` : `could not be checked with git (${tracking.why})`
}
