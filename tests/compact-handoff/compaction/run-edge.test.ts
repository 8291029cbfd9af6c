// The run at the window's edge, decided: which messages are the run's own
// turn (kept, with their handles), which the digest stands for, and the
// window the digest is told.
import { describe, expect, test } from 'vitest'
import { MAX_KEPT_STEPS_SHARE, charsOf, edgeDigestTextOf, edgePlanOf, runTurnOf, type EdgeMessage } from '../../../packages/compact-handoff/hooks/compaction/run-edge.js'

const TAG = 'run=r7'
const user = (text: string): EdgeMessage => ({ role: 'user', text })
const assistant = (text: string): EdgeMessage => ({ role: 'assistant', text })
const result = (text: string): EdgeMessage => ({ role: 'user', text: '', toolResults: [{ text }] })
const call = (input: Record<string, unknown>): EdgeMessage => ({ role: 'assistant', text: '', toolUses: [{ input }] })

const ROWS = user(`<command-name>/compact-handoff-skills:handoff</command-name>\n<command-args>compact-mode ${TAG} created=x</command-args>`)
const BODY = user(`Base directory for this skill: /skills/handoff\n\nArguments: \`compact-mode ${TAG} created=x\``)

describe('runTurnOf', () => {
  test("finds the invocation by the run's tag, with the user messages sent beside it", () => {
    const messages = [user('Rewrite the parser.'), assistant('Done.'), ROWS, BODY]
    expect(runTurnOf(messages, TAG)).toEqual({ start: 2, end: 3 })
    expect(runTurnOf([user('Rewrite the parser.'), assistant('Done.'), BODY], TAG), 'the body alone carries it too').toEqual({ start: 2, end: 2 })
  })

  test('takes the newest tagged message: a repair prompt after the first turn', () => {
    const repair = user(`The handoff files need fixes (${TAG}).`)
    const messages = [user('work'), assistant('ok'), BODY, call({ file_path: 'a' }), result('ok'), assistant('COMPACT-HANDOFF-READY: x'), repair]
    expect(runTurnOf(messages, TAG)).toEqual({ start: 6, end: 6 })
  })

  test("is undefined where no message carries the run's tag, and never takes a tool result for it", () => {
    expect(runTurnOf([user('work'), assistant('ok'), user('another plugin asked')], TAG)).toBeUndefined()
    expect(runTurnOf([user('work'), call({}), result(`output that quotes ${TAG}`)], TAG)).toBeUndefined()
    expect(runTurnOf([], TAG)).toBeUndefined()
  })

  test('is linear: a conversation of long messages is read once', () => {
    const long = 'x'.repeat(200_000)
    const messages = [...Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? user(long) : assistant(long))), BODY]
    const started = performance.now()
    expect(runTurnOf(messages, TAG)).toEqual({ start: 200, end: 200 })
    expect(performance.now() - started).toBeLessThan(2_000)
  })
})

describe('edgePlanOf', () => {
  test('digests everything before the invocation and keeps it and the steps after it', () => {
    const messages = [user('Rewrite the parser.'), assistant('Done.'), ROWS, BODY, call({ file_path: 'src/a.ts' }), result('contents')]
    const plan = edgePlanOf(messages, { start: 2, end: 3 }, 200_000)
    expect(plan.digested).toEqual([0, 1])
    expect(plan.kept).toEqual([2, 3, 4, 5])
  })

  test("digests the steps too when they would crowd the window, keeping the invocation last", () => {
    const big = result('y'.repeat(Math.ceil(200_000 * MAX_KEPT_STEPS_SHARE * 3) + 10))
    const messages = [user('Rewrite the parser.'), assistant('Done.'), BODY, call({ file_path: 'src/huge.log' }), big]
    const plan = edgePlanOf(messages, { start: 2, end: 2 }, 200_000)
    expect(plan.kept).toEqual([2])
    expect(plan.digested).toEqual([0, 1, 3, 4])
  })

  test('tells the digest the window less what is kept', () => {
    const messages = [user('a'), BODY]
    const plan = edgePlanOf(messages, { start: 1, end: 1 }, 200_000)
    expect(plan.digestWindowTokens).toBe(200_000 - Math.ceil(charsOf(BODY) / 3))
    expect(edgePlanOf(messages, { start: 1, end: 1 }, 10).digestWindowTokens, 'never below nothing').toBe(0)
  })

  test("counts a message's calls and results, not only its text", () => {
    expect(charsOf(call({ command: 'pnpm test' }))).toBe(JSON.stringify({ command: 'pnpm test' }).length)
    expect(charsOf(result('12345'))).toBe(5)
  })
})

describe('edgeDigestTextOf', () => {
  test('is the digest, then what it stands in for and how the skill goes on', () => {
    const text = edgeDigestTextOf('A digest of the conversation, built by compact-handoff code\n\nentries\n')
    expect(text.startsWith('A digest of the conversation, built by compact-handoff code\n\nentries\n\n')).toBe(true)
    expect(text).toMatch(/did not fit the context window[^\n]*Write the handoff from it[^\n]*mcp__compact-handoff__recall/)
  })
})
