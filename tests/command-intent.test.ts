// What /compact-handoff and /compact-handoffplan ask for.
import { describe, expect, test } from 'vitest'
import { PLAN_COMMAND, RESUME_COMMAND, intentOf } from '../packages/compact-handoff/hooks/command-intent.js'

describe('intentOf for /compact-handoff', () => {
  test('starts a resume run with no focus when given no arguments', () => {
    expect(intentOf(RESUME_COMMAND, '')).toEqual({ kind: 'start', mode: 'resume', focus: '' })
  })

  test('starts a resume run with the arguments as focus, blanks collapsed', () => {
    expect(intentOf(RESUME_COMMAND, '  the   parser\n rewrite\t')).toEqual({ kind: 'start', mode: 'resume', focus: 'the parser rewrite' })
  })

  test.each(['cancel', '  cancel\n'])('cancels on %j', (args) => {
    expect(intentOf(RESUME_COMMAND, args)).toEqual({ kind: 'cancel' })
  })

  test.each(['status', '\tstatus '])('reports status on %j', (args) => {
    expect(intentOf(RESUME_COMMAND, args)).toEqual({ kind: 'status' })
  })

  test('treats a focus that merely starts with a keyword as a focus', () => {
    expect(intentOf(RESUME_COMMAND, 'cancel the old plan')).toEqual({ kind: 'start', mode: 'resume', focus: 'cancel the old plan' })
    expect(intentOf(RESUME_COMMAND, 'status page')).toEqual({ kind: 'start', mode: 'resume', focus: 'status page' })
  })
})

describe('intentOf for /compact-handoffplan', () => {
  test('starts a plan run with the focus', () => {
    expect(intentOf(PLAN_COMMAND, ' split  the parser ')).toEqual({ kind: 'start', mode: 'plan', focus: 'split the parser' })
  })

  test('takes the same control words as /compact-handoff', () => {
    expect(intentOf(PLAN_COMMAND, 'cancel')).toEqual({ kind: 'cancel' })
    expect(intentOf(PLAN_COMMAND, ' status ')).toEqual({ kind: 'status' })
  })

  test('starts a plan run with no focus when given no arguments', () => {
    expect(intentOf(PLAN_COMMAND, '')).toEqual({ kind: 'start', mode: 'plan', focus: '' })
  })
})
