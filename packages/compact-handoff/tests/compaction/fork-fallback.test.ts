// A fork that gives no handoff that passes, or one a full disk cannot hold:
// the engine's summary with our instructions instead, never both, no file
// left, and a toast that says why.
import { describe, expect, type Engine } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import type { On } from 'claude-code'
import { CWD, world, swapLogEntries, type ForkAnswer, type WorldOptions } from '../support/world.js'
import { ENGINE_SUMMARY, FIRST_WORDS, FORK_FILE, REPLY, compactAuto, fileText, handoffFiles, sessionWithWork } from '../support/fork-support.js'
import { ownRecordsIn } from '../support/records.js'
import { FORK_HANDOFF_OPENING, FORK_REPAIR_OPENING } from '../../hooks/protocol/protocol.js'
import { OUTLINE } from '../../hooks/compaction/summary-instructions.js'

const SLOW = { timeoutMs: 30_000 }

/** A reply that lost its Decisions section: the check sends it back. */
const NO_DECISIONS = REPLY.replace(/## Decisions\n[^\n]*\n/, '')

/** Raises an automatic compaction with the forks answering `forks`, and
 * checks what every fallback holds: the engine's own summary, reached once
 * with our instructions, and no handoff file. */
async function fallsBack($: Engine, on: On, forks: ForkAnswer[], options: WorldOptions = {}) {
  const w = world(on, { forks, ...options })
  await sessionWithWork($)
  const result = await compactAuto($)
  expect(result.messages, "the engine's summary replaces the conversation").toEqual([ENGINE_SUMMARY])
  expect(w.seen.compactions, 'the engine is reached once').toHaveLength(1)
  const instructions = w.seen.compactions[0]!.instructions ?? ''
  expect(instructions).toContain(`[user message 1]\n${FIRST_WORDS}`)
  expect(instructions).toContain('Files read: src/parser.ts')
  expect(instructions.endsWith(OUTLINE)).toBe(true)
  expect(handoffFiles(w), 'no handoff file is written').toEqual([])
  expect(swapLogEntries(w).at(-1)).toMatchObject({ trigger: 'automatic-compaction', outcome: 'compaction-summarized', files: [] })
  expect(w.seen.toasts).toContain("no handoff was written; Claude Code's own summary replaced the conversation")
  const toast = w.seen.logs.find((t) => t.includes('no handoff was written at this compaction')) ?? ''
  expect(toast).toContain("The summary was told to keep your words")
  return { w, toast }
}

describe('the fork gives no text', () => {
  for (const [what, answer, said] of [
    ['nothing to fork yet', { reason: 'nothing-to-fork' }, 'there was nothing to fork yet'],
    ['an empty reply', { reason: 'empty-reply' }, 'the fork replied with no text'],
    ['an API error', { reason: 'api-error', status: 529, error: 'overloaded' }, "the fork's request failed (HTTP 529, overloaded)"],
    ['a prompt too long', { reason: 'api-error', status: 400, error: 'invalid_request' }, 'the conversation is likely too long for one more request'],
    ['a request the engine refuses', 'reject', 'the fork was refused'],
  ] as const) {
    test(`${what}: the engine summarises, and the toast says why`, SLOW, async ($, on) => {
      const { w, toast } = await fallsBack($, on, [answer])
      expect(toast).toContain(said)
      expect(w.seen.forkPrompts, 'no repair for a fork that gave no text').toHaveLength(1)
      expect(swapLogEntries(w).at(-1)?.reason).toContain(said)
    })
  }
})

describe('Escape during the fork', () => {
  for (const [what, forks, repairs] of [
    ['the fork', [{ reason: 'aborted' }], 0],
    ['the repair fork', [NO_DECISIONS, { reason: 'aborted' }], 1],
  ] as const) {
    test(`cut short in ${what}: nothing is compacted, no summary is asked for, and the toast and the log say the conversation was kept`, SLOW, async ($, on) => {
      const w = world(on, { forks: [...forks] })
      await sessionWithWork($)
      const result = await compactAuto($)
      expect(result.skip, 'the conversation stays as it was').toBeDefined()
      expect(result.messages).toBeUndefined()
      expect(w.seen.compactions, "the engine's summary is not asked for").toEqual([])
      expect(handoffFiles(w)).toEqual([])
      // The toast box says the conversation was kept; its detail line, why.
      expect(w.seen.toasts).toContain('no handoff was written, so nothing was compacted: the conversation is kept')
      const detail = w.seen.logs.find((t) => t.includes('no handoff was written at this compaction')) ?? ''
      expect(detail).toContain('the fork was cut short: the turn was interrupted')
      expect(detail).toContain('Claude Code compacts again when the context fills')
      for (const said of [...w.seen.toasts, detail]) {
        expect(said).not.toContain('summary')
        expect(said.startsWith('compact-handoff:'), 'the engine names the plugin above every toast').toBe(false)
      }
      expect(swapLogEntries(w).at(-1)).toMatchObject({
        trigger: 'automatic-compaction',
        outcome: 'compaction-kept',
        files: [],
        reason: expect.stringMatching(/the fork was cut short: the turn was interrupted; the conversation was kept$/),
        repairs,
      })
    })
  }
})

describe('the check', () => {
  test('a failing reply gets one repair fork that names the problems; the repaired text is saved', SLOW, async ($, on) => {
    const w = world(on, { forks: [NO_DECISIONS, REPLY] })
    await sessionWithWork($)
    const result = await compactAuto($)
    expect(w.seen.forkPrompts.map((p) => p.split('\n')[0])).toEqual([FORK_HANDOFF_OPENING, FORK_REPAIR_OPENING])
    expect(w.seen.forkPrompts[1]).toContain('- missing section "## Decisions"')
    expect(w.seen.forkPrompts[1]).toContain(`The handoff as you wrote it:\n${NO_DECISIONS}`)
    expect(w.seen.compactions).toEqual([])
    expect(handoffFiles(w)).toHaveLength(1)
    expect(result.messages?.[0]?.text).toContain('## Decisions')
    expect(swapLogEntries(w).at(-1)).toMatchObject({ outcome: 'compaction-handoff', repairs: 1 })
  })

  test('a reply that fails twice is never written: the engine summarises', SLOW, async ($, on) => {
    const { w, toast } = await fallsBack($, on, [NO_DECISIONS, NO_DECISIONS])
    expect(w.seen.forkPrompts).toHaveLength(2)
    expect(toast).toContain('the handoff failed the format check twice (missing section "## Decisions"')
    expect(swapLogEntries(w).at(-1)).toMatchObject({ repairs: 1 })
  })

  test('a repair fork that gives no text: the engine summarises', SLOW, async ($, on) => {
    const { toast } = await fallsBack($, on, [NO_DECISIONS, { reason: 'api-error', status: 500, error: 'server_error' }])
    expect(toast).toContain("the repair fork gave no handoff: the fork's request failed (HTTP 500, server_error)")
  })

  test('a reply with no handoff in it at all is repaired like any other', SLOW, async ($, on) => {
    const { w } = await fallsBack($, on, ['I would rather not.', 'Still no.'])
    expect(w.seen.forkPrompts[1]).toContain('- missing section "## Goal"')
  })
})

describe('masking', () => {
  test('a handoff the engine cannot mask is never written: the engine summarises', SLOW, async ($, on) => {
    const w = world(on, { forks: [REPLY], refuseRedact: true })
    await sessionWithWork($)
    const result = await compactAuto($)
    expect(result.messages).toEqual([ENGINE_SUMMARY])
    expect(handoffFiles(w)).toEqual([])
    expect(w.seen.toasts).toContain("no handoff was written; Claude Code's own summary replaced the conversation")
    expect(w.seen.logs.some((t) => t.includes('no handoff was written at this compaction: the handoff could not be masked')), 'the detail line says why').toBe(true)
  })
})

describe('a full disk', () => {
  test('the handoff the write could not save is removed, the summary replaces the conversation, and the person is told', SLOW, async ($, on) => {
    const w = world(on, { forks: [REPLY], isDiskFull: true })
    await sessionWithWork($)
    const result = await compactAuto($)
    expect(result.messages).toEqual([ENGINE_SUMMARY])
    expect(w.seen.writes.map((path) => path.slice(CWD.length + 1)), 'the handoff was tried').toContain(FORK_FILE)
    expect(handoffFiles(w), 'nothing of it is left').toEqual([])
    expect([...w.files].map(([path]) => path).filter((path) => path.includes('/swap-log/')), 'nor of the log line that failed too').toEqual([])
    const detail = w.seen.logs.find((t) => t.includes('no handoff was written at this compaction')) ?? ''
    expect(detail).toContain(`${FORK_FILE} was not written: the write failed (`)
    expect(detail).toContain('ENOSPC); nothing of it is left.')
    expect(ownRecordsIn(w.store), 'never recorded as the person\'s own').toEqual([])
  })

  test('with no rm on the host, the file is left empty and named, with what to do, and never recorded', SLOW, async ($, on) => {
    const w = world(on, { forks: [REPLY], isDiskFull: true, hasNoRm: true })
    await sessionWithWork($)
    const result = await compactAuto($)
    expect(result.messages).toEqual([ENGINE_SUMMARY])
    expect(handoffFiles(w)).toEqual([FORK_FILE])
    expect(fileText(w, FORK_FILE), 'empty: no check passes it').toBe('')
    const detail = w.seen.logs.find((t) => t.includes('no handoff was written at this compaction')) ?? ''
    expect(detail).toContain(`; the empty file it left at ${FORK_FILE} is no handoff and was not recorded: delete it.`)
    expect(ownRecordsIn(w.store)).toEqual([])
  })
})
