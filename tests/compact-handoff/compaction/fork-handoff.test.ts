// The file a fork's handoff becomes (frontmatter by code, the skills' name
// rule, never a name taken) and what the person is told when a fork gives none.
import { SKILL_FILE_NAME_RE } from '../../../packages/compact-handoff/tests/support/skill-protocol.js'
import { describe, expect, test } from 'vitest'
import {
  FORK_HANDOFF_DIR,
  MAX_FOCUS_CHARS,
  composedHandoffOf,
  focusValueOf,
  forkFailureOf,
  freeHandoffNameOf,
  slugOf,
  unmaskableProblemOf,
} from '../../../packages/compact-handoff/hooks/compaction/fork-handoff.js'
import { formatProblems } from '../../../packages/compact-handoff/hooks/format/handoff-format.js'
import { frontmatterOf } from '../../../packages/compact-handoff/hooks/format/frontmatter.js'
import { fileKindOfRelPath } from '../../../packages/compact-handoff/hooks/protocol/protocol-paths.js'
import { chainValuesOf } from '../../../packages/compact-handoff/hooks/run/frontmatter-values.js'
import { validateHandoff } from '../../../packages/handoff-tools/src/validate.js'
import { forkReplyTextOf, handoffTextOf } from '../../support/handoff-text.js'

const CREATED = '2026-12-01T04:05:06Z'
const FIRST = { created: CREATED, chain: 'new', seq: 1, parent: 'none', focus: '' }
const CONTEXT = { projectDir: '/srv/app' }

describe('slugOf', () => {
  test("takes up to five words of the title, the leading 'Handoff' left out", () => {
    expect(slugOf('Handoff: fix the login redirect loop in auth', '')).toBe('fix-the-login-redirect-loop')
    expect(slugOf('Handoff: Parser rewrite (CRLF)', '')).toBe('parser-rewrite-crlf')
  })

  test('falls back to the focus, then to a word of its own', () => {
    expect(slugOf('Handoff: — ✓ —', 'keep the benchmarks')).toBe('keep-the-benchmarks')
    expect(slugOf(undefined, '')).toBe('session')
    expect(slugOf('Handoff', 'écrire')).toBe('crire')
  })

  test('keeps a name any file system takes: each word cut, and only [a-z0-9-]', () => {
    const slug = slugOf(`Handoff: ${'x'.repeat(300)} ${'y'.repeat(300)}`, '')
    expect(slug).toBe(`${'x'.repeat(24)}-${'y'.repeat(24)}`)
  })
})

describe('freeHandoffNameOf', () => {
  test('names the file by the skills\' rule, dated by created', () => {
    const name = freeHandoffNameOf('parser-rewrite', CREATED, [])
    expect(name).toBe('HANDOFF_parser-rewrite_2026-12-01.md')
    expect(name).toMatch(SKILL_FILE_NAME_RE)
    expect(fileKindOfRelPath(`${FORK_HANDOFF_DIR}/${name}`)).toBe('handoff')
  })

  test('never takes a name the folder holds, in any letter case: _2, _3 and on', () => {
    const taken = ['HANDOFF_parser-rewrite_2026-12-01.md', 'handoff_parser-rewrite_2026-12-01_2.md', 'HANDOFF_parser-rewrite_2026-12-01_4.md']
    const name = freeHandoffNameOf('parser-rewrite', CREATED, taken)
    expect(name).toBe('HANDOFF_parser-rewrite_2026-12-01_3.md')
    expect(name).toMatch(SKILL_FILE_NAME_RE)
  })
})

describe('focusValueOf', () => {
  test('is none for no words, and the words on one line, quoted, otherwise', () => {
    expect(focusValueOf('')).toBe('none')
    expect(focusValueOf(' \n\t ')).toBe('none')
    expect(focusValueOf('keep the "bench"\nmarks:  all')).toBe('"keep the \\"bench\\" marks: all"')
  })

  test(`is cut to ${MAX_FOCUS_CHARS} characters, visibly`, () => {
    const value = JSON.parse(focusValueOf('a'.repeat(500))) as string
    expect(value).toBe(`${'a'.repeat(MAX_FOCUS_CHARS)}…`)
  })

  test('holds nothing a YAML reader refuses: control characters, a lone surrogate, a byte-order mark', () => {
    const text = composedHandoffOf({ ...FIRST, focus: 'bad\u0000\u0085\u007f\ufeff\ud800 words' }, 'HANDOFF_a_2026-12-01.md', forkReplyTextOf())
    expect(formatProblems(text, 'handoff', CONTEXT)).toEqual([])
    expect(frontmatterOf(text)?.get('focus')).toBe('bad \ufffd words')
  })
})

