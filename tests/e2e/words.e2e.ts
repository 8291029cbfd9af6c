/**
 * Issue 5 in a real session, model scripted: nothing is lost in a swap.
 * - The user's own words ride in every stub, verbatim, across two swaps.
 * - A message typed while the skill's turn runs is held (not sent to the model before
 *   the swap) and delivered inside the continue-prompt after it.
 * - Review, an edit by hand, apply: the files are written and shown, nothing is
 *   replaced until /compact-handoff apply, a broken edit is refused, a fixed one swaps.
 * - A /compact of the person's own after a swap still reaches the engine, told by
 *   compact-handoff-answer where the newest handoff is and what the person wrote.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { skillTurn, type SkillTurn, isSkillTurnFor } from '../harness/handoff-script.js'
import type { MockRequest } from '../harness/mock-api.js'
import { carriesToolResult, userBlocks } from '../harness/request-messages.js'
import { STUB_OPENING, continuePromptWithHeld, buildStub } from '../../packages/compact-handoff/hooks/stub/swap-text.js'
import { trackRuns } from './lifecycle.js'
import {
  expectConversationKept,
  expectSwapped,
  expectTurnsGone,
  messagesText,
  ordinaryTurn,
  requestAfter,
  startFlow,
  turnSettled,
  pollUntil,
  promptBoxOf,
  type Flow,
} from './flow-support.js'


/** The stub block of a request's user messages. */
function stubBlockOf(request: MockRequest): string {
  const stub = userBlocks(request).find((b) => b.startsWith(STUB_OPENING))
  expect(stub, `request ${request.seq} holds the stub`).toBeDefined()
  return stub!
}

/** Types `text` as the person, answered by `reply`; waits for the answer and the mod's turn end. */
async function saidTurn(flow: Flow, text: string, reply: string): Promise<MockRequest> {
  const { mock, session } = flow
  mock.script({ when: text, text: reply })
  await session.type(text)
  const request = await mock.waitForRequest((r) => r.lastUserText.includes(text), 30_000)
  const mark = session.logMark()
  await session.waitForScreen(new RegExp(reply), 30_000)
  await turnSettled(session, mark)
  return request
}

/** `/compact-handoff <focus>` through to the swap; returns the first request after it,
 * once the continue-prompt's own turn has ended (so the next prompt is not queued). */
async function swap(flow: Flow, turn: SkillTurn, focus: string): Promise<{ skill: MockRequest; next: MockRequest }> {
  const { mock, session } = flow
  mock.script(...turn.replies)
  const before = mock.requests.length
  await session.type(`/compact-handoff ${focus}`)
  const skill = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, focus), 30_000)
  const next = await requestAfter(mock, skill.seq, turn.continuePrompt)
  const mark = session.logMark()
  await turnSettled(session, mark)
  return { skill, next }
}

