// Reading the end of the skill's turn: how it ended, what its sentinel named,
// which files will replace the conversation, and which continue-prompt follows.
import { describe, expect, test } from 'vitest'
import { CONTINUE_PROMPT_HEADER, FAILED_PREFIX, READY_PREFIX } from '../../../packages/compact-handoff/hooks/protocol/protocol.js'
import type { HandoffPath } from '../../../packages/compact-handoff/hooks/protocol/protocol-paths.js'
import type { Run } from '../../../packages/compact-handoff/hooks/run/run.js'
import { verdictOf, type TurnEnd } from '../../../packages/compact-handoff/hooks/run/turn-verdict.js'
import { forAll } from '../../support/property.js'
import { runFixture } from '../../support/run-fixture.js'

const CWD = '/srv/proj'
const HANDOFF: HandoffPath = { kind: 'handoff', relPath: 'plans/handoffs/HANDOFF_parser_2026-11-29.md' }
const LATER_HANDOFF: HandoffPath = { kind: 'handoff', relPath: 'plans/handoffs/HANDOFF_parser_2026-11-29_2.md' }
const PLAN: HandoffPath = { kind: 'plan', relPath: 'plans/handoffs/PLAN_parser_2026-11-29.md' }

function runWith(mode: Run['mode'], files: HandoffPath[]): Run {
  return runFixture({ mode, files, cwd: CWD })
}

function answered(...lines: string[]): TurnEnd {
  return { reason: 'answer', answer: ['I wrote the handoff.', ...lines].join('\n') }
}

const PROMPT_BLOCK = `${CONTINUE_PROMPT_HEADER}\n-----\nRead the handoff and fix the tokenizer first.\n-----`

describe('verdictOf when the turn did not end as an answer', () => {
  test.each([
    ['aborted', 'the handoff turn was interrupted'],
    ['refusal', 'the model refused the handoff turn'],
    ['error', 'the handoff turn ended with an error'],
  ] as const)('aborts a turn that ended as %s', (reason, why) => {
    const end: TurnEnd = { reason, answer: `${READY_PREFIX} ${HANDOFF.relPath}` }
    expect(verdictOf(end, runWith('handoff', [HANDOFF]))).toEqual({ kind: 'abort', why })
  })
})

describe('verdictOf with a FAILED sentinel', () => {
  test('aborts with the reason the skill gave', () => {
    const verdict = verdictOf(answered(`${FAILED_PREFIX} the repository is not a git checkout`), runWith('handoff', [HANDOFF]))
    expect(verdict).toEqual({ kind: 'abort', why: 'the handoff skill reported failure: the repository is not a git checkout' })
  })
})

