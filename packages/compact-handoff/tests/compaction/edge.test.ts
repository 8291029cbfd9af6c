// The engine's compactions at the window's edge, where the conversation is too
// long for one more request (2.1.332, live: 400 "prompt is too long"): a fork
// refused as too long, or a conversation known not to fit, goes to a request
// carrying the digest; where that fails, the engine's summary; where that fails
// too, the digest itself. Every toast says what replaced the conversation, and
// only once it has.
import { describe, expect, type Engine } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import type { On } from 'claude-code'
import { world, swapLogEntries, type ForkAnswer, type World, type WorldOptions } from '../support/world.js'
import { SESSION_MODEL } from '../support/beneath.js'
import { endTurn } from '../support/engine-calls.js'
import { AT_PROMPT, ENGINE_SUMMARY, MID_TURN, REPLY, TYPED, checkedHandoffOf, compactAuto, compactSlash, fileText, handoffFiles, sessionWithWork } from '../support/fork-support.js'
import { DIGEST_HANDOFF_OPENING, DIGEST_REPAIR_OPENING } from '../../hooks/compaction/fork-prompt.js'
import { DIGEST_OPENING } from '../../hooks/compaction/digest.js'
import { STUB_OPENING } from '../../hooks/stub/swap-text.js'

const SLOW = { timeoutMs: 30_000 }

/** The fork's request refused as the API refuses a prompt past the window. */
const TOO_LONG: ForkAnswer = { reason: 'api-error', status: 400, error: 'invalid_request' }

/** The file the digest writer's REPLY becomes (the clock's start names it, as a fork's). */
const DIGEST_FILE = '.claude/handoffs/HANDOFF_parser-rewrite_1970-01-01.md'

const SUMMARY_REPLACED = "no handoff was written; Claude Code's own summary replaced the conversation"
const DIGEST_REPLACED = "no handoff or summary could be written; compact-handoff's digest replaced the conversation"

/** The toasts shown by the moment the engine's summary is asked for: none may
 * claim what the summary has not yet done. */
function toastsWhenSummaryAsked(w: World): string[][] {
  const at: string[][] = []
  w.interjectAt('session.compact', 1, async () => {
    at.push([...w.seen.toasts])
  })
  return at
}

async function edgeSession($: Engine, on: On, options: WorldOptions) {
  const w = world(on, options)
  await sessionWithWork($)
  return w
}

