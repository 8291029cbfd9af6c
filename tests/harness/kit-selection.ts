/**
 * What `pnpm kit <path>…` runs: each named test file or folder taken to the mod it belongs
 * to, and the test files of that mod it keeps. `claude plugin test` runs every test under a
 * mod's folder, so a focused run stages a copy of the mod holding only these.
 */

/** A mod whose kit tests `pnpm kit` runs, by its folder in the repository. */
export const KIT_MODS = ['packages/compact-handoff', 'packages/compact-handoff-answer'] as const

export interface KitSelection {
  /** The mod's folder, as in `KIT_MODS`. */
  mod: string
  /** Its test files to keep, repository-relative, in the order the mod lists them. */
  kept: string[]
}

export type KitSelectionResult = { isSelected: true; selections: KitSelection[] } | { isSelected: false; problem: string }

const TEST_FILE_RE = /\.test\.tsx?$/

export function isKitTestFile(relPath: string): boolean {
  return TEST_FILE_RE.test(relPath)
}

/** `named`: repository-relative paths with `/` separators, a trailing `/` or none. */
export function kitSelectionOf(named: readonly string[], testFilesOf: (mod: string) => readonly string[]): KitSelectionResult {
  const kept = new Map<string, Set<string>>()
  for (const raw of named) {
    const path = raw.replace(/\/+$/, '')
    const mod = KIT_MODS.find((m) => path === m || path.startsWith(m + '/'))
    if (mod === undefined) {
      return { isSelected: false, problem: `${raw} is not in a mod's folder (${KIT_MODS.join(', ')}); vitest runs the tests in tests/: pnpm vitest run ${raw}` }
    }
    const matches = testFilesOf(mod).filter((f) => f === path || f.startsWith(path + '/'))
    if (matches.length === 0) {
      return { isSelected: false, problem: `${raw} names no kit test file (*.test.ts) of ${mod}` }
    }
    const set = kept.get(mod) ?? new Set<string>()
    for (const f of matches) set.add(f)
    kept.set(mod, set)
  }
  const selections = KIT_MODS.filter((m) => kept.has(m)).map((mod) => ({ mod, kept: testFilesOf(mod).filter((f) => kept.get(mod)!.has(f)) }))
  return { isSelected: true, selections }
}
