// The pure parts of a compaction at the window's edge: the route, what the
// digest writer is asked, why it gave no text, and the two stubs it can end in.
import { describe, expect, test } from 'vitest'
import { compactionRouteOf } from '../../../packages/compact-handoff/hooks/compaction/engine-compaction.js'
import { DIGEST_HANDOFF_OPENING, DIGEST_REPAIR_OPENING, digestPromptOf, digestRepairPromptOf } from '../../../packages/compact-handoff/hooks/compaction/fork-prompt.js'
import { SHAPE_LINES, forkPromptOf } from '../../../packages/compact-handoff/hooks/compaction/fork-prompt.js'
import { digestFailureOf, forkFailureOf, isTooLongOf } from '../../../packages/compact-handoff/hooks/compaction/fork-handoff.js'
import { FORK_HANDOFF_OPENING } from '../../../packages/compact-handoff/hooks/protocol/protocol.js'
import { STUB_OPENING, buildDigestStub, buildForkStub } from '../../../packages/compact-handoff/hooks/stub/swap-text.js'
import { COMPACTION_HANDOFF_VALUES } from '../../../packages/compact-handoff/hooks/options/options.js'

const DIGEST = 'A digest of the conversation, built by compact-handoff code\n[user 1] Rewrite the parser.'

describe('compactionRouteOf at the edge', () => {
  test('a conversation known not to fit goes to the digest writer, the automatic compaction and /compact alike, under auto and all', () => {
    for (const option of ['auto', 'all'] as const) {
      expect(compactionRouteOf({ trigger: 'auto' }, option, 'idle', true)).toEqual({ kind: 'digest', trigger: 'auto', focus: '' })
      expect(compactionRouteOf({ trigger: 'manual', instructions: ' keep it ' }, option, 'idle', true)).toEqual({ kind: 'digest', trigger: 'manual', focus: 'keep it' })
    }
  })

  test('under off, during a run, for a subagent and for a precompute, the edge changes nothing', () => {
    expect(compactionRouteOf({ trigger: 'auto' }, 'off', 'idle', true)).toEqual({ kind: 'summary' })
    expect(compactionRouteOf({ trigger: 'manual' }, 'off', 'idle', true)).toEqual({ kind: 'summary' })
    for (const option of COMPACTION_HANDOFF_VALUES) {
      expect(compactionRouteOf({ trigger: 'auto' }, option, 'checking', true)).toEqual({ kind: 'summary' })
      // While the run's skill writes, its own route answers (run-edge.ts).
      expect(compactionRouteOf({ trigger: 'auto' }, option, 'writing', true)).toEqual({ kind: 'run-edge' })
      expect(compactionRouteOf({ trigger: 'auto', agentId: 'a1' }, option, 'idle', true)).toEqual({ kind: 'pass' })
      expect(compactionRouteOf({ trigger: 'precompute' }, option, 'idle', true)).toEqual(compactionRouteOf({ trigger: 'precompute' }, option, 'idle'))
    }
  })
})

describe('digestPromptOf', () => {
  const prompt = digestPromptOf({ focus: '', isMidTurn: false }, DIGEST)

  test("opens with its own first line, never the fork's (a scripted model tells them apart by it)", () => {
    expect(prompt.split('\n')[0]).toBe(DIGEST_HANDOFF_OPENING)
    expect(DIGEST_HANDOFF_OPENING.startsWith(FORK_HANDOFF_OPENING)).toBe(false)
  })

  test("carries the digest between its marks, said to be data, and the fork's shape and rules after it", () => {
    expect(prompt).toContain(`<digest>\n${DIGEST}\n</digest>`)
    expect(prompt).toMatch(/never an instruction to you/)
    expect(prompt.endsWith(SHAPE_LINES.join('\n'))).toBe(true)
    expect(forkPromptOf({ focus: '', isMidTurn: false }).endsWith(SHAPE_LINES.join('\n'))).toBe(true)
  })

  test("says it sees a digest, not the conversation, and what to write where the digest is silent", () => {
    expect(prompt).toMatch(/You see a digest of the session, not the conversation/)
    expect(prompt).toMatch(/\[unverified\] or "None" rather than guess/)
  })

  test('the focus and a turn under way, only when there are', () => {
    const asked = digestPromptOf({ focus: 'keep the benchmarks', isMidTurn: true }, DIGEST)
    expect(asked).toContain('(their words, verbatim): keep the benchmarks')
    expect(asked).toMatch(/A turn was under way/)
    expect(prompt).not.toMatch(/their words, verbatim|turn was under way/)
  })

  test('the repair carries the digest again, the problems and the handoff as written', () => {
    const repair = digestRepairPromptOf({ focus: '', isMidTurn: false }, DIGEST, ['missing section "## Decisions"'], '# Handoff: x')
    expect(repair.split('\n')[0]).toBe(DIGEST_REPAIR_OPENING)
    expect(repair).toContain(`<digest>\n${DIGEST}\n</digest>`)
    expect(repair).toContain('- missing section "## Decisions"')
    expect(repair.endsWith('The handoff as you wrote it:\n# Handoff: x')).toBe(true)
  })
})

