// A run at the window's edge: the handoff skill's own turn is refused as too
// long, and the engine raises its automatic compaction in the middle of that
// turn (2.1.332). The conversation becomes a digest, the skill's invocation is
// kept with its handle, the turn goes on, and the run checks and swaps as
// usual; a run that fails after that says the digest stands, never that the
// conversation is unchanged.
import { describe, expect, type Engine } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import type { SessionMessage } from 'claude-code'
import { HANDOFF, PLAN, swapLogEntries, world, type World } from '../support/world.js'
import { ANSWER_STAND_IN } from '../support/answer-stand-in.js'
import { SKILL_TURN, endTurn, startTurn, typeCommand } from '../support/engine-calls.js'
import { handoffText, planText, readyAnswer } from '../support/texts.js'
import { finishSkill, skillWritesFile, skillWritesHandoff, startSession, typeAndLaunch } from '../support/flow.js'
import { DIGEST_OPENING } from '../../hooks/compaction/digest.js'

const FIRST_WORDS = 'Rewrite the parser; keep parse() as it is.'

const user = (text: string, handle: string): SessionMessage => ({ role: 'user', text, toolUses: [], handle })
const assistant = (text: string, handle: string): SessionMessage => ({ role: 'assistant', text, toolUses: [], handle })

/** The skill's invocation as the engine holds it: the command rows, then the
 * skill's body with its arguments (the run's tag among them). */
function invocationOf(w: World): SessionMessage {
  const run = w.seen.commandRuns.at(-1)
  if (run === undefined) throw new Error('no skill was run')
  const rows = `<command-message>${run.command}</command-message>\n<command-name>/${run.command}</command-name>\n<command-args>${run.args}</command-args>`
  const body = `Base directory for this skill: /plugins/skills/handoff\n\n# Handoff\n\nArguments: \`${run.args}\``
  return user(`${rows}\n${body}`, 'h-skill')
}

/** The conversation the skill's turn carried when the API refused it: the
 * work so far, then the invocation last. */
function refusedTurnOf(w: World): SessionMessage[] {
  return [user(FIRST_WORDS, 'h1'), assistant('The tokenizer is done; the grammar is next.', 'h2'), invocationOf(w)]
}

/** The engine's reactive compaction at the refusal, mid-turn. */
function compactAtTheEdge($: Engine, messages: SessionMessage[]) {
  return $.session.compact({ trigger: 'auto', messages })
}

function everythingSaid(w: World): string {
  return [...w.seen.toasts, ...w.seen.logs].join('\n')
}

describe("the skill's turn refused as too long", () => {
  test('is answered with a digest and the skill invocation kept with its handle, not the engine summary', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', 'finish the parser')
    const messages = refusedTurnOf(w)
    const result = await compactAtTheEdge($, messages)

    expect(w.seen.compactions, "the engine's summary is never asked for").toEqual([])
    const [digest, ...kept] = result.messages ?? []
    expect(digest?.text.startsWith(DIGEST_OPENING), digest?.text).toBe(true)
    expect(digest?.handle, 'the digest is built, not restored').toBeUndefined()
    expect(digest?.text, 'the person asked for it, and the digest shows it').toContain(FIRST_WORDS)
    expect(digest?.text).toContain('Write the handoff from it')
    expect(digest?.text, 'the invocation is kept, not digested').not.toContain('Base directory for this skill')
    expect(kept, 'the invocation, whole and with its handle').toEqual([messages[2]])
    expect(w.seen.toasts).toContain('the handoff skill did not fit the window: a digest replaced the conversation; the skill writes from it')
    expect(w.seen.statusLines.at(-1)).toBe('handoff: the handoff skill is writing from a digest')
  })

  test('keeps the steps the skill took since its invocation, after it', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    const step: SessionMessage = { role: 'assistant', text: '', toolUses: [{ tool_use_id: 'tu-1', tool: 'Read', input: { file_path: 'src/parser.ts' } }], handle: 'h-step' }
    const result: SessionMessage = { role: 'user', text: '', toolUses: [], toolResults: [{ tool_use_id: 'tu-1', text: 'export function parse() {}', isError: false }], handle: 'h-result' }
    const messages = [...refusedTurnOf(w), step, result]
    const answer = await compactAtTheEdge($, messages)
    expect(answer.messages?.slice(1)).toEqual(messages.slice(2))
  })

  test('then the skill writes a handoff from the digest: the run checks it and swaps, and the stub says digest', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', 'finish the parser')
    await compactAtTheEdge($, refusedTurnOf(w))
    await skillWritesHandoff($, w, readyAnswer([HANDOFF], 'Read the handoff and go on.'))

    const instructions = w.seen.compactions[0]?.instructions ?? ''
    expect(instructions.split('\n')[0], 'the swap, marked as ever').toBe('compact-handoff:v1')
    expect(instructions).toContain(`Handoff file: ${HANDOFF}`)
    expect(instructions).toMatch(/wrote a handoff of the session from a digest of it[^\n]*recall them first/)
    expect(instructions).not.toContain('wrote a full handoff')
    expect(w.seen.submits.at(-1)?.text).toContain('Read the handoff and go on.')
    expect(everythingSaid(w)).not.toMatch(/unchanged/i)
    expect(swapLogEntries(w).find((entry) => entry.outcome !== 'meter')).toMatchObject({ outcome: 'engine-summarized', reason: "the handoff was written from a digest, which had replaced the conversation at the window's edge" })
  })

  test('with the answer mod, the swap is answered with the stub, and no summary toast says otherwise', { plugins: [ANSWER_STAND_IN] }, async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await compactAtTheEdge($, refusedTurnOf(w))
    await skillWritesHandoff($, w)
    expect(w.seen.compactions, 'neither the edge nor the swap reached the engine').toEqual([])
    expect(w.seen.toasts.filter((t) => /summary/i.test(t)), 'nothing says a summary replaced it').toEqual([])
    expect(swapLogEntries(w).find((entry) => entry.outcome !== 'meter')).toMatchObject({ outcome: 'swapped', files: [HANDOFF] })
    expect(w.seen.statusLines.at(-1)).toBeUndefined()
  })

  for (const [how, end] of [
    ['writes nothing', () => ({ answer: 'I could not write it.', reason: 'answer' as const })],
    ['is refused too (every request fails)', () => ({ answer: '', reason: 'error' as const })],
  ] as const) {
    test(`then the skill ${how}: the run says the digest already replaced the conversation, never "unchanged"`, async ($, on) => {
      const w = world(on)
      await startSession($)
      await typeAndLaunch($, w, 'compact-handoff', '')
      await compactAtTheEdge($, refusedTurnOf(w))
      const { answer, reason } = end()
      await finishSkill($, w, answer, reason)

      expect(w.seen.toasts).toContain('handoff run stopped; a digest had already replaced the conversation')
      expect(everythingSaid(w)).toMatch(/The conversation had already been replaced by a digest of it at the window's edge[^\n]*carry on from it/)
      expect(everythingSaid(w)).not.toMatch(/unchanged/i)
      expect(w.seen.compactions, 'no swap').toEqual([])
      expect(swapLogEntries(w).find((entry) => entry.outcome === 'aborted')?.reason).toContain("a digest had replaced the conversation at the window's edge")
      expect(w.seen.statusLines.at(-1)).toBeUndefined()
    })
  }

  test('cancelled after the digest, the run says the digest stands', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await compactAtTheEdge($, refusedTurnOf(w))
    const answer = await typeCommand($, 'compact-handoff', 'cancel')
    expect(answer.text).toMatch(/^Handoff run cancelled\. The conversation had already been replaced by a digest/)
  })
})

