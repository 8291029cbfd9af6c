// The answer mod's pure code reads user-written text inside its hooks (a typed
// answer to its question), so it must be linear in it: the engine unloads a mod whose hook runs ~5 s
// without yielding. Each function gets single lines of 250,000 characters in
// shapes that make backtracking regexes quadratic; linear code takes
// milliseconds, so only the order of magnitude is guarded.
import { describe, expect, test } from 'vitest'
import { verdictOf } from '../../packages/compact-handoff-answer/hooks/ask.js'

const LINE_CHARS = 250_000
const MAX_CALL_MS = 1_000

function lineOf(prefix: string, unit: string, suffix = ''): string {
  const fill = LINE_CHARS - prefix.length - suffix.length
  return `${prefix}${unit.repeat(Math.ceil(fill / unit.length)).slice(0, fill)}${suffix}`
}

/** Runs a trimming or quoting regex could backtrack on. */
const SHAPES = [
  { name: 'slashes', line: lineOf('/', '/', 'x') },
  { name: 'backslashes', line: lineOf('\\', '\\', 'x') },
  { name: 'dot segments', line: lineOf('/srv/app/', '../', 'x') },
  { name: 'single dots', line: lineOf('/srv/app/', './', 'x') },
  { name: 'spaces', line: lineOf('x', ' ', 'y') },
  { name: 'deep path', line: lineOf('/srv/app/', 'a/', 'x.ts') },
  { name: 'surrogates', line: lineOf('', '😀') },
]

function timed(call: () => unknown): number {
  const started = performance.now()
  call()
  return performance.now() - started
}

describe.each(SHAPES)('a 250,000-character line of $name', ({ line }) => {
  test('as a typed answer to the question', () => {
    const calls: Record<string, () => unknown> = {
      verdictOf: () => verdictOf(line),
    }
    for (const [name, call] of Object.entries(calls)) expect(timed(call), `${name} is far slower than linear`).toBeLessThan(MAX_CALL_MS)
  })
})

test('the shapes are single lines of 250,000 characters', () => {
  for (const { name, line } of SHAPES) {
    expect(line, name).toHaveLength(LINE_CHARS)
    expect(line, name).not.toMatch(/[\r\n]/)
  }
})
