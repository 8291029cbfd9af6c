// Which kit test files `pnpm kit <path>…` keeps, and what it says to a path it cannot run.
import { describe, expect, test } from 'vitest'
import { kitSelectionOf } from './kit-selection.js'

const FILES: Record<string, string[]> = {
  'packages/compact-handoff': [
    'packages/compact-handoff/tests/options/options.test.ts',
    'packages/compact-handoff/tests/run/aborts.test.ts',
    'packages/compact-handoff/tests/run/swap.test.ts',
    'packages/compact-handoff/tests/background/running.test.ts',
  ],
  'packages/compact-handoff-answer': ['packages/compact-handoff-answer/tests/answer/answer.test.ts'],
}
const testFilesOf = (mod: string): string[] => FILES[mod] ?? []

describe('kitSelectionOf', () => {
  test('a folder keeps the test files under it, not those of a folder whose name starts the same', () => {
    expect(kitSelectionOf(['packages/compact-handoff/tests/run/'], testFilesOf)).toEqual({
      isSelected: true,
      selections: [{ mod: 'packages/compact-handoff', kept: ['packages/compact-handoff/tests/run/aborts.test.ts', 'packages/compact-handoff/tests/run/swap.test.ts'] }],
    })
  })

  test('a file keeps itself; paths of both mods make one selection per mod, each file once, in the mods order', () => {
    const result = kitSelectionOf(
      ['packages/compact-handoff-answer/tests', 'packages/compact-handoff/tests/run/swap.test.ts', 'packages/compact-handoff/tests/run'],
      testFilesOf,
    )
    expect(result).toEqual({
      isSelected: true,
      selections: [
        { mod: 'packages/compact-handoff', kept: ['packages/compact-handoff/tests/run/aborts.test.ts', 'packages/compact-handoff/tests/run/swap.test.ts'] },
        { mod: 'packages/compact-handoff-answer', kept: ['packages/compact-handoff-answer/tests/answer/answer.test.ts'] },
      ],
    })
  })

  test('a path outside both mods is refused, pointing at vitest', () => {
    expect(kitSelectionOf(['tests/compact-handoff/run'], testFilesOf)).toEqual({
      isSelected: false,
      problem: expect.stringContaining('vitest runs the tests in tests/: pnpm vitest run tests/compact-handoff/run'),
    })
  })

  test('a path that holds no test file is refused, naming it', () => {
    expect(kitSelectionOf(['packages/compact-handoff/tests/support'], testFilesOf)).toEqual({
      isSelected: false,
      problem: 'packages/compact-handoff/tests/support names no kit test file (*.test.ts) of packages/compact-handoff',
    })
  })
})