describe('the user\'s words survive two swaps verbatim', () => {
  const { track } = trackRuns()
  let flow: Flow

  beforeAll(async () => {
    flow = await startFlow('words', track)
  })

  it('the first request, and every later one, rides in the stub after the second swap', async () => {
    const { mock, run } = flow
    const t0 = Date.now()
    const first = `Rename "parseExpr" to 'parse_expr' in src/parser.ts; keep the v2 API (no breaking changes), and don't touch tests/fixtures!`
    const second = 'Also: the CRLF case must pass -- see "issue #12", item (b).'
    const third = `After that, add 'strict' mode; errors report line:column.`
    await saidTurn(flow, first, 'REPLY-FIRST')
    await saidTurn(flow, second, 'REPLY-SECOND')
    await ordinaryTurn(flow, 'WORDS-ONE')

    const one = skillTurn({ proj: run.proj, doc: { slug: 'words-one', focus: 'parser rename' } })
    const swap1 = await swap(flow, one, 'parser rename')
    const typedBefore1 = [first, second, 'ask WORDS-ONE']
    const stub1 = stubBlockOf(swap1.next)
    expect(stub1.trimEnd()).toBe(buildStub({ handoff: one.handoffPath }, { messages: typedBefore1, dropped: 0 }, undefined, { transcriptPath: transcriptOf(stub1, run.home) }))
    console.log(`e2e words: first swap ${Date.now() - t0} ms`)

    await saidTurn(flow, third, 'REPLY-THIRD')
    await ordinaryTurn(flow, 'WORDS-TWO')
    const two = skillTurn({ proj: run.proj, doc: { slug: 'words-two', focus: 'strict mode' } })
    const swap2 = await swap(flow, two, 'strict mode')
    console.log(`e2e words: second swap ${Date.now() - t0} ms`)

    // Only what the person typed, oldest first: no continue-prompt, no slash command.
    const typed = [...typedBefore1, third, 'ask WORDS-TWO']
    const stub = stubBlockOf(swap2.next)
    expect(stub).toContain(`[user message 1]\n${first}\n`)
    expect(stub.trimEnd()).toBe(buildStub({ handoff: two.handoffPath }, { messages: typed, dropped: 0 }, undefined, { transcriptPath: transcriptOf(stub, run.home) }))
    expectSwapped(swap2.next, two.continuePrompt, [`Handoff file: ${two.handoffPath}`])
    // The earlier turns are gone; the words survive only inside the stub.
    expectTurnsGone(swap2.next, ['WORDS-ONE', 'WORDS-TWO'], ['REPLY-FIRST', 'REPLY-SECOND', 'REPLY-THIRD', one.continuePrompt, one.handoffPath])
    expect(mock.requests.some((r) => r.kind === 'summary'), 'no summariser request').toBe(false)
  })
})

/** The transcript file a stub names: one of this run's own, under its home. */
function transcriptOf(stub: string, home: string): string {
  const path = /call the tool mcp__compact-handoff__recall .*\(the whole conversation is kept in (.+\.jsonl); never read or grep that file whole\)/.exec(stub)?.[1] ?? ''
  expect(path.startsWith(`${home}/.claude/projects/`), `the transcript line in the stub:\n${stub}`).toBe(true)
  return path
}

