// The run's state machine, as a pure function: each event against each phase,
// the stuck-run rule, and, over random interleavings of every event, that a
// held prompt is never lost and a cancelled run never swaps.
import { describe, expect, test } from 'vitest'
import { runFixture } from '../../support/run-fixture.js'
import { formatSkillArgs } from '../../../packages/compact-handoff/hooks/protocol/protocol.js'
import type { HandoffPath } from '../../../packages/compact-handoff/hooks/protocol/protocol-paths.js'
import { IDLE, MAX_REPAIRS, STAGE_TEXT, isAt, isHoldingPrompts, replacedNoteOf, stageTextOf, type Chosen, type Phase, type Run, type RunFile, type Stage, type Swap } from '../../../packages/compact-handoff/hooks/run/run.js'
import { MAX_COMPACT_TRIES, stuckAfterMs, transition, type Effect, type RunEvent } from '../../../packages/compact-handoff/hooks/run/run-machine.js'
import type { FileReport } from '../../../packages/compact-handoff/hooks/run/file-check.js'
import { forAll, type Rand } from '../../support/property.js'
import { NO_WORDS } from '../../../packages/compact-handoff/hooks/words/user-words.js'

const CWD = '/srv/proj'
const HANDOFF: HandoffPath = { kind: 'handoff', relPath: 'plans/handoffs/HANDOFF_a_2026-11-30.md' }
const WRITTEN: RunFile = { ...HANDOFF, wrote: 'whole' }
const T0 = 1_000_000
const READY = `done\nCOMPACT-HANDOFF-READY: ${HANDOFF.relPath}`
const CLEAN: FileReport = { refusals: [], fixes: [] }
const NEEDS_FIX: FileReport = { refusals: [], fixes: [{ path: HANDOFF.relPath, problems: ['missing section "## Goal"'] }] }
const UNSAFE: FileReport = { refusals: ['x resolves outside'], fixes: [] }

function runOfId(id: string, extra: Partial<Run> = {}): Run {
  return runFixture({ id, startedAtMs: T0, cwd: CWD, cwdRealPath: CWD, values: { run: `tag-${id}`, created: '2026-11-30T10:00:00Z', chain: 'new', seq: 1, parent: 'none' }, ...extra })
}

const CHOSEN: Chosen = { handoff: HANDOFF, continuePrompt: 'go on', notices: [] }
const SWAP: Swap = { handoff: HANDOFF.relPath, continuePrompt: 'go on', refusals: 0 }
/** What the check reads beside the files for a review's stub. */
const STUB_PARTS = { words: NO_WORDS, context: { transcriptPath: '/home/me/.claude/projects/p/s.jsonl' } }
/** What the meter's window after the swap follows. */
const AFTER = { kind: 'swapped' as const, handoff: `${CWD}/${HANDOFF.relPath}`, time: '2026-11-30T10:00:00.000Z' }

function phasesOf(run: Run): Exclude<Phase, { kind: 'idle' }>[] {
  return [
    { kind: 'launching', run, sinceMs: T0 },
    { kind: 'writing', run, sinceMs: T0, turnId: 't1' },
    { kind: 'checking', run, sinceMs: T0, chosen: CHOSEN },
    { kind: 'reviewed', run, sinceMs: T0, swap: SWAP },
    { kind: 'going', run, sinceMs: T0, swap: SWAP },
    { kind: 'swapping', run, sinceMs: T0, swap: SWAP, isCompacting: false },
  ]
}

const kinds = (effects: readonly Effect[]) => effects.map((e) => e.kind)

describe('stages', () => {
  test('every stage has its words, and a repair turn says which', () => {
    expect(Object.keys(STAGE_TEXT).sort()).toEqual(['checking', 'going', 'launching', 'reviewed', 'swapping', 'writing'])
    const writing: Phase = { kind: 'writing', run: runOfId('r1', { repairs: 1 }), sinceMs: T0 }
    expect(stageTextOf(writing)).toBe(`the handoff skill is fixing its files (repair 1 of ${MAX_REPAIRS})`)
  })

  test('isAt holds for the run id at its own stage only', () => {
    for (const phase of phasesOf(runOfId('r1'))) {
      for (const stage of Object.keys(STAGE_TEXT) as Stage[]) expect(isAt(phase, stage, 'r1'), `${phase.kind}/${stage}`).toBe(stage === phase.kind)
      expect(isAt(phase, phase.kind, 'r2')).toBe(false)
    }
  })

  test('prompts are held in every stage but a review and idle', () => {
    expect(phasesOf(runOfId('r1')).filter(isHoldingPrompts).map((p) => p.kind)).toEqual(['launching', 'writing', 'checking', 'going', 'swapping'])
    expect(isHoldingPrompts(IDLE)).toBe(false)
  })
})

