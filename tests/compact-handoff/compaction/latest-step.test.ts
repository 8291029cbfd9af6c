// The turn's latest step, which the fork never sees: taken out of the
// transcript a mid-turn compaction hands over, bounded, and shown verbatim.
import { describe, expect, test } from 'vitest'
import { MAX_LATEST_CALLS, MAX_LATEST_CALL_CHARS, MAX_LATEST_RESULT_CHARS, latestStepOf, latestStepSectionOf } from '../../../packages/compact-handoff/hooks/compaction/latest-step.js'

const bash = (id: string, command: string) => ({ tool_use_id: id, tool: 'Bash', input: { command, description: 'Run it' } })
/** A test run's output: many passing lines, then the failure and the summary a person reads. */
const PASSING = Array.from({ length: 400 }, (_, i) => ` ✓ tests/parser/case-${i}.test.ts (3 tests) 12ms`).join('\n')
const ENDING = [
  ' FAIL  tests/parser/quote.test.ts > doubles embedded quotes',
  "AssertionError: expected '\"say \"\"hi\"\"' to be '\"say \"\"hi\"\"\"'",
  ' ❯ tests/parser/quote.test.ts:41:18',
  ' Test Files  1 failed | 400 passed (401)',
  '      Tests  1 failed | 1200 passed (1201)',
].join('\n')
/** As the engine's Bash tool words a failed command's result: its exit status first. */
const RUN = `Exit code 1\n${PASSING}\n${ENDING}`

describe('latestStepOf', () => {
  test('takes the last assistant message\'s calls and their results from the message that follows', () => {
    const step = latestStepOf([
      { role: 'user' },
      { role: 'assistant', toolUses: [bash('t1', 'pnpm vitest run parser')] },
      { role: 'user', toolResults: [{ tool_use_id: 't1', text: RUN, isError: true }] },
    ])
    expect(step?.calls).toHaveLength(1)
    expect(step?.calls[0]).toMatchObject({ tool: 'Bash', call: 'pnpm vitest run parser', hasResult: true, outcome: 'exit 1', resultChars: RUN.length })
    expect(step?.calls[0]?.resultEnd.endsWith(ENDING)).toBe(true)
    expect(step?.calls[0]?.resultEnd.length, 'a window, not the whole result').toBeLessThan(RUN.length)
  })

  test('a call still without a result, a Read named by its path, a result whose call is not in view', () => {
    const pending = latestStepOf([{ role: 'assistant', toolUses: [{ tool_use_id: 't2', tool: 'Read', input: { file_path: 'src/a.ts' } }] }])
    expect(pending?.calls[0]).toMatchObject({ tool: 'Read', call: 'src/a.ts', hasResult: false })
    const orphan = latestStepOf([{ role: 'assistant' }, { role: 'user', toolResults: [{ tool_use_id: 'tu-1', text: 'file contents', isError: false }] }])
    expect(orphan?.calls[0]).toMatchObject({ tool: 'a tool', call: 'call tu-1', resultEnd: 'file contents' })
  })

  test('is undefined when the latest message called no tool', () => {
    expect(latestStepOf([{ role: 'user' }, { role: 'assistant', toolUses: [] }])).toBeUndefined()
    expect(latestStepOf([])).toBeUndefined()
  })

  test(`keeps the newest ${MAX_LATEST_CALLS} calls of a step and counts the others`, () => {
    const uses = Array.from({ length: MAX_LATEST_CALLS + 2 }, (_, i) => bash(`t${i}`, `echo ${i}`))
    const step = latestStepOf([{ role: 'assistant', toolUses: uses }, { role: 'user', toolResults: uses.map((u) => ({ tool_use_id: u.tool_use_id, text: 'ok', isError: false })) }])
    expect(step?.calls.map((c) => c.call)).toEqual(['echo 2', 'echo 3', 'echo 4'])
    expect(step?.moreCalls).toBe(2)
    expect(latestStepSectionOf(step!)).toContain('- and 2 earlier calls of the same step, not shown')
  })
})

describe('latestStepSectionOf', () => {
  const step = latestStepOf([{ role: 'assistant', toolUses: [bash('t1', 'pnpm vitest run parser')] }, { role: 'user', toolResults: [{ tool_use_id: 't1', text: RUN, isError: true }] }])!

  test("marks the step as the one the handoff's writer did not see, with the call, its exit status and its result's end verbatim", () => {
    const section = latestStepSectionOf(step)
    expect(section.split('\n')[0]).toMatch(/latest step, which the handoff's writer did not see/)
    expect(section).toContain('- Bash: pnpm vitest run parser  → exit 1')
    expect(section).toContain(ENDING)
    expect(section).not.toContain('case-0.test.ts')
  })

  test(`is bounded: at most ${MAX_LATEST_RESULT_CHARS} characters of a result, from a line start, what was left out said`, () => {
    const section = latestStepSectionOf(step)
    const fenced = /```\n([\s\S]*)\n```/.exec(section)![1]!
    expect(fenced.length).toBeLessThanOrEqual(MAX_LATEST_RESULT_CHARS)
    expect(fenced.startsWith(' ✓ tests/parser/case-'), 'whole lines').toBe(true)
    expect(section).toMatch(new RegExp(`The last ${fenced.length} characters of its result \\(${RUN.length - fenced.length} earlier characters left out\\)`))
  })

  test('a short result is shown whole, a long call cut visibly, a backtick run in the result cannot close its fence', () => {
    const long = 'x'.repeat(MAX_LATEST_CALL_CHARS + 50)
    const section = latestStepSectionOf(latestStepOf([{ role: 'assistant', toolUses: [bash('t1', long)] }, { role: 'user', toolResults: [{ tool_use_id: 't1', text: 'a\n````\nb', isError: false }] }])!)
    expect(section).toContain(`${'x'.repeat(MAX_LATEST_CALL_CHARS)} […]  → exit 0`)
    expect(section).toContain('Its result:\n`````\na\n````\nb\n`````')
  })
})