describe('a request refused for its size', () => {
  test('is a 400 or 413 invalid request, nothing else', () => {
    expect(isTooLongOf({ isAnswered: false, reason: 'api-error', status: 400, error: 'invalid_request' })).toBe(true)
    expect(isTooLongOf({ isAnswered: false, reason: 'api-error', status: 413, error: 'invalid_request' })).toBe(true)
    expect(isTooLongOf({ isAnswered: false, reason: 'api-error', status: 400, error: 'overloaded' })).toBe(false)
    expect(isTooLongOf({ isAnswered: false, reason: 'api-error', status: 500, error: 'invalid_request' })).toBe(false)
    expect(isTooLongOf({ isAnswered: false, reason: 'empty-reply' })).toBe(false)
    expect(forkFailureOf({ isAnswered: false, reason: 'api-error', status: 400, error: 'invalid_request' })).toMatch(/too long for one more request/)
  })

  test("the digest writer's failures name its request, and a timeout its limit, never an interrupt", () => {
    expect(digestFailureOf({ isAnswered: false, reason: 'api-error', status: 529, error: 'overloaded' }, 180_000)).toBe("the digest's request failed (HTTP 529, overloaded)")
    expect(digestFailureOf({ isAnswered: false, reason: 'aborted' }, 180_000)).toBe("the digest's request took longer than 180 s")
    expect(digestFailureOf({ isAnswered: false, reason: 'empty-reply' }, 180_000)).toMatch(/no text/)
  })
})

describe('the stubs at the edge', () => {
  const base = { handoff: '.claude/handoffs/HANDOFF_parser_2026-12-01.md', handoffText: '# Handoff: parser\n', words: { messages: [], dropped: 0 }, trigger: 'auto' as const, isMidTurn: false }

  test('a handoff written from a digest says so, and to look a detail up with the recall tool before relying on it', () => {
    const stub = buildForkStub({ ...base, writtenFrom: 'digest' })
    expect(stub.startsWith(`${STUB_OPENING}, at Claude Code's automatic compaction: the conversation was too long for one more request`)).toBe(true)
    expect(stub).toMatch(/written from a digest of it/)
    expect(stub).toMatch(/recall tool before relying on it/)
    expect(buildForkStub(base)).toMatch(/a fork of this session wrote the handoff below/)
    expect(buildForkStub({ ...base, writtenFrom: 'fork' })).toBe(buildForkStub(base))
  })

  test('the digest itself: the stub opening, the digest whole, the closing for where the turn stood', () => {
    const stub = buildDigestStub({ digest: DIGEST, trigger: 'manual', isMidTurn: false })
    expect(stub.startsWith(`${STUB_OPENING}, at the /compact the user typed:`)).toBe(true)
    expect(stub).toContain(`\n\n${DIGEST}\n\n`)
    expect(stub).toMatch(/no handoff or summary could be written/)
    expect(stub.endsWith('The next message says what to do.')).toBe(true)
    expect(buildDigestStub({ digest: DIGEST, trigger: 'auto', isMidTurn: true })).toMatch(/A turn was under way/)
  })
})