describe('a start', () => {
  test('from idle launches later', () => {
    const run = runOfId('r1')
    const step = transition(IDLE, { kind: 'start', run }, T0)
    expect(step.phase).toEqual({ kind: 'launching', run, sinceMs: T0 })
    expect(step.effects).toEqual([{ kind: 'launch-later', id: 'r1' }])
  })

  test("the launch takes the chain as read then, not at the start: a fork may have set the last handoff meanwhile", () => {
    const run = runOfId('r1')
    const chain = { chain: 'HANDOFF_parser_2026-11-29', seq: 3, parent: '.claude/handoffs/HANDOFF_parser_2026-11-30.md' }
    const step = transition({ kind: 'launching', run, sinceMs: T0 }, { kind: 'launch', id: 'r1', chain }, T0 + 100)
    expect(step.phase).toEqual({ kind: 'writing', run: { ...run, values: { ...run.values, ...chain } }, sinceMs: T0 + 100 })
  })

  test('while a run is under way changes nothing', () => {
    for (const phase of phasesOf(runOfId('r1'))) {
      const step = transition(phase, { kind: 'start', run: runOfId('r2') }, T0 + 1)
      expect(step.isTaken).toBe(false)
      expect(step.phase).toBe(phase)
    }
  })
})

describe("the skill's turn", () => {
  const writing: Phase = { kind: 'writing', run: runOfId('r1'), sinceMs: T0 }

  test('is the one whose start carries the run tag', () => {
    const other = transition(writing, { kind: 'turn-started', turnId: 'x', text: 'a task finished' }, T0)
    expect(other.isTaken).toBe(false)
    const ours = transition(writing, { kind: 'turn-started', turnId: 't1', text: `<command-args>${formatSkillArgs(writing.run.values, '')}</command-args>` }, T0 + 5)
    expect(ours.phase).toEqual({ ...writing, turnId: 't1', sinceMs: T0 + 5 })
  })

  test('another turn ending is not taken for it', () => {
    const started: Phase = { ...writing, turnId: 't1' }
    expect(transition(started, { kind: 'turn-ended', turnId: 'x', end: { reason: 'answer', answer: READY } }, T0).isTaken).toBe(false)
    expect(transition(writing, { kind: 'turn-ended', turnId: 't1', end: { reason: 'answer', answer: READY } }, T0).isTaken, 'not before its start').toBe(false)
  })

  test('ending with an answer goes to the check; ending interrupted drops the run', () => {
    const started: Phase = { ...writing, turnId: 't1', run: { ...writing.run, files: [WRITTEN] } }
    const checked = transition(started, { kind: 'turn-ended', turnId: 't1', end: { reason: 'answer', answer: READY } }, T0)
    expect(checked.phase.kind).toBe('checking')
    expect(checked.effects).toEqual([{ kind: 'check-files', run: started.run, chosen: expect.objectContaining({ handoff: HANDOFF }) }])
    const aborted = transition(started, { kind: 'turn-ended', turnId: 't1', end: { reason: 'aborted', answer: '' } }, T0)
    expect(aborted.phase).toEqual(IDLE)
    expect(aborted.effects).toEqual([{ kind: 'drop', run: started.run, reason: 'the handoff turn was interrupted', toast: 'the handoff turn was interrupted', giveBack: 'box' }])
  })

  test("records handoff writes of the skill's own turn, once each, and nothing else", () => {
    const started: Phase = { ...writing, turnId: 't1' }
    expect(transition(writing, { kind: 'file-written', path: `${CWD}/${HANDOFF.relPath}`, tool: 'Write' }, T0).isTaken, 'before the skill turn started: another turn wrote it').toBe(false)
    const once = transition(started, { kind: 'file-written', path: `${CWD}/${HANDOFF.relPath}`, tool: 'Write' }, T0).phase
    const twice = transition(once, { kind: 'file-written', path: `./${HANDOFF.relPath}`, tool: 'Write' }, T0)
    expect(twice.isTaken).toBe(false)
    expect(once.kind === 'writing' && once.run.files).toEqual([WRITTEN])
    expect(transition(writing, { kind: 'file-written', path: `${CWD}/src/a.ts`, tool: 'Write' }, T0).isTaken).toBe(false)
  })

  test('records an Edit of a file the run never wrote whole as edited, and a Write of it after that as written whole; an Edit after a Write changes nothing', () => {
    const started: Phase = { ...writing, turnId: 't1' }
    const path = `${CWD}/${HANDOFF.relPath}`
    const edited = transition(started, { kind: 'file-written', path, tool: 'Edit' }, T0).phase
    expect(edited.kind === 'writing' && edited.run.files).toEqual([{ ...HANDOFF, wrote: 'edited' }])
    expect(transition(edited, { kind: 'file-written', path, tool: 'Edit' }, T0).isTaken, 'edited again: still only edited').toBe(false)
    const whole = transition(edited, { kind: 'file-written', path, tool: 'Write' }, T0).phase
    expect(whole.kind === 'writing' && whole.run.files).toEqual([WRITTEN])
    const written = transition(started, { kind: 'file-written', path, tool: 'Write' }, T0).phase
    expect(transition(written, { kind: 'file-written', path, tool: 'Edit' }, T0).isTaken, "an Edit of the run's own file keeps it written whole").toBe(false)
  })

  test("records a Windows write by the run's own case rule: any drive-letter case, backslashes, and folder case only where the run ignores case", () => {
    const windows: Phase = { kind: 'writing', run: runOfId('w', { cwd: 'C:\\Users\\me\\proj', cwdRealPath: 'C:\\Users\\me\\proj', ignoresCase: true }), sinceMs: T0, turnId: 't1' }
    const written = transition(windows, { kind: 'file-written', path: `c:\\users\\me\\PROJ\\${HANDOFF.relPath.replace(/\//g, '\\')}`, tool: 'Write' }, T0).phase
    expect(written.kind === 'writing' && written.run.files).toEqual([WRITTEN])
    const mac = (ignoresCase: boolean): Phase => ({ kind: 'writing', run: runOfId('m', { cwd: '/Users/me/proj', cwdRealPath: '/Users/me/proj', ignoresCase }), sinceMs: T0, turnId: 't1' })
    const macWrite = { kind: 'file-written', path: `/Users/me/Proj/${HANDOFF.relPath}`, tool: 'Write' } as const
    expect(transition(mac(true), macWrite, T0).isTaken, 'macOS, whose file system ignores case').toBe(true)
    expect(transition(mac(false), macWrite, T0).isTaken, 'a file system that keeps case: another folder').toBe(false)
  })
})