describe('composedHandoffOf', () => {
  test("gives the fork's sections the frontmatter: a first handoff names its chain after its own file", () => {
    const text = composedHandoffOf({ ...FIRST, focus: 'keep the benchmarks' }, 'HANDOFF_parser-rewrite_2026-12-01.md', forkReplyTextOf())
    const fields = frontmatterOf(text)
    expect(Object.fromEntries(fields ?? [])).toEqual({
      kind: 'handoff',
      created: CREATED,
      status: 'in-progress',
      chain: 'HANDOFF_parser-rewrite_2026-12-01',
      seq: '1',
      parent: 'none',
      focus: 'keep the benchmarks',
    })
    expect(text.endsWith(forkReplyTextOf())).toBe(true)
  })

  test('passes the format check and the Node validator, as the skill files must', () => {
    const text = composedHandoffOf(FIRST, 'HANDOFF_parser-rewrite_2026-12-01.md', forkReplyTextOf())
    expect(formatProblems(text, 'handoff', CONTEXT)).toEqual([])
    expect(validateHandoff(text, 'handoff', CONTEXT)).toEqual([])
  })

  test("continues the chain of the session's last swap", () => {
    const parent = '.claude/handoffs/HANDOFF_parser-rewrite_2026-11-29.md'
    const chain = chainValuesOf({ kind: 'handoff', handoff: { relPath: parent, isOwn: true, text: handoffTextOf() } })
    expect(chain).toEqual({ chain: 'HANDOFF_parser-rewrite_2026-11-29', seq: 2, parent })
    const text = composedHandoffOf({ created: CREATED, ...chain, focus: '' }, 'HANDOFF_parser-rewrite_2026-12-01.md', forkReplyTextOf())
    expect(frontmatterOf(text)?.get('chain')).toBe('HANDOFF_parser-rewrite_2026-11-29')
    expect(frontmatterOf(text)?.get('seq')).toBe('2')
    expect(frontmatterOf(text)?.get('parent')).toBe(parent)
    expect(formatProblems(text, 'handoff', CONTEXT)).toEqual([])
  })

  test('a reply missing a section fails the same check', () => {
    const text = composedHandoffOf(FIRST, 'HANDOFF_a_2026-12-01.md', forkReplyTextOf().replace(/## Decisions\n\n[^\n]*\n/, ''))
    expect(formatProblems(text, 'handoff', CONTEXT).join('\n')).toContain('missing section "## Decisions"')
  })
})

describe('unmaskableProblemOf', () => {
  test('sends back a handoff longer than one masking call takes, and lets a real one through', () => {
    expect(unmaskableProblemOf(forkReplyTextOf())).toBeUndefined()
    expect(unmaskableProblemOf('x'.repeat(100_001))).toMatch(/100001 characters, over the 100000/)
  })
})

describe('forkFailureOf', () => {
  test('says each reason in words', () => {
    expect(forkFailureOf({ isAnswered: false, reason: 'nothing-to-fork' })).toMatch(/nothing to fork/)
    expect(forkFailureOf({ isAnswered: false, reason: 'empty-reply' })).toMatch(/no text/)
    expect(forkFailureOf({ isAnswered: false, reason: 'aborted' })).toMatch(/interrupted/)
    expect(forkFailureOf({ isAnswered: false, reason: 'api-error', status: 529, error: 'overloaded' })).toBe("the fork's request failed (HTTP 529, overloaded)")
    expect(forkFailureOf({ isAnswered: false, reason: 'api-error', status: null, error: 'unknown' })).toBe("the fork's request failed (HTTP no response, unknown)")
  })

  test('names a request refused for its size as the conversation being too long', () => {
    expect(forkFailureOf({ isAnswered: false, reason: 'api-error', status: 400, error: 'invalid_request' })).toMatch(/too long/)
    expect(forkFailureOf({ isAnswered: false, reason: 'api-error', status: 413, error: 'invalid_request' })).toMatch(/too long/)
  })
})
