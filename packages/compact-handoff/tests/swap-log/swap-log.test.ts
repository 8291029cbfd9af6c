// The swap log's bounds in the engine's host: a line stays short whatever the
// reason quotes, and a log past its cap (one the engine could not even read
// whole, over 4 MiB) keeps its newest whole lines, read from its tail.
import { describe, expect } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { CWD, world, swapLogEntries, type DiskFile } from '../support/world.js'
import { typeCommand } from '../support/engine-calls.js'
import { finishSkill, startSession, typeAndLaunch } from '../support/flow.js'
import { MAX_LOG_BYTES, MAX_LOG_LINE_CHARS, SWAP_LOG_PATH } from '../../hooks/swap-log/swap-log.js'

const LOG = `${CWD}/${SWAP_LOG_PATH}`

/** An old entry as an earlier run logged it, numbered by the second it ran at. */
function oldLine(n: number): string {
  const time = new Date(Date.UTC(2026, 10, 1) + n * 1_000).toISOString()
  return JSON.stringify({ time, sessionId: 'old', mode: 'resume', trigger: 'command', files: [{ path: `plans/handoffs/HANDOFF_old-${n}_2026-11-01.md`, bytes: 2_000 }], contextPercentBefore: 71, outcome: 'swapped', messagesHeld: 0, repairs: 0 })
}

/** A log of `count` old lines, past 4 MiB for 20,000 of them. */
function oldLog(count: number): DiskFile {
  return { text: `${Array.from({ length: count }, (_, n) => oldLine(n)).join('\n')}\n`, mtimeMs: 0 }
}

describe('a log line', () => {
  test("stays within MAX_LOG_LINE_CHARS when the skill's failure reason is 250 KB", { timeoutMs: 30_000 }, async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await finishSkill($, w, `COMPACT-HANDOFF-FAILED: ${'the same words again '.repeat(12_500)}`)
    const lines = (w.files.get(LOG)?.text ?? '').split('\n').filter((l) => l !== '')
    expect(lines).toHaveLength(1)
    expect(lines[0]!.length).toBeLessThanOrEqual(MAX_LOG_LINE_CHARS)
    expect(swapLogEntries(w)[0]).toMatchObject({ outcome: 'aborted', reason: expect.stringMatching(/^the handoff skill reported failure: the same words again .* \[…\]$/) })
  })
})

describe('a log past its cap', () => {
  test('keeps its newest whole lines, the new entry last, read from its tail', { timeoutMs: 30_000 }, async ($, on) => {
    const COUNT = 20_000
    const w = world(on, { files: { [LOG]: oldLog(COUNT) } })
    expect(new TextEncoder().encode(w.files.get(LOG)!.text).length, 'past what one read may answer').toBeGreaterThan(4 * 1_048_576)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await finishSkill($, w, 'COMPACT-HANDOFF-FAILED: nothing to hand off')
    const text = w.files.get(LOG)?.text ?? ''
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(MAX_LOG_BYTES)
    const lines = text.slice(0, -1).split('\n')
    expect(lines.length, 'more than the one new line').toBeGreaterThan(1)
    expect(lines.at(-2), 'the newest old line is kept').toBe(oldLine(COUNT - 1))
    const firstKept = COUNT - (lines.length - 1)
    expect(lines[0], 'the oldest kept is a whole line').toBe(oldLine(firstKept))
    expect(swapLogEntries(w).at(-1)).toMatchObject({ outcome: 'aborted', reason: 'the handoff skill reported failure: nothing to hand off' })
    const logReads = w.seen.reads.filter((r) => r.path === LOG)
    expect(logReads.length).toBeGreaterThan(0)
    for (const read of logReads) expect(read.length, 'only the tail is read').toBeLessThanOrEqual(MAX_LOG_BYTES + 1)
  })

  test('still shows its recent runs in /compact-handoff status', { timeoutMs: 30_000 }, async ($, on) => {
    const w = world(on, { files: { [LOG]: oldLog(20_000) } })
    await startSession($)
    const report = (await typeCommand($, 'compact-handoff', 'status')).text ?? ''
    expect(report).toContain('From the swap log:')
    expect(report).toContain('plans/handoffs/HANDOFF_old-19999_2026-11-01.md')
    // Written before the kinds of run were named by what they write: 'resume' was a handoff run.
    expect(report).toContain(`${new Date(Date.UTC(2026, 10, 1) + 19_999 * 1_000).toISOString()} handoff run swapped: plans/handoffs/HANDOFF_old-19999_2026-11-01.md`)
    expect(report).not.toMatch(/ resume swapped/)
    expect(w.seen.reads.filter((r) => r.path === LOG).every((r) => r.offset !== undefined)).toBe(true)
  })
})