describe('the check', () => {
  const checking: Phase = { kind: 'checking', run: runOfId('r1'), sinceMs: T0, chosen: CHOSEN }

  test('clean: the go stage, the hidden go-command queued; still cancellable', () => {
    const step = transition(checking, { kind: 'checked', id: 'r1', report: CLEAN }, T0)
    expect(step.phase).toEqual({ kind: 'going', run: checking.run, sinceMs: T0, swap: SWAP })
    expect(step.effects).toEqual([{ kind: 'queue-go', id: 'r1' }])
    const cancelled = transition(step.phase, { kind: 'cancel' }, T0)
    expect(cancelled.phase, 'cancelled at the go stage').toEqual(IDLE)
    expect(cancelled.effects, 'the swap log names the stage').toEqual([expect.objectContaining({ kind: 'drop', reason: 'cancelled at "swap queued (the go-command runs once the session is idle)"' })])
  })

  test('clean in review mode: reviewed, shown with what the check read', () => {
    const review: Phase = { ...checking, run: runOfId('r1', { apply: 'review' }) }
    const step = transition(review, { kind: 'checked', id: 'r1', report: CLEAN, review: STUB_PARTS }, T0)
    expect(step.effects).toEqual([{ kind: 'show-review', swap: SWAP, review: STUB_PARTS }])
  })

  test('fixable: a repair turn, at most MAX_REPAIRS times, then the run ends with every reason', () => {
    let phase: Phase = checking
    for (let n = 1; n <= MAX_REPAIRS; n++) {
      const step = transition(phase, { kind: 'checked', id: 'r1', report: NEEDS_FIX }, T0)
      expect(step.phase.kind).toBe('writing')
      expect(step.phase.kind !== 'idle' && step.phase.run.repairs).toBe(n)
      expect(kinds(step.effects)).toEqual(['log', 'send-repair'])
      phase = { kind: 'checking', run: (step.phase as Extract<Phase, { kind: 'writing' }>).run, sinceMs: T0, chosen: CHOSEN }
    }
    const last = transition(phase, { kind: 'checked', id: 'r1', report: NEEDS_FIX }, T0)
    expect(last.phase).toEqual(IDLE)
    expect(last.effects[0]).toMatchObject({ kind: 'drop', toast: `after ${MAX_REPAIRS} repair turns the files still fail the check: ${HANDOFF.relPath}: missing section "## Goal"` })
  })

  test('a safety refusal is never repaired', () => {
    const step = transition(checking, { kind: 'checked', id: 'r1', report: { ...UNSAFE, fixes: NEEDS_FIX.fixes } }, T0)
    expect(step.phase).toEqual(IDLE)
    expect(step.effects).toEqual([expect.objectContaining({ kind: 'drop', toast: `x resolves outside; ${HANDOFF.relPath}: missing section "## Goal"` })])
  })

  test('for a run that was cancelled meanwhile changes nothing', () => {
    expect(transition(IDLE, { kind: 'checked', id: 'r1', report: CLEAN, ...STUB_PARTS }, T0)).toEqual({ phase: IDLE, effects: [], met: IDLE, isTaken: false })
  })
})

