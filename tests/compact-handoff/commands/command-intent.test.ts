// What /compact-handoff and /compact-handoffplan ask for.
import { describe, expect, test } from 'vitest'
import { PLAN_COMMAND, HANDOFF_COMMAND, commandFailureTextOf, intentOf } from '../../../packages/compact-handoff/hooks/commands/command-intent.js'

describe('intentOf for /compact-handoff', () => {
  test('starts a handoff run that applies at once, with no focus, when given no arguments', () => {
    expect(intentOf(HANDOFF_COMMAND, '')).toEqual({ kind: 'start', mode: 'handoff', focus: '', apply: 'now' })
  })

  test('starts a handoff run with the arguments as focus, blanks collapsed', () => {
    expect(intentOf(HANDOFF_COMMAND, '  the   parser\n rewrite\t')).toEqual({ kind: 'start', mode: 'handoff', focus: 'the parser rewrite', apply: 'now' })
  })

  test.each(['cancel', '  cancel\n'])('cancels on %j', (args) => {
    expect(intentOf(HANDOFF_COMMAND, args)).toEqual({ kind: 'cancel' })
  })

  test.each(['status', '\tstatus '])('reports status on %j', (args) => {
    expect(intentOf(HANDOFF_COMMAND, args)).toEqual({ kind: 'status' })
  })

  test.each(['apply', ' apply\n'])('applies a reviewed run on %j', (args) => {
    expect(intentOf(HANDOFF_COMMAND, args)).toEqual({ kind: 'apply' })
  })

  test('treats a focus that merely starts with a keyword as a focus', () => {
    expect(intentOf(HANDOFF_COMMAND, 'cancel the old plan')).toEqual({ kind: 'start', mode: 'handoff', focus: 'cancel the old plan', apply: 'now' })
    expect(intentOf(HANDOFF_COMMAND, 'status page')).toEqual({ kind: 'start', mode: 'handoff', focus: 'status page', apply: 'now' })
    expect(intentOf(HANDOFF_COMMAND, 'apply the migration')).toEqual({ kind: 'start', mode: 'handoff', focus: 'apply the migration', apply: 'now' })
  })
})

describe('intentOf for review', () => {
  test.each(['review', '  review\n'])('starts a review run with no focus on %j', (args) => {
    expect(intentOf(HANDOFF_COMMAND, args)).toEqual({ kind: 'start', mode: 'handoff', focus: '', apply: 'review' })
  })

  test('takes what follows the word as the focus, blanks collapsed', () => {
    expect(intentOf(HANDOFF_COMMAND, 'review   the\tparser \n rewrite ')).toEqual({ kind: 'start', mode: 'handoff', focus: 'the parser rewrite', apply: 'review' })
  })

  test('starts a plan review run from /compact-handoffplan', () => {
    expect(intentOf(PLAN_COMMAND, ' review split the parser')).toEqual({ kind: 'start', mode: 'plan', focus: 'split the parser', apply: 'review' })
    expect(intentOf(PLAN_COMMAND, 'review')).toEqual({ kind: 'start', mode: 'plan', focus: '', apply: 'review' })
  })

  test('reads a word that merely begins with "review" as a focus to apply at once', () => {
    expect(intentOf(HANDOFF_COMMAND, 'reviewer notes')).toEqual({ kind: 'start', mode: 'handoff', focus: 'reviewer notes', apply: 'now' })
    expect(intentOf(HANDOFF_COMMAND, 'reviews')).toEqual({ kind: 'start', mode: 'handoff', focus: 'reviews', apply: 'now' })
  })

  test('reads a review word later in the focus as part of the focus', () => {
    expect(intentOf(HANDOFF_COMMAND, 'the code review')).toEqual({ kind: 'start', mode: 'handoff', focus: 'the code review', apply: 'now' })
  })

  test('takes a control word after "review" as the focus of a review run', () => {
    expect(intentOf(HANDOFF_COMMAND, 'review apply')).toEqual({ kind: 'start', mode: 'handoff', focus: 'apply', apply: 'review' })
    expect(intentOf(HANDOFF_COMMAND, 'review cancel')).toEqual({ kind: 'start', mode: 'handoff', focus: 'cancel', apply: 'review' })
  })
})

describe('intentOf for /compact-handoffplan', () => {
  test('starts a plan run with the focus', () => {
    expect(intentOf(PLAN_COMMAND, ' split  the parser ')).toEqual({ kind: 'start', mode: 'plan', focus: 'split the parser', apply: 'now' })
  })

  test('takes the same control words as /compact-handoff', () => {
    expect(intentOf(PLAN_COMMAND, 'cancel')).toEqual({ kind: 'cancel' })
    expect(intentOf(PLAN_COMMAND, ' status ')).toEqual({ kind: 'status' })
    expect(intentOf(PLAN_COMMAND, 'apply ')).toEqual({ kind: 'apply' })
  })

  test('starts a plan run with no focus when given no arguments', () => {
    expect(intentOf(PLAN_COMMAND, '')).toEqual({ kind: 'start', mode: 'plan', focus: '', apply: 'now' })
  })
})

describe('commandFailureTextOf', () => {
  test('says the command failed, why, that nothing changed, and where to look', () => {
    expect(commandFailureTextOf('disk gone')).toBe(
      'the command failed (disk gone). The conversation is unchanged; /compact-handoff status shows any run, /compact-handoff cancel drops it.',
    )
  })

  test('leaves out an empty reason', () => {
    expect(commandFailureTextOf(undefined)).toMatch(/^the command failed\. /)
  })
})