describe('verdictOf with a READY sentinel', () => {
  test('checks the named handoff, with no notices', () => {
    const verdict = verdictOf(answered(`${READY_PREFIX} ${HANDOFF.relPath}`), runWith('handoff', [HANDOFF]))
    expect(verdict).toMatchObject({ kind: 'check', handoff: HANDOFF, notices: [] })
    expect(verdict).not.toHaveProperty('plan')
  })

  test('checks the named handoff and plan in plan mode', () => {
    const verdict = verdictOf(answered(`${READY_PREFIX} ${HANDOFF.relPath} | ${PLAN.relPath}`), runWith('plan', [PLAN, HANDOFF]))
    expect(verdict).toMatchObject({ kind: 'check', handoff: HANDOFF, plan: PLAN, notices: [] })
  })

  test('accepts a named path given in full', () => {
    const verdict = verdictOf(answered(`${READY_PREFIX} ${CWD}/${HANDOFF.relPath}`), runWith('handoff', [HANDOFF]))
    expect(verdict).toMatchObject({ kind: 'check', handoff: HANDOFF, notices: [] })
  })

  test('accepts a named Windows path given in full, its drive letter in the other case', () => {
    const run = runFixture({ mode: 'handoff', files: [HANDOFF], cwd: 'C:\\Users\\me\\proj', ignoresCase: true })
    const verdict = verdictOf(answered(`${READY_PREFIX} c:\\Users\\me\\proj\\${HANDOFF.relPath.replace(/\//g, '\\')}`), run)
    expect(verdict).toMatchObject({ kind: 'check', handoff: HANDOFF, notices: [] })
    expect(verdictOf(answered(`${READY_PREFIX} D:\\Users\\me\\proj\\${HANDOFF.relPath.replace(/\//g, '\\')}`), run)).toMatchObject({ kind: 'abort' })
  })

  test('prefers the named handoff over a later recorded one', () => {
    const verdict = verdictOf(answered(`${READY_PREFIX} ${HANDOFF.relPath}`), runWith('handoff', [HANDOFF, LATER_HANDOFF]))
    expect(verdict).toMatchObject({ kind: 'check', handoff: HANDOFF })
  })

  test('goes on to check a named file the run did not record (the file check asks for it to be written)', () => {
    const verdict = verdictOf(answered(`${READY_PREFIX} ${HANDOFF.relPath}`), runWith('handoff', []))
    expect(verdict).toMatchObject({ kind: 'check', handoff: HANDOFF, notices: [] })
  })

  test('in a repair turn, keeps what the turn before chose when this answer names nothing', () => {
    const previous = { handoff: LATER_HANDOFF, continuePrompt: 'the first one', notices: [] }
    const verdict = verdictOf({ reason: 'answer', answer: 'Fixed.' }, runFixture({ files: [HANDOFF], cwd: CWD }), previous)
    expect(verdict).toEqual({ kind: 'check', handoff: LATER_HANDOFF, continuePrompt: 'the first one', notices: [] })
  })

  test.each([
    ['another project', '/srv/other/plans/handoffs/HANDOFF_parser_2026-11-29.md'],
    ['a climb out of the session', '../other/plans/handoffs/HANDOFF_parser_2026-11-29.md'],
    ['a nested subfolder', 'plans/handoffs/old/HANDOFF_parser_2026-11-29.md'],
    ['a file that is not a handoff', 'notes/summary.md'],
  ])('aborts when the sentinel names a path in %s', (_name, path) => {
    const verdict = verdictOf(answered(`${READY_PREFIX} ${HANDOFF.relPath} | ${path}`), runWith('handoff', [HANDOFF]))
    expect(verdict).toEqual({
      kind: 'abort',
      why: `the skill named ${path}, which is not a HANDOFF_*.md or PLAN_*.md file directly under plans/handoffs/ or .claude/handoffs/ of this project`,
    })
  })

  test('uses the last sentinel line of the answer', () => {
    const verdict = verdictOf(
      answered(`${READY_PREFIX} ${HANDOFF.relPath}`, 'Wait, one more change.', `${READY_PREFIX} ${LATER_HANDOFF.relPath}`),
      runWith('handoff', [HANDOFF, LATER_HANDOFF]),
    )
    expect(verdict).toMatchObject({ kind: 'check', handoff: LATER_HANDOFF })
  })
})

describe('verdictOf without a sentinel', () => {
  test('uses the last handoff the run recorded, with a notice', () => {
    const verdict = verdictOf(answered('All done.'), runWith('handoff', [HANDOFF, LATER_HANDOFF]))
    expect(verdict).toMatchObject({
      kind: 'check',
      handoff: LATER_HANDOFF,
      notices: ['the skill printed no sentinel line; using the files it wrote'],
    })
  })

  test('aborts when the run recorded no handoff', () => {
    expect(verdictOf(answered('All done.'), runWith('handoff', []))).toEqual({ kind: 'abort', why: 'no handoff file was written' })
  })

  test('aborts when the run recorded only a plan', () => {
    expect(verdictOf(answered('All done.'), runWith('plan', [PLAN]))).toEqual({ kind: 'abort', why: 'no handoff file was written' })
  })
})