describe('the swap', () => {
  const swapping: Extract<Phase, { kind: 'swapping' }> = { kind: 'swapping', run: runOfId('r1'), sinceMs: T0, swap: SWAP, isCompacting: false }
  const going: Extract<Phase, { kind: 'going' }> = { kind: 'going', run: runOfId('r1'), sinceMs: T0, swap: SWAP }

  test('the go step: from the go stage (the go-command or a retry) or an apply, into swapping, its compaction on a 0 ms timer', () => {
    const went = transition(going, { kind: 'go', id: 'r1' }, T0 + 5)
    expect(went.phase).toEqual({ ...swapping, sinceMs: T0 + 5 })
    expect(went.effects).toEqual([{ kind: 'compact-later', id: 'r1', delayMs: 0 }])
    const reviewed: Phase = { kind: 'reviewed', run: runOfId('r1'), sinceMs: T0, swap: SWAP }
    const applied = transition(reviewed, { kind: 'applied', id: 'r1' }, T0 + 5)
    expect(applied, 'an apply takes the same step').toEqual({ ...went, met: reviewed })
  })

  test('the go step is taken only by its own run at the go stage', () => {
    expect(transition(going, { kind: 'go', id: 'r2' }, T0).isTaken, 'another run').toBe(false)
    for (const phase of phasesOf(runOfId('r1')).filter((p) => p.kind !== 'going')) expect(transition(phase, { kind: 'go', id: 'r1' }, T0).isTaken, phase.kind).toBe(false)
    expect(transition(IDLE, { kind: 'go', id: 'r1' }, T0).isTaken).toBe(false)
    expect(transition(swapping, { kind: 'go', id: 'r1' }, T0).isTaken, 'a second go once swapping').toBe(false)
  })

  test('a go-command that could not be queued ends the run, context unchanged', () => {
    const failed = transition(going, { kind: 'go-failed', id: 'r1', why: 'could not queue the swap (x)' }, T0)
    expect(failed.phase).toEqual(IDLE)
    expect(failed.effects).toEqual([expect.objectContaining({ kind: 'drop', toast: 'could not queue the swap (x)', giveBack: 'box' })])
    expect(transition(swapping, { kind: 'go-failed', id: 'r1', why: 'x' }, T0).isTaken, 'past the go stage').toBe(false)
  })

  test('begins once; a cancel is refused while the compaction is in flight', () => {
    const begun = transition(swapping, { kind: 'compact-begin', id: 'r1' }, T0)
    expect(begun.phase).toEqual({ ...swapping, isCompacting: true })
    expect(transition(begun.phase, { kind: 'compact-begin', id: 'r1' }, T0).isTaken).toBe(false)
    expect(transition(begun.phase, { kind: 'cancel' }, T0).isTaken).toBe(false)
    expect(transition(swapping, { kind: 'cancel' }, T0).phase).toEqual(IDLE)
  })

  test('a refusal goes back to the go stage and the go step is retried until MAX_COMPACT_TRIES, then the run ends', () => {
    const refused = transition({ ...swapping, isCompacting: true }, { kind: 'compact-refused', id: 'r1', error: 'a turn is running' }, T0)
    expect(refused.phase).toEqual({ ...going, swap: { ...SWAP, refusals: 1 } })
    expect(refused.effects).toEqual([{ kind: 'go-later', id: 'r1', delayMs: 500 }])
    const last = transition({ ...swapping, swap: { ...SWAP, refusals: MAX_COMPACT_TRIES - 1 } }, { kind: 'compact-refused', id: 'r1', error: 'e' }, T0)
    expect(last.effects[0]).toMatchObject({ kind: 'drop', toast: `compaction was refused ${MAX_COMPACT_TRIES} times (last: e)` })
  })

  test('is finished with what the run holds when the compaction returns, not with an earlier copy', () => {
    const held = transition({ ...swapping, isCompacting: true }, { kind: 'hold', text: 'typed', isCommand: false }, T0).phase
    const done = transition(held, { kind: 'compacted', id: 'r1', swap: SWAP, isSummarized: false, after: AFTER }, T0)
    expect(done.phase).toEqual(IDLE)
    expect(done.effects).toEqual([{ kind: 'finish-swap', run: { ...swapping.run, held: ['typed'] }, swap: SWAP, isSummarized: false, after: AFTER }])
  })

  test('a compaction that returns finishes the swap however long it took; the stuck clock starts at its begin', () => {
    const checkedAt = T0
    const begunAt = checkedAt + 2 * 60_000
    const begun = transition({ ...swapping, sinceMs: checkedAt, run: runOfId('r1', { held: ['typed'] }) }, { kind: 'compact-begin', id: 'r1' }, begunAt)
    expect(begun.phase).toMatchObject({ kind: 'swapping', isCompacting: true, sinceMs: begunAt })
    // 4 minutes into the compaction, 6 after the check: not stuck.
    expect(transition(begun.phase, { kind: 'tick' }, begunAt + 4 * 60_000).phase).toBe(begun.phase)
    for (const afterMs of [6 * 60_000, 60 * 60_000]) {
      const done = transition(begun.phase, { kind: 'compacted', id: 'r1', swap: SWAP, isSummarized: false, after: AFTER }, begunAt + afterMs)
      expect(kinds(done.effects), `after ${afterMs} ms`).toEqual(['finish-swap'])
      expect(done.phase).toEqual(IDLE)
    }
    const refusedLate = transition(begun.phase, { kind: 'compact-refused', id: 'r1', error: 'busy' }, begunAt + 6 * 60_000)
    expect(kinds(refusedLate.effects), 'a late refusal is retried').toEqual(['go-later'])
  })

  test('a run dropped as stuck while its compaction hangs says the conversation may still change', () => {
    const begun: Phase = { ...swapping, isCompacting: true }
    const step = transition(begun, { kind: 'tick' }, T0 + 6 * 60_000)
    expect(step.effects).toEqual([expect.objectContaining({ kind: 'drop', isCompactionPending: true, giveBack: 'box' })])
    const skipped = transition(begun, { kind: 'compact-skipped', id: 'r1', why: 'blocked' }, T0)
    expect(skipped.effects).toEqual([expect.not.objectContaining({ isCompactionPending: true })])
  })

  test('returning for a run that is gone says so and finishes nothing', () => {
    const late = transition(IDLE, { kind: 'compacted', id: 'r1', swap: SWAP, isSummarized: false, after: AFTER }, T0)
    expect(late.effects).toEqual([{ kind: 'late-swap', swap: SWAP }])
    expect(late.phase).toEqual(IDLE)
  })
})

