/**
 * The model scripted like a real one, not a perfect one: it writes absolute paths,
 * guesses `created` as a date, names its parent by the absolute path it read, forgets a
 * section and fixes it when asked, fails to fix another file however often it is asked,
 * and writes a heading with a runaway line of spaces. Every run ends correctly: swapped
 * where the file is or becomes good, aborted with the conversation unchanged where it is
 * not, and the mod still loaded and answering afterwards.
 */
import { parseSkillArgs } from '../../packages/compact-handoff/tests/support/skill-protocol.js'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { handoffFileText, handoffRelPath, isSkillTurnFor, skillTurn, type HandoffDoc, type SkillTurn } from '../harness/handoff-script.js'

import { swapLogEntriesOf } from '../harness/swap-logs.js'
import type { MockRequest } from '../harness/mock-api.js'
import { trackRuns } from './lifecycle.js'
import { HANDOFF_MOD, expectConversationKept, expectSwapped, ordinaryTurn, pollUntil, requestAfter, startFlow, type Flow } from './flow-support.js'

/** What a request for repair turn `n` carries (the mod's repair prompt). */
const repairTurn = (n: number) => (r: MockRequest) => r.lastUserText.includes(`repair ${n} of 2`)

/** The sentinel as a real model often writes it: the absolute paths it wrote to. */
function withAbsoluteSentinel(turn: SkillTurn, proj: string): SkillTurn {
  const last = turn.replies.length - 1
  const text = (turn.replies[last]?.text ?? '').replace(turn.handoffPath, join(proj, turn.handoffPath))
  turn.replies[last] = { ...turn.replies[last], text }
  return turn
}

type LogEntry = { time?: string; outcome: string; repairs?: number }

function logEntries(flow: Flow): LogEntry[] {
  return swapLogEntriesOf<LogEntry>(flow.run.proj)
}

/** The log's run entry number `n` (from 1: swaps and aborts, not the meter's
 * lines), once the mod has written it: it is written after the continue-prompt. */
function logEntry(flow: Flow, n: number): Promise<LogEntry> {
  return pollUntil(`swap log entry ${n}`, 10_000, () => logEntries(flow).filter((e) => e.outcome === 'swapped' || e.outcome === 'aborted')[n - 1])
}