describe('a review run at the window edge', () => {
  test('shows the stub it would install saying digest, and an apply refused says the digest is still the conversation', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', 'review')
    await compactAtTheEdge($, refusedTurnOf(w))
    await skillWritesHandoff($, w)
    expect(w.seen.logs.join('\n')).toContain('wrote a handoff of the session from a digest of it')
    w.writeFile(HANDOFF, handoffText().replace(/## Decisions\n[^\n]*\n/, ''))
    const applied = (await typeCommand($, 'compact-handoff', 'apply')).text ?? ''
    expect(applied).toContain('Not applied; the conversation is still the digest that replaced it during the run.')
  })
})

describe('/compact-handoffplan at the window edge', () => {
  test('goes on through the digest: both files checked, the swap names both and says digest', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoffplan', 'finish the parser')
    const messages = refusedTurnOf(w)
    const result = await compactAtTheEdge($, messages)
    expect(result.messages?.slice(1)).toEqual([messages[2]])
    expect(messages[2]?.text).toContain('compact-handoff-skills:handoffplan')

    await skillWritesFile($, w, HANDOFF, handoffText())
    await skillWritesFile($, w, PLAN, planText())
    await finishSkill($, w, readyAnswer([HANDOFF, PLAN]))
    const instructions = w.seen.compactions[0]?.instructions ?? ''
    expect(instructions).toContain(`Plan file: ${PLAN}`)
    expect(instructions).toContain('from a digest of it')
  })

  test('whose skill writes no plan fails saying the digest stands', async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoffplan', '')
    await compactAtTheEdge($, refusedTurnOf(w))
    await skillWritesFile($, w, HANDOFF, handoffText())
    await finishSkill($, w, readyAnswer([HANDOFF]))
    expect(everythingSaid(w)).toContain('a plan run, but no plan file was written')
    expect(everythingSaid(w)).toContain("already been replaced by a digest of it at the window's edge")
    expect(everythingSaid(w)).not.toMatch(/unchanged/i)
  })
})

describe('the auto handoff at the window edge', () => {
  test('goes on through the digest and swaps as a typed run does', { options: { autoHandoffPercent: 80 } }, async ($, on) => {
    const w = world(on, { contextPercent: 99 })
    await startSession($)
    await endTurn($, 'an ordinary answer', 'answer', undefined, 't-work')
    await w.clock.settle()
    await w.clock.advance(100)
    await w.clock.settle()
    const launched = w.seen.commandRuns.at(-1)
    expect(launched?.command, 'the auto handoff ran the skill').toBe('compact-handoff-skills:handoff')
    await startTurn($, `<command-args>${launched?.args ?? ''}</command-args>`, SKILL_TURN)
    const messages = refusedTurnOf(w)
    expect((await compactAtTheEdge($, messages)).messages?.slice(1)).toEqual([messages[2]])
    await skillWritesHandoff($, w)
    expect(w.seen.compactions[0]?.instructions).toContain('from a digest of it')
    expect(swapLogEntries(w).find((entry) => entry.outcome !== 'meter')).toMatchObject({ trigger: 'auto-handoff' })
  })
})

describe("an automatic compaction during a run that is not the skill's turn", () => {
  test("is left to the engine's summary, and a failure after it says the summary stands", async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    const result = await compactAtTheEdge($, [user(FIRST_WORDS, 'h1'), assistant('Done.', 'h2'), user('another plugin asked this', 'h3')])
    expect(result.messages?.[0]?.text).toBe('engine summary')
    await finishSkill($, w, 'Nothing written.')
    expect(w.seen.toasts).toContain("handoff run stopped; Claude Code's summary had already replaced the conversation")
    expect(everythingSaid(w)).not.toMatch(/unchanged/i)
  })
})