describe('a prompt with attachments', () => {
  test('is let through, not held, while a run holds prompts, and said so', () => {
    for (const phase of phasesOf(runOfId('r1')).filter(isHoldingPrompts)) {
      const step = transition(phase, { kind: 'hold', text: 'see this', isCommand: false, attachments: ['image'] }, T0)
      expect(step.isTaken, phase.kind).toBe(false)
      expect(step.phase).toBe(phase)
      expect(step.effects).toEqual([{ kind: 'let-through', attachments: ['image'] }])
    }
    expect(transition(IDLE, { kind: 'hold', text: 'see this', isCommand: false, attachments: ['image'] }, T0).effects, 'nothing to say with no run').toEqual([])
  })

  test('an empty list is no attachment: the prompt is held', () => {
    const step = transition(phasesOf(runOfId('r1'))[1]!, { kind: 'hold', text: 'plain', isCommand: false, attachments: [] }, T0)
    expect(kinds(step.effects)).toEqual(['held'])
  })
})

describe('the session ending', () => {
  test('ends any run; after /clear or /resume its messages go to the prompt box, after an exit they are kept', () => {
    const run = runOfId('r1', { held: ['typed'] })
    for (const phase of [...phasesOf(run), { kind: 'swapping' as const, run, sinceMs: T0, swap: SWAP, isCompacting: true }]) {
      for (const [reason, giveBack] of [
        ['clear', 'box-or-keep'],
        ['resume', 'box-or-keep'],
        ['prompt_input_exit', 'keep'],
        ['logout', 'keep'],
        ['other', 'keep'],
      ] as const) {
        const step = transition(phase, { kind: 'session-ended', reason }, T0 + 1)
        expect(step.phase, `${phase.kind} ${reason}`).toEqual(IDLE)
        expect(step.effects).toEqual([expect.objectContaining({ kind: 'drop', run, reason: `the session ended (${reason})`, giveBack })])
      }
    }
    expect(transition(IDLE, { kind: 'session-ended', reason: 'clear' }, T0).isTaken).toBe(false)
  })
})