describe('a message typed while the skill runs is held for the continue-prompt', () => {
  const { track } = trackRuns()
  let flow: Flow

  beforeAll(async () => {
    flow = await startFlow('words-held', track)
    await ordinaryTurn(flow, 'HELD-ONE')
  })

  /**
   * Starts a run whose reply `slow` (0: the Write tool_use, 1: the final answer) is held
   * by the mock, types `held` while it waits, and checks the message was held: dropped at
   * prompt.submit with a toast, carried by no request before the swap, and delivered under
   * the held heading after the continue-prompt in the first request after it.
   */
  async function expectHeld(focus: string, slug: string, slow: 0 | 1, held: string): Promise<void> {
    const { mock, session, run } = flow
    const t0 = Date.now()
    const turn = skillTurn({ proj: run.proj, doc: { slug, focus } })
    const writeId = turn.replies[0]!.toolUses![0]!.id!
    turn.replies[slow] = { ...turn.replies[slow]!, delayMs: 5_000 }
    mock.script(...turn.replies)
    const mark = session.logMark()
    const before = mock.requests.length
    await session.type(`/compact-handoff ${focus}`)
    const skill = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, focus), 30_000)
    // The request whose reply the mock is holding is out: the skill's turn is running.
    if (slow === 1) await mock.waitForRequest((r) => r.seq > skill.seq && carriesToolResult(r, writeId), 30_000)
    await session.type(held)

    const toast = await session.waitForToast(/your message is held/, { mod: 'compact-handoff', since: mark, timeoutMs: 30_000 })
    // The toast says until when it is held and how to get it back.
    expect(toast.text).toBe('your message is held until the swap is done; /compact-handoff cancel gives it back')
    // The engine leaves a dropped prompt in the box; the mod clears it, or Enter would send it twice.
    await pollUntil('the held text to leave the prompt box', 15_000, () => (promptBoxOf(session.screen()).includes(held.slice(0, 30)) ? undefined : true))
    const next = await requestAfter(mock, skill.seq, turn.continuePrompt, 40_000)
    console.log(`e2e words: held during ${slow === 0 ? 'the Write step' : 'the final answer'} ${Date.now() - t0} ms`)

    const early = mock.requests.filter((r) => r.seq < next.seq && messagesText(r).includes(held))
    expect(early.map((r) => r.seq), 'no request before the swap carries the held message').toEqual([])
    expect(session.debugLog().slice(mark)).toContain('prompt.submit: dropped (held by compact-handoff until its swap is done)')
    const blocks = userBlocks(next)
    expect(blocks.at(-1)?.trim()).toBe(continuePromptWithHeld(turn.continuePrompt, [held]))
    expect(blocks.at(-1)).toContain(`The user wrote the following while the handoff was being written and applied. It comes first if it changes the plan:\n[held message 1]\n${held}`)
    expect(stubBlockOf(next)).toContain(`Handoff file: ${turn.handoffPath}`)
    expect(stubBlockOf(next), 'the held message is not in the stub').not.toContain(held)
    expect(mock.requests.some((r) => r.kind === 'summary'), 'no summariser request').toBe(false)
    await turnSettled(session, session.logMark())
    expect(promptBoxOf(session.screen()), 'the prompt box is empty after the swap').toBe('')
  }

  it('typed while the final answer is on its way: held, then delivered after the continue-prompt', async () => {
    await expectHeld('held run', 'held-run', 1, 'Wait, also keep the old parseExpr name as a deprecated alias.')
    expectTurnsGone(flow.mock.requests.at(-1)!, ['HELD-ONE'])
  })

  it('typed while the Write tool_use is on its way: held too', async () => {
    await expectHeld('held write', 'held-write', 0, 'One more thing: the alias must log a deprecation warning.')
  })

  it('a cancelled run gives the held message back to the prompt box, once', async () => {
    const { mock, session, run } = flow
    const t0 = Date.now()
    const held = 'Never mind the alias; drop parseExpr outright.'
    const turn = skillTurn({ proj: run.proj, doc: { slug: 'held-cancel', focus: 'held cancel' } })
    turn.replies[1] = { ...turn.replies[1]!, delayMs: 5_000 }
    mock.script(...turn.replies)
    const mark = session.logMark()
    const before = mock.requests.length
    await session.type('/compact-handoff held cancel')
    const skill = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'held cancel'), 30_000)
    await session.type(held)
    await session.waitForToast(/your message is held/, { mod: 'compact-handoff', since: mark, timeoutMs: 30_000 })
    await pollUntil('the held text to leave the prompt box', 15_000, () => (promptBoxOf(session.screen()) === '' ? true : undefined))
    await session.type('/compact-handoff cancel')
    await session.waitForScreen(/Handoff run cancelled\. The conversation is unchanged\./, 30_000)
    await pollUntil('the held text back in the prompt box', 15_000, () => (promptBoxOf(session.screen()) === held ? true : undefined))
    // The held reply then ends the skill's turn with READY: it must not swap.
    await session.waitForScreen(/COMPACT-HANDOFF-READY: \.claude\/handoffs\/HANDOFF_held-cancel/, 30_000)
    await turnSettled(session, mark)
    console.log(`e2e words: held then cancelled ${Date.now() - t0} ms`)
    expect(mock.requests.filter((r) => r.seq > skill.seq && messagesText(r).includes(held)).map((r) => r.seq), 'never sent').toEqual([])
    expect(session.debugLog().slice(mark), 'no compaction').not.toMatch(/\$\.session\.compact \(compact-handoff\)/)
    expect(promptBoxOf(session.screen())).toBe(held)
  })
})