describe('a fork refused as too long', () => {
  test('a request carrying the digest, not the conversation, writes the handoff: checked, saved, and the stub says it was written from a digest', SLOW, async ($, on) => {
    const w = await edgeSession($, on, { forks: [TOO_LONG], completes: [REPLY] })
    const result = await compactAuto($)
    expect(w.seen.forkPrompts, 'the fork was asked once').toHaveLength(1)
    const [ask] = w.seen.completes
    expect(ask?.prompt.split('\n')[0]).toBe(DIGEST_HANDOFF_OPENING)
    expect(ask?.prompt, 'the digest rides in the request').toContain(DIGEST_OPENING)
    expect(ask?.model, "the session's own model").toBe(SESSION_MODEL)
    expect(ask?.maxTokens, 'a bounded answer').toBeGreaterThan(0)
    expect(ask?.timeoutMs, 'a bounded time').toBeGreaterThan(0)
    expect(w.seen.compactions, "no summary of the engine's is asked").toEqual([])
    expect(handoffFiles(w)).toEqual([DIGEST_FILE])
    expect(checkedHandoffOf(fileText(w, DIGEST_FILE)).problems).toEqual([])
    const stub = result.messages?.[0]?.text ?? ''
    expect(stub.startsWith(STUB_OPENING)).toBe(true)
    expect(stub).toMatch(/written from a digest/)
    expect(stub).toMatch(/recall tool/)
    expect(stub).toContain('## Next step')
    expect(w.seen.toasts.at(-1)).toMatch(/^the automatic compaction became a handoff written from a digest: /)
    expect(swapLogEntries(w).at(-1)).toMatchObject({ trigger: 'automatic-compaction', outcome: 'compaction-digest-handoff', files: [DIGEST_FILE] })
  })

  test('the digest is masked before it is sent: a token in the conversation never reaches the request or the stub', SLOW, async ($, on) => {
    const w = await edgeSession($, on, { forks: [TOO_LONG], completes: [{ reason: 'empty-reply' }], engineCompact: 'skip' })
    const secret = 'export GITHUB_TOKEN=ghp_secret123'
    const result = await compactAuto($, [...MID_TURN.slice(0, 2), { role: 'user', text: '', toolUses: [], toolResults: [{ tool_use_id: 'tu-1', text: secret, isError: false }], handle: 'h3' }])
    expect(w.seen.completes[0]?.prompt).toContain('export GITHUB_TOKEN=[REDACTED]')
    expect(w.seen.completes[0]?.prompt).not.toContain('ghp_secret123')
    expect(result.messages?.[0]?.text).toContain(DIGEST_OPENING)
    expect(result.messages?.[0]?.text).not.toContain('ghp_secret123')
  })

  test("a digest-written handoff that fails the check is repaired by the digest writer, with the digest again", SLOW, async ($, on) => {
    const noDecisions = REPLY.replace(/## Decisions\n[^\n]*\n/, '')
    const w = await edgeSession($, on, { forks: [TOO_LONG], completes: [noDecisions, REPLY] })
    const result = await compactAuto($)
    expect(w.seen.forkPrompts, 'no repair fork: a fork would be refused again').toHaveLength(1)
    expect(w.seen.completes.map((c) => c.prompt.split('\n')[0])).toEqual([DIGEST_HANDOFF_OPENING, DIGEST_REPAIR_OPENING])
    expect(w.seen.completes[1]?.prompt).toContain(DIGEST_OPENING)
    expect(w.seen.completes[1]?.prompt).toContain('- missing section "## Decisions"')
    expect(result.messages?.[0]?.text).toContain('## Decisions')
    expect(swapLogEntries(w).at(-1)).toMatchObject({ outcome: 'compaction-digest-handoff', repairs: 1 })
  })

  test("the digest's request fails too: the engine's summary is asked, and only after it replaced the conversation does the toast say so", SLOW, async ($, on) => {
    const w = await edgeSession($, on, { forks: [TOO_LONG], completes: [{ reason: 'api-error', status: 529, error: 'overloaded' }] })
    const atSummary = toastsWhenSummaryAsked(w)
    const result = await compactAuto($)
    expect(result.messages).toEqual([ENGINE_SUMMARY])
    expect(atSummary, 'the summary was asked once').toHaveLength(1)
    expect(atSummary[0], 'no toast before the summary answered').toEqual([])
    expect(w.seen.toasts).toEqual([SUMMARY_REPLACED])
    const detail = w.seen.logs.find((t) => t.includes('no handoff was written at this compaction')) ?? ''
    expect(detail).toContain('too long for one more request')
    expect(detail).toContain("the digest's request failed (HTTP 529, overloaded)")
    expect(handoffFiles(w)).toEqual([])
    expect(swapLogEntries(w).at(-1)).toMatchObject({ outcome: 'compaction-summarized', reason: expect.stringContaining("the digest's request failed") })
  })

  test('the summary is skipped too: the digest itself replaces the conversation, the typed prompt stays last, and the toast says so', SLOW, async ($, on) => {
    const w = await edgeSession($, on, { forks: [TOO_LONG], completes: [{ reason: 'empty-reply' }], engineCompact: 'skip' })
    const result = await compactAuto($, AT_PROMPT)
    expect(w.seen.compactions, "the engine's summary was asked").toHaveLength(1)
    const messages = result.messages ?? []
    expect(messages).toHaveLength(2)
    expect(messages[0]?.text.startsWith(STUB_OPENING)).toBe(true)
    expect(messages[0]?.text).toContain(DIGEST_OPENING)
    expect(messages[1], 'the prompt just typed stays last, as it came').toEqual(TYPED)
    expect(w.seen.toasts).toEqual([DIGEST_REPLACED])
    expect(w.seen.toasts.join('\n')).not.toMatch(/summary replaced/)
    expect(handoffFiles(w)).toEqual([])
    expect(swapLogEntries(w).at(-1)).toMatchObject({ outcome: 'compaction-digest', reason: expect.stringContaining("Claude Code's summary was skipped") })
  })

  test("the digest's row is drawn as one line, whole under ctrl+o", SLOW, async ($, on) => {
    const drawn: string[] = []
    on('ui.render', { component: 'UserMessage' }, (_$, e) => {
      drawn.push(e.props.text)
      return { type: 'Text', props: {}, children: [e.props.text] } as never
    })
    await edgeSession($, on, { forks: [TOO_LONG], engineCompact: 'skip' })
    const stub = (await compactAuto($)).messages?.[0]?.text ?? ''
    for (const isExpanded of [false, true]) {
      await $.ui.render({ surface: 'terminal', component: 'UserMessage', requestId: `m-${String(isExpanded)}`, props: { text: stub, origin: { kind: 'unclassified' }, isExpanded }, viewport: { columns: 80, rows: 40 } } as never)
    }
    expect(drawn[0]).toMatch(/^compact-handoff: (compacted; the conversation is now|compacted to) a digest \(\d+(\.\d)? KB\) · ctrl\+o/)
    expect(drawn[1]).toBe(stub)
  })
})

describe('the status line at the edge', () => {
  test('from a fork refused as too long until something replaced the conversation, it says the context is full; then it is cleared', SLOW, async ($, on) => {
    const w = await edgeSession($, on, { forks: [TOO_LONG], completes: [{ reason: 'empty-reply' }], engineCompact: 'skip' })
    const atSummary: (string | undefined)[] = []
    w.interjectAt('session.compact', 1, async () => {
      atSummary.push(w.seen.statusLines.at(-1))
    })
    const result = await compactAuto($)
    expect(atSummary, 'while the summary is asked').toEqual(['handoff: context full · /compact to go on'])
    expect(result.messages?.[0]?.text).toContain(DIGEST_OPENING)
    expect(w.seen.statusLines.at(-1), 'the digest replaced the conversation: a new window').toBeUndefined()
  })
})

describe('a conversation known not to fit', () => {
  test('a request refused as too long (StopFailure) spends no fork on the next compaction, and the status line advises /compact, not /compact-handoff', SLOW, async ($, on) => {
    const w = await edgeSession($, on, { forks: [REPLY], completes: [REPLY] })
    await $.classic.StopFailure({ error: 'invalid_request', error_details: 'prompt is too long: 210000 tokens > 200000 maximum' })
    await endTurn($, 'Context limit reached', 'error', undefined, 't-main')
    expect(w.seen.statusLines.at(-1)).toBe('handoff: context full · /compact to go on')
    const result = await compactAuto($)
    expect(w.seen.forkPrompts, 'no fork is spent').toEqual([])
    expect(w.seen.completes).toHaveLength(1)
    expect(result.messages?.[0]?.text).toMatch(/written from a digest/)
    expect(w.seen.statusLines.at(-1), 'a new window: the old figure is gone').toBeUndefined()
  })

  test("another API error leaves the next compaction to a fork", SLOW, async ($, on) => {
    const w = await edgeSession($, on, { forks: [REPLY] })
    await $.classic.StopFailure({ error: 'overloaded' })
    await compactAuto($)
    expect(w.seen.forkPrompts).toHaveLength(1)
    expect(w.seen.completes).toEqual([])
  })

  test('a usage that fills the window spends no fork', SLOW, async ($, on) => {
    const w = await edgeSession($, on, { forks: [REPLY], completes: [REPLY], contextPercent: 100 })
    await compactAuto($)
    expect(w.seen.forkPrompts).toEqual([])
    expect(w.seen.completes[0]?.prompt.split('\n')[0]).toBe(DIGEST_HANDOFF_OPENING)
  })

  test("the person's /compact, under the default option, becomes a handoff written from the digest, their words its focus", SLOW, async ($, on) => {
    const w = await edgeSession($, on, { forks: [REPLY], completes: [REPLY], contextPercent: 100 })
    const result = await compactSlash($, 'keep the benchmarks')
    expect(w.seen.compactions, 'no summary with our instructions: one more request of the whole conversation').toEqual([])
    expect(w.seen.forkPrompts).toEqual([])
    expect(w.seen.completes[0]?.prompt).toContain('(their words, verbatim): keep the benchmarks')
    expect(result.messages?.[0]?.text).toMatch(/, at the \/compact the user typed: the conversation was too long/)
    expect(w.seen.toasts.at(-1)).toMatch(/^your \/compact became a handoff written from a digest: /)
    expect(swapLogEntries(w).at(-1)).toMatchObject({ trigger: 'compact-command', outcome: 'compaction-digest-handoff' })
  })

  test('under compactionHandoff off, the engine summarises as before', { ...SLOW, options: { compactionHandoff: 'off' } }, async ($, on) => {
    const w = await edgeSession($, on, { completes: [REPLY], contextPercent: 100 })
    const result = await compactSlash($)
    expect(result.messages).toEqual([ENGINE_SUMMARY])
    expect(w.seen.completes).toEqual([])
  })
})

describe('a fork that fails for another reason', () => {
  test("the summary is skipped too: the toast says nothing replaced the conversation, never that a summary did", SLOW, async ($, on) => {
    const w = await edgeSession($, on, { forks: [{ reason: 'api-error', status: 529, error: 'overloaded' }], engineCompact: 'skip' })
    const result = await compactAuto($)
    expect(result.skip).toBeDefined()
    expect(w.seen.completes, 'no digest for a fork that was not refused as too long').toEqual([])
    expect(w.seen.toasts).toEqual(['nothing replaced the conversation: it is kept as it was. /clear starts a fresh one'])
    expect(swapLogEntries(w).at(-1)).toMatchObject({ outcome: 'compaction-kept', reason: expect.stringContaining('the conversation was kept') })
  })

  test("the summary answers: the toast comes after it, not before", SLOW, async ($, on) => {
    const w = await edgeSession($, on, { forks: [{ reason: 'empty-reply' }] })
    const atSummary = toastsWhenSummaryAsked(w)
    await compactAuto($)
    expect(atSummary[0]).toEqual([])
    expect(w.seen.toasts).toEqual([SUMMARY_REPLACED])
  })
})