describe('the stuck-run rule', () => {
  test('gives each stage its limit', () => {
    const [launching, writing, checking, reviewed, going, swapping] = phasesOf(runOfId('r1'))
    expect([launching, writing, checking, reviewed, going, swapping].map((p) => stuckAfterMs(p!) / 60_000)).toEqual([1, 20, 1, 30, 1, 3])
    expect(stuckAfterMs({ kind: 'writing', run: runOfId('r1'), sinceMs: T0 }) / 60_000, 'a turn that never started').toBe(2)
  })

  test('drops a run past its limit on any event, gives its held prompts back, then takes the event', () => {
    const run = runOfId('r1', { held: ['first'] })
    for (const phase of phasesOf(run)) {
      const at = T0 + stuckAfterMs(phase)
      expect(transition(phase, { kind: 'tick' }, at).phase, `${phase.kind} at its limit`).toBe(phase)
      const step = transition(phase, { kind: 'hold', text: 'second', isCommand: false }, at + 1)
      expect(step.phase, phase.kind).toEqual(IDLE)
      expect(step.isTaken, 'the new prompt passes').toBe(false)
      expect(step.effects).toEqual([expect.objectContaining({ kind: 'drop', run })])
    }
  })
})

describe('a conversation replaced mid-run', () => {
  test('is recorded on the run at every stage, the newest replacement winning, and carried to the swap', () => {
    for (const phase of phasesOf(runOfId('r1'))) {
      const isBeforeWritten = phase.kind === 'launching' || phase.kind === 'writing'
      const digested = transition(phase, { kind: 'conversation-replaced', by: 'digest', id: 'r1' }, T0 + 10)
      expect(digested.phase, phase.kind).toEqual({ ...phase, run: { ...phase.run, replacedBy: 'digest', ...(isBeforeWritten ? { writtenFrom: 'digest' } : {}) } })
      expect(digested.effects).toEqual([])
      const summarized = transition(digested.phase, { kind: 'conversation-replaced', by: 'summary' }, T0 + 20)
      expect(summarized.phase.kind !== 'idle' && summarized.phase.run.replacedBy, phase.kind).toBe('summary')
    }
    const swapping: Phase = { kind: 'swapping', run: runOfId('r1', { replacedBy: 'digest', writtenFrom: 'digest' }), sinceMs: T0, swap: SWAP, isCompacting: true }
    const done = transition(swapping, { kind: 'compacted', id: 'r1', swap: SWAP, isSummarized: false, after: AFTER }, T0 + 10)
    expect(done.effects).toEqual([expect.objectContaining({ kind: 'finish-swap', run: expect.objectContaining({ replacedBy: 'digest', writtenFrom: 'digest' }) })])
  })

  test('says the handoff was written from it only when it came before the skill had written', () => {
    const going: Phase = { kind: 'going', run: runOfId('r1'), sinceMs: T0, swap: SWAP }
    const later = transition(going, { kind: 'conversation-replaced', by: 'summary' }, T0 + 10).phase
    expect(later.kind !== 'idle' && later.run.writtenFrom, 'the files were checked before the summary').toBeUndefined()
    const writing: Phase = { kind: 'writing', run: runOfId('r1'), sinceMs: T0, turnId: 't1' }
    const digested = transition(writing, { kind: 'conversation-replaced', by: 'digest', id: 'r1' }, T0 + 10).phase
    const summarized = transition({ kind: 'going', run: digested.kind === 'idle' ? runOfId('x') : digested.run, sinceMs: T0, swap: SWAP }, { kind: 'conversation-replaced', by: 'summary' }, T0 + 20).phase
    expect(summarized.kind !== 'idle' && summarized.run, 'written from the digest; the summary came after').toMatchObject({ writtenFrom: 'digest', replacedBy: 'summary' })
  })

  test("is not recorded with no run, on another run, or on the swap's own compaction in flight", () => {
    expect(transition(IDLE, { kind: 'conversation-replaced', by: 'digest' }, T0).isTaken).toBe(false)
    const writing: Phase = { kind: 'writing', run: runOfId('r1'), sinceMs: T0, turnId: 't1' }
    expect(transition(writing, { kind: 'conversation-replaced', by: 'digest', id: 'r2' }, T0).phase).toBe(writing)
    const inFlight: Phase = { kind: 'swapping', run: runOfId('r1'), sinceMs: T0, swap: SWAP, isCompacting: true }
    expect(transition(inFlight, { kind: 'conversation-replaced', by: 'summary' }, T0).phase).toBe(inFlight)
  })

  test('a run that stops after it never says the conversation is unchanged', () => {
    const writing: Phase = { kind: 'writing', run: runOfId('r1', { replacedBy: 'digest' }), sinceMs: T0, turnId: 't1' }
    const step = transition(writing, { kind: 'turn-ended', turnId: 't1', end: { reason: 'error', answer: '' } }, T0 + 10)
    expect(step.effects).toEqual([expect.objectContaining({ kind: 'drop', run: expect.objectContaining({ replacedBy: 'digest' }) })])
    expect(replacedNoteOf({ replacedBy: 'digest' })).toMatch(/^The conversation had already been replaced by a digest of it at the window's edge[^]*carry on from it/)
    expect(replacedNoteOf({ replacedBy: 'summary' })).toMatch(/^The conversation had already been replaced by Claude Code's own summary/)
    expect(replacedNoteOf({})).toBeUndefined()
    for (const by of ['digest', 'summary'] as const) expect(replacedNoteOf({ replacedBy: by })).not.toMatch(/unchanged/)
  })

  test("the status line says the skill writes from a digest, a repair turn still which repair", () => {
    expect(stageTextOf({ kind: 'writing', run: runOfId('r1', { replacedBy: 'digest', writtenFrom: 'digest' }), sinceMs: T0 })).toBe('the handoff skill is writing from a digest')
    expect(stageTextOf({ kind: 'writing', run: runOfId('r1', { replacedBy: 'digest', writtenFrom: 'digest', repairs: 1 }), sinceMs: T0 })).toMatch(/repair 1/)
    expect(stageTextOf({ kind: 'writing', run: runOfId('r1', { replacedBy: 'summary', writtenFrom: 'summary' }), sinceMs: T0 })).toBe(STAGE_TEXT.writing)
  })
})

// Random interleavings: a run moved by every event in any order, with prompts
// held at random moments. Whatever happens, every prompt taken into the hold
// comes out exactly once (in a swap, or given back by a drop), or is still held.
const EVENTS = (rand: Rand, id: string): RunEvent => {
  const pick = rand.int(20)
  switch (pick) {
    case 0:
      return { kind: 'start', run: runOfId(id) }
    case 1:
      return { kind: 'cancel' }
    case 2:
      return { kind: 'launch', id, chain: { chain: 'new', seq: 1, parent: 'none' } }
    case 3:
      return { kind: 'turn-started', turnId: `t${rand.int(2)}`, text: rand.int(2) === 0 ? `run=tag-${id}` : 'other' }
    case 4:
      return { kind: 'file-written', path: `${CWD}/${HANDOFF.relPath}`, tool: rand.pick(['Write', 'Edit'] as const) }
    case 5:
      return { kind: 'turn-ended', turnId: `t${rand.int(2)}`, end: { reason: rand.pick(['answer', 'answer', 'aborted'] as const), answer: READY } }
    case 6:
      return { kind: 'checked', id, report: rand.pick([CLEAN, NEEDS_FIX, UNSAFE]), ...(rand.int(2) === 0 ? { review: STUB_PARTS } : {}) }
    case 7:
      return { kind: 'compact-begin', id }
    case 8:
      return { kind: 'compact-refused', id, error: 'busy' }
    case 9:
      return { kind: 'compacted', id, swap: SWAP, isSummarized: false, after: AFTER }
    case 10:
      return { kind: 'applied', id }
    case 11:
      return { kind: 'tick' }
    case 12:
      return { kind: 'session-ended', reason: rand.pick(['clear', 'resume', 'prompt_input_exit', 'other']) }
    case 13:
      return { kind: 'hold', text: `a${rand.int(1e9)}`, isCommand: false, attachments: ['image'] }
    case 14:
      return { kind: 'compact-skipped', id, why: 'blocked' }
    case 15:
      return { kind: 'go', id }
    case 16:
      return { kind: 'go-failed', id, why: 'x' }
    case 17:
      return { kind: 'conversation-replaced', by: rand.pick(['digest', 'summary'] as const), ...(rand.int(2) === 0 ? { id } : {}) }
    default:
      return { kind: 'hold', text: `p${rand.int(1e9)}`, isCommand: rand.int(4) === 0 }
  }
}

describe('any interleaving', () => {
  test('loses no held prompt, never drops a run its compaction returned to, never swaps a cancelled run, and never forgets a replaced conversation', () => {
    forAll(
      (rand) => {
        const steps: { event: RunEvent; dtMs: number }[] = []
        for (let i = 0; i < 40; i++) steps.push({ event: EVENTS(rand, rand.pick(['r1', 'r1', 'r1', 'r2'])), dtMs: rand.pick([0, 10, 1_000, 70_000, 200_000]) })
        return steps
      },
      (steps) => {
        let phase: Phase = IDLE
        let now = T0
        const held: string[] = []
        const out: string[] = []
        let cancelledId: string | undefined
        const replaced = new Set<string>()
        for (const { event, dtMs } of steps) {
          now += dtMs
          const step = transition(phase, event, now)
          if (event.kind === 'conversation-replaced' && step.phase.kind !== 'idle' && step.phase.run.replacedBy !== undefined) replaced.add(step.phase.run.id)
          if (event.kind === 'start' && step.isTaken) replaced.delete(event.run.id)
          if (event.kind === 'hold' && step.isTaken) held.push(event.text)
          if (event.kind === 'hold' && (event.attachments?.length ?? 0) > 0) expect(step.isTaken, 'a prompt with attachments is never held').toBe(false)
          // What the run's compaction returns is progress, never a stuck drop.
          if (event.kind === 'compacted' && isAt(phase, 'swapping', event.id) && phase.isCompacting) expect(kinds(step.effects)).toEqual(['finish-swap'])
          if (event.kind === 'cancel' && step.isTaken && step.met.kind !== 'idle') cancelledId = step.met.run.id
          if (event.kind === 'start' && step.isTaken) cancelledId = undefined
          for (const effect of step.effects) {
            if (effect.kind === 'drop' || effect.kind === 'finish-swap') out.push(...effect.run.held, ...effect.run.heldCommands)
            if (effect.kind === 'finish-swap') expect(effect.run.id, 'a cancelled run never swaps').not.toBe(cancelledId)
            // What replaced the conversation mid-run travels with the run to its end: no drop says unchanged.
            if ((effect.kind === 'drop' || effect.kind === 'finish-swap') && replaced.has(effect.run.id)) expect(effect.run.replacedBy).toBeDefined()
          }
          phase = step.phase
        }
        const still = phase.kind === 'idle' ? [] : [...phase.run.held, ...phase.run.heldCommands]
        expect([...out, ...still].sort()).toEqual([...held].sort())
      },
      { runs: 3000 },
    )
  })
})