describe('a real model: slips repaired, refusals safe, the mod never wedged', () => {
  const { track } = trackRuns()
  let flow: Flow
  const first: Partial<HandoffDoc> = { slug: 'first-part', date: '2026-11-30', focus: 'first part' }

  beforeAll(async () => {
    flow = await startFlow('real-model', track)
    await ordinaryTurn(flow, 'RM-ONE')
  })

  /** Types the command and waits for the skill's request; returns it. */
  async function startRun(focus: string): Promise<MockRequest> {
    const before = flow.mock.requests.length
    await flow.session.type(`/compact-handoff ${focus}`)
    return flow.mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, focus), 30_000)
  }

  it('a date-only created and absolute paths in the sentinel: swapped', async () => {
    const text = handoffFileText(first).replace(/^created: .*$/m, 'created: 2026-11-30')
    const turn = withAbsoluteSentinel(skillTurn({ proj: flow.run.proj, doc: first, handoffText: text }), flow.run.proj)
    flow.mock.script(...turn.replies)
    const skill = await startRun('first part')
    const next = await requestAfter(flow.mock, skill.seq, turn.continuePrompt)
    expectSwapped(next, turn.continuePrompt, [`Handoff file: ${turn.handoffPath}`])
    expect(await logEntry(flow, 1)).toMatchObject({ outcome: 'swapped', repairs: 0 })
  })

  it('a continuation naming its parent by absolute path, missing a section, fixed on the repair prompt: swapped', async () => {
    const parentAbs = join(flow.run.proj, handoffRelPath(first))
    const doc: Partial<HandoffDoc> = { slug: 'second-part', date: '2026-11-30', focus: 'second part' }
    const continued = handoffFileText(doc)
      .replace(/^chain: .*$/m, `chain: HANDOFF_${first.slug}_${first.date}`)
      .replace(/^seq: 1$/m, 'seq: 2')
      .replace(/^parent: none$/m, `parent: ${parentAbs}`)
    // handoffFileText writes "Tried and ruled out" as one line of text, so this cuts the whole section.
    const forgetful = continued.replace(/## Tried and ruled out\n\n[^\n]*\n\n/, '')
    const turn = skillTurn({ proj: flow.run.proj, doc, handoffText: forgetful })
    // The repair's answer prints a continue-prompt of its own, which then stands.
    const repair = skillTurn({ proj: flow.run.proj, doc, handoffText: continued, when: repairTurn(1), continuePrompt: 'Go on with the second part from its Next step.' })
    flow.mock.script(...turn.replies, ...repair.replies)

    const skill = await startRun('second part')
    const told = [...skill.lastUserText.matchAll(/compact-mode run=[^\n<`]*/g)].map((m) => parseSkillArgs(m[0])).find((a) => a !== undefined)
    expect(told?.values, 'the mod told the skill its parent, chain and seq').toMatchObject({
      parent: handoffRelPath(first),
      chain: `HANDOFF_${first.slug}_${first.date}`,
      seq: 2,
    })
    const ask = await flow.mock.waitForRequest((r) => r.seq > skill.seq && repairTurn(1)(r), 30_000)
    expect(ask.lastUserText).toContain(`${turn.handoffPath}:\n- missing section "## Tried and ruled out"`)
    expect(ask.lastUserText, 'sent as the mod, not as the user').toContain('compact-handoff plugin sent a message')
    const next = await requestAfter(flow.mock, ask.seq, repair.continuePrompt)
    expectSwapped(next, repair.continuePrompt, [`Handoff file: ${turn.handoffPath}`])
    expect(await logEntry(flow, 2)).toMatchObject({ outcome: 'swapped', repairs: 1 })
  })

  it('a file the model never fixes: aborted after two repair turns, conversation unchanged', async () => {
    await ordinaryTurn(flow, 'RM-TWO')
    const mark = flow.session.logMark()
    const doc: Partial<HandoffDoc> = { slug: 'never-fixed', date: '2026-11-30', focus: 'never fixed' }
    const broken = handoffFileText(doc, { omit: ['Next step', 'Verify'] })
    const turn = skillTurn({ proj: flow.run.proj, doc, handoffText: broken })
    // The model claims a fix twice and changes nothing.
    const claims = [1, 2].map((n) => ({ when: repairTurn(n), text: `Fixed the file.\nCOMPACT-HANDOFF-READY: ${turn.handoffPath}` }))
    flow.mock.script(...turn.replies, ...claims)
    await startRun('never fixed')
    const toast = await flow.session.waitForTranscriptLine(/after 2 repair turns the files still fail the check/, { plugin: 'compact-handoff', since: mark, timeoutMs: 40_000 })
    expect(toast.text).toMatch(/missing section "## Next step".*Context unchanged\.$/)
    await expectConversationKept(flow, 'RM-PROBE', ['RM-TWO'], mark)
    expect(await logEntry(flow, 3)).toMatchObject({ outcome: 'aborted', repairs: 2 })
  })

  it('a heading with a runaway line of 240,000 spaces: checked at once, swapped, the mod still loaded', async () => {
    const doc: Partial<HandoffDoc> = { slug: 'runaway-line', date: '2026-11-30', focus: 'runaway line' }
    // handoffFileText writes each section as its heading, a blank line, then its text.
    const text = handoffFileText(doc).replace('## In progress\n\n', `## In progress\n\n### ${' '.repeat(240_000)}x\n\n`)
    const turn = skillTurn({ proj: flow.run.proj, doc, handoffText: text })
    flow.mock.script(...turn.replies)
    const skill = await startRun('runaway line')
    const t0 = Date.now()
    const next = await requestAfter(flow.mock, skill.seq, turn.continuePrompt)
    console.log(`e2e real-model: runaway line swapped ${Date.now() - t0} ms after the skill's request`)
    expectSwapped(next, turn.continuePrompt, [`Handoff file: ${turn.handoffPath}`])

    const mark = flow.session.logMark()
    await flow.session.type('/compact-handoff status')
    await flow.session.waitForScreen(/No handoff run under way/, 30_000)
    const log = flow.session.debugLog()
    expect(log, 'the hooks worker was never declared wedged').not.toMatch(/hooks worker is wedged/)
    expect(log).not.toMatch(new RegExp(`${HANDOFF_MOD.replace('@inline', '')}.* was unloaded`))
    expect(flow.session.debugLog().slice(mark)).toMatch(/compact-handoff@inline command\.run settled/)
  })
})