describe('verdictOf and the plan', () => {
  test('aborts a plan run that wrote no plan', () => {
    const verdict = verdictOf(answered(`${READY_PREFIX} ${HANDOFF.relPath}`), runWith('plan', [HANDOFF]))
    expect(verdict).toEqual({ kind: 'abort', why: 'a plan run, but no plan file was written' })
  })

  test('takes a recorded plan in plan mode when the sentinel names only the handoff', () => {
    const verdict = verdictOf(answered(`${READY_PREFIX} ${HANDOFF.relPath}`), runWith('plan', [HANDOFF, PLAN]))
    expect(verdict).toMatchObject({ kind: 'check', handoff: HANDOFF, plan: PLAN })
  })

  test('ignores a named and recorded plan in a handoff run', () => {
    const verdict = verdictOf(answered(`${READY_PREFIX} ${HANDOFF.relPath} | ${PLAN.relPath}`), runWith('handoff', [HANDOFF, PLAN]))
    expect(verdict).toMatchObject({ kind: 'check', handoff: HANDOFF })
    expect(verdict).not.toHaveProperty('plan')
    expect(verdict.kind === 'check' ? verdict.continuePrompt : '').not.toContain(PLAN.relPath)
  })
})

describe('verdictOf and the continue-prompt', () => {
  test.each(['handoff', 'plan'] as const)('takes the prompt the skill printed in a %s run', (mode) => {
    const verdict = verdictOf(answered(PROMPT_BLOCK, `${READY_PREFIX} ${HANDOFF.relPath} | ${PLAN.relPath}`), runWith(mode, [HANDOFF, PLAN]))
    expect(verdict).toMatchObject({ kind: 'check', continuePrompt: 'Read the handoff and fix the tokenizer first.' })
  })

  test('falls back to reading the handoff and its Next step in a handoff run', () => {
    const verdict = verdictOf(answered(`${READY_PREFIX} ${HANDOFF.relPath}`), runWith('handoff', [HANDOFF]))
    const prompt = verdict.kind === 'check' ? verdict.continuePrompt : ''
    expect(prompt).toContain(`Read the handoff ${HANDOFF.relPath} and continue from its Next step.`)
  })

  test('falls back to reading the plan and starting Phase 1 in plan mode', () => {
    const verdict = verdictOf(answered(`${READY_PREFIX} ${HANDOFF.relPath} | ${PLAN.relPath}`), runWith('plan', [HANDOFF, PLAN]))
    const prompt = verdict.kind === 'check' ? verdict.continuePrompt : ''
    expect(prompt).toContain(`Read the plan ${PLAN.relPath} and the handoff ${HANDOFF.relPath}.`)
    expect(prompt).toContain('start Phase 1 of the plan')
  })

  test('leaves held messages out: they are added when the prompt is sent, and a review run reads the same', () => {
    const end = answered(PROMPT_BLOCK, `${READY_PREFIX} ${HANDOFF.relPath}`)
    const plain = verdictOf(end, runWith('handoff', [HANDOFF]))
    const reviewedWithHeld = verdictOf(end, { ...runWith('handoff', [HANDOFF]), apply: 'review', held: ['also fix the README'], contextPercentBefore: 91 })
    expect(reviewedWithHeld).toEqual(plain)
    expect(JSON.stringify(reviewedWithHeld)).not.toContain('also fix the README')
  })
})

describe('verdictOf over random answers', () => {
  const LINES = [
    `${READY_PREFIX} ${HANDOFF.relPath}`, `${READY_PREFIX} ${PLAN.relPath}`, `${READY_PREFIX} ../x/HANDOFF_a.md`, `${FAILED_PREFIX} no`,
    PROMPT_BLOCK, CONTINUE_PROMPT_HEADER, '-----', 'prose', '', '`', '🙂\r',
  ] as const
  const FILES = [HANDOFF, LATER_HANDOFF, PLAN] as const

  test('never throws, and a plan travels only in plan mode', () => {
    forAll(
      (rand) => ({
        answer: Array.from({ length: rand.int(6) }, () => rand.pick(LINES)).join(rand.pick(['\n', '\r\n'])),
        run: runWith(rand.pick(['handoff', 'plan'] as const), Array.from({ length: rand.int(4) }, () => rand.pick(FILES))),
      }),
      ({ answer, run }) => {
        const verdict = verdictOf({ reason: 'answer', answer }, run)
        if (verdict.kind === 'abort') return
        expect(verdict.handoff.kind).toBe('handoff')
        if (run.mode === 'plan') expect(verdict.plan?.kind).toBe('plan')
        else expect(verdict.plan).toBeUndefined()
        expect(verdict.continuePrompt).not.toBe('')
      },
    )
  })
})