describe('review, an edit by hand, apply', () => {
  const { track } = trackRuns()
  let flow: Flow
  const kept = ['REVIEW-ONE']

  beforeAll(async () => {
    flow = await startFlow('words-review', track)
    await ordinaryTurn(flow, 'REVIEW-ONE')
  })

  it('review writes and shows the files without replacing anything; a broken edit is refused; a fixed one applies', async () => {
    const { mock, session, run } = flow
    const t0 = Date.now()
    const start = session.logMark()
    const turn = skillTurn({ proj: run.proj, doc: { slug: 'review-run', focus: 'finish the parser' } })
    mock.script(...turn.replies)
    const before = mock.requests.length
    await session.type('/compact-handoff review finish the parser')
    const skill = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'finish the parser'), 30_000)
    expect(skill.lastUserText).not.toMatch(/compact-mode review/)
    await session.waitForDebugLog(/review, then apply\. Files: /, { since: start, timeoutMs: 30_000 })
    await session.waitForScreen(/review, then apply/, 30_000)
    const original = readFileSync(turn.handoffFile, 'utf8')
    console.log(`e2e words: review shown ${Date.now() - t0} ms`)

    // Nothing replaced: a later prompt still carries the earlier turns (prompts pass while reviewed).
    await expectConversationKept(flow, 'REVIEW-TWO', kept, start)
    kept.push('REVIEW-TWO')

    // A broken edit: the Next step section removed. Apply lists it and replaces nothing.
    const broken = original.replace(/## Next step\n\n[^\n]*\n\n/, '')
    expect(broken).not.toBe(original)
    writeFileSync(turn.handoffFile, broken)
    const refused = session.logMark()
    await session.type('/compact-handoff apply')
    await session.waitForScreen(/Not applied; the conversation is unchanged/, 30_000)
    // The command's answer wraps on screen; the next request carries it whole.
    const probe = await expectConversationKept(flow, 'REVIEW-THREE', kept, refused)
    expect(userBlocks(probe).join('\n')).toMatch(/Not applied; the conversation is unchanged\.[^]*HANDOFF_review-run_2026-11-29\.md: missing section "## Next step"/)
    kept.push('REVIEW-THREE')

    // Fixed, with a line added by hand under Next step: apply swaps.
    const added = 'Then also rename parseExpr to parse_expr (added by hand in review).'
    const edited = original.replace(/(## Next step\n\n[^\n]*\n)/, `$1${added}\n`)
    expect(edited).toContain(added)
    writeFileSync(turn.handoffFile, edited)
    const applyMark = mock.requests.length
    await session.type('/compact-handoff apply')
    const next = await requestAfter(mock, applyMark, turn.continuePrompt)
    console.log(`e2e words: review, edit, apply ${Date.now() - t0} ms`)

    expectSwapped(next, turn.continuePrompt, [`Handoff file: ${turn.handoffPath}`])
    expectTurnsGone(next, kept, ['compact-mode'])
    expect(readFileSync(turn.handoffFile, 'utf8'), 'the edit by hand is what the next context reads').toContain(added)
    expect(mock.requests.some((r) => r.kind === 'summary'), 'no summariser request').toBe(false)
  })
})

describe("a /compact of the person's own, after a swap", () => {
  const { track } = trackRuns()
  let flow: Flow

  beforeAll(async () => {
    flow = await startFlow('words-foreign', track)
  })

  it("is left to the engine, whose summariser is told the newest handoff and the user's words", async () => {
    const { mock, run, session } = flow
    const first = 'Port the tokenizer to Rust; keep the public API byte-for-byte.'
    await saidTurn(flow, first, 'REPLY-PORT')
    const turn = skillTurn({ proj: run.proj, doc: { slug: 'rust-port', focus: 'tokenizer port' } })
    await swap(flow, turn, 'tokenizer port')
    await ordinaryTurn(flow, 'FOREIGN-ONE')

    const before = mock.requests.length
    await session.type('/compact keep the benchmarks')
    const summary = await mock.waitForRequest((r) => r.seq > before && r.kind === 'summary', 30_000)
    const asked = summary.lastUserText
    expect(asked, "the person's own instructions lead").toMatch(/keep the benchmarks\n\ncompact-handoff adds, so the summary keeps them:/)
    expect(asked).toContain(`Handoff file: ${turn.handoffPath}`)
    expect(asked).toContain(`[user message 1]\n${first}`)
  })
})
