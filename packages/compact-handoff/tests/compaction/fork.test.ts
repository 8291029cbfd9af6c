// The engine's automatic compaction answered with a handoff a fork writes:
// the file, the one message the conversation becomes, and the handoff's place
// in the chain afterwards.
import { parseSkillArgs } from '../support/skill-protocol.js'
import { describe, expect } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { CWD, world, swapLogEntries } from '../support/world.js'
import { endTurn, typeCommand } from '../support/engine-calls.js'
import { LAUNCH_DELAY_MS, skillWritesHandoff, typeAndLaunch } from '../support/flow.js'
import { LAUNCH_RETRY_MS } from '../../hooks/run/run-steps.js'
import { AT_PROMPT, FIRST_WORDS, FORK_FILE, MID_TURN, REPLY, TYPED, compactAuto, checkedHandoffOf, fileText, handoffFiles, sessionWithWork } from '../support/fork-support.js'
import { FORK_HANDOFF_OPENING } from '../../hooks/protocol/protocol.js'
import { STUB_OPENING } from '../../hooks/stub/swap-text.js'
import { MAX_LATEST_RESULT_CHARS } from '../../hooks/compaction/latest-step.js'
import type { SessionMessage } from 'claude-code'
import { ownRecordsIn } from '../support/records.js'

const SLOW = { timeoutMs: 30_000 }

describe('an automatic compaction in the middle of a tool-call turn', () => {
  test('becomes a checked handoff file and one user message, with no summariser request', SLOW, async ($, on) => {
    const w = world(on, { forks: [REPLY], contextPercent: 91 })
    await sessionWithWork($)
    const result = await compactAuto($, MID_TURN)
    expect(w.seen.compactions, 'the engine is never reached').toEqual([])
    expect(w.seen.forkPrompts).toHaveLength(1)
    expect(w.seen.forkPrompts[0]!.split('\n')[0]).toBe(FORK_HANDOFF_OPENING)
    expect(w.seen.forkPrompts[0]).toContain('A turn is under way')
    expect(handoffFiles(w)).toEqual([FORK_FILE])
    const text = fileText(w, FORK_FILE)
    const { fields, problems } = checkedHandoffOf(text)
    expect(problems, 'the saved file passes the format check').toEqual([])
    expect(fields).toEqual({ kind: 'handoff', created: '1970-01-01T00:16:40Z', status: 'in-progress', chain: 'HANDOFF_parser-rewrite_1970-01-01', seq: '1', parent: 'none', focus: 'none' })
    expect(text!.endsWith(REPLY)).toBe(true)
    expect(result.messages).toHaveLength(1)
    const [stub] = result.messages ?? []
    expect(stub).toEqual({ role: 'user', text: expect.any(String), toolUses: [] })
    expect(stub!.text.startsWith(STUB_OPENING)).toBe(true)
    expect(stub!.text).toContain(`[user message 1]\n${FIRST_WORDS}\n`)
    expect(stub!.text).toContain('Files read: src/parser.ts')
    expect(stub!.text).toContain('- fail pnpm vitest run parser  → exit 1')
    expect(stub!.text).toContain(`Handoff file: ${FORK_FILE}`)
    expect(stub!.text).toContain(text!.trimEnd())
    expect(stub!.text).toMatch(/A turn was under way when the conversation was compacted[^\n]*carry on from the handoff's Next step/)
    expect(w.seen.toasts.at(-1)).toMatch(/^the automatic compaction became a checked handoff: /)
  })
})

describe("the turn's latest step, which the fork never sees", () => {
  /** A test run as the engine's Bash tool returns a failed one: the exit status first, hundreds of passing lines, then the part a person reads. */
  const PASSING = Array.from({ length: 500 }, (_, i) => ` ✓ tests/parser/case-${i}.test.ts (3 tests) 12ms`)
  const LAST_LINES = [
    ' FAIL  tests/parser/quote.test.ts > doubles embedded quotes',
    "AssertionError: expected 'say \"hi' to be 'say \"hi\"'",
    ' ❯ tests/parser/quote.test.ts:41:18',
    '      Tests  1 failed | 1499 passed (1500)',
  ]
  const TOKEN = 'sk-live-4f9a2c7e1b'
  const OUTPUT = ['Exit code 1', ...PASSING, ...LAST_LINES.slice(0, 3), `request failed: Authorization: Bearer ${TOKEN}`, LAST_LINES[3]].join('\n')
  const TEST_RUN: SessionMessage[] = [
    { role: 'user', text: FIRST_WORDS, toolUses: [], handle: 'h1' },
    { role: 'assistant', text: 'Running the parser tests.', toolUses: [{ tool_use_id: 'tu-9', tool: 'Bash', input: { command: 'pnpm vitest run parser' } }], handle: 'h2' },
    { role: 'user', text: '', toolUses: [], toolResults: [{ tool_use_id: 'tu-9', text: OUTPUT, isError: true }], handle: 'h3' },
  ]

  test('mid-turn, goes into the stub after the handoff: the call, its exit status and its result\'s last lines, bounded and masked', SLOW, async ($, on) => {
    world(on, { forks: [REPLY] })
    await sessionWithWork($)
    const result = await compactAuto($, TEST_RUN)
    const stub = result.messages?.[0]?.text ?? ''
    const at = stub.indexOf("The turn's latest step, which the handoff's writer did not see")
    expect(at, 'marked as the step the writer did not see').toBeGreaterThan(stub.indexOf('The handoff, as saved in'))
    const section = stub.slice(at)
    expect(section).toContain('- Bash: pnpm vitest run parser  → exit 1')
    for (const line of [...LAST_LINES.slice(0, 3), LAST_LINES[3]!]) expect(section, line).toContain(line)
    expect(section, 'masked by the engine').toContain('Authorization: Bearer [REDACTED]')
    expect(stub).not.toContain(TOKEN)
    const fenced = /```\n([\s\S]*?)\n```/.exec(section)?.[1] ?? ''
    expect(fenced.length, 'bounded').toBeLessThanOrEqual(MAX_LATEST_RESULT_CHARS)
    expect(fenced.endsWith(LAST_LINES[3]!)).toBe(true)
    expect(section, 'the start of the run is left out, and that is said').not.toContain('case-0.test.ts')
    expect(section).toMatch(/earlier characters left out/)
    expect(stub).toMatch(/its latest step above is newer than the handoff/)
  })

  test('at a prompt just typed there is no step under way, and none is carried', SLOW, async ($, on) => {
    world(on, { forks: [REPLY] })
    await sessionWithWork($)
    const result = await compactAuto($, AT_PROMPT)
    expect(result.messages?.[0]?.text).not.toMatch(/latest step/)
  })
})

describe('a prompt typed at the moment of the compaction', () => {
  test('stays the last user message, as it came, with its handle, after the stub', SLOW, async ($, on) => {
    const w = world(on, { forks: [REPLY] })
    await sessionWithWork($)
    const result = await compactAuto($, AT_PROMPT)
    expect(result.messages).toHaveLength(2)
    expect(result.messages?.[1]).toEqual(TYPED)
    expect(result.messages?.[0]?.text).toContain(`The handoff, as saved in ${FORK_FILE}:`)
    expect(result.messages?.[0]?.text, 'no turn was under way').not.toMatch(/turn was under way/)
    expect(w.seen.forkPrompts[0]).not.toContain('A turn is under way')
  })
})

describe("a fork's handoff is part of the chain", () => {
  test("is recorded as the person's own, logged, shown in status, rearms the nudge and starts the meter", SLOW, async ($, on) => {
    const w = world(on, { forks: [REPLY], contextPercent: 91 })
    await sessionWithWork($)
    await endTurn($, 'first')
    expect(w.seen.toasts.filter((t) => t.includes('/compact-handoff is recommended'))).toHaveLength(1)
    await compactAuto($)
    const records = ownRecordsIn(w.store)
    expect(records.map((r) => r.path)).toEqual([`${CWD}/${FORK_FILE}`])
    expect(swapLogEntries(w).at(-1)).toMatchObject({ trigger: 'automatic-compaction', outcome: 'compaction-handoff', files: [FORK_FILE], contextPercentBefore: 91, repairs: 0 })
    await endTurn($, 'second')
    expect(w.seen.toasts.filter((t) => t.includes('/compact-handoff is recommended')), 'a new window nudges again').toHaveLength(2)
    const report = (await typeCommand($, 'compact-handoff', 'status')).text ?? ''
    expect(report).toMatch(/ compaction-handoff: “…[^”]*r-rewrite_1970-01-01\.md”\n/)
    expect(report).toContain('Since the last compaction:')
  })

  test('the next /compact-handoff continues its chain (lastHandoff)', SLOW, async ($, on) => {
    const w = world(on, { forks: [REPLY] })
    await sessionWithWork($)
    await compactAuto($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    expect(parseSkillArgs(w.seen.commandRuns.at(-1)?.args ?? '')?.values).toMatchObject({ chain: 'HANDOFF_parser-rewrite_1970-01-01', seq: 2, parent: FORK_FILE })
  })

  test('a run started while the fork answers waits for it, and continues its chain rather than starting a second', SLOW, async ($, on) => {
    const w = world(on, { forks: [REPLY] })
    await sessionWithWork($)
    // The fork's write of its file: the last handoff is set only once it is done.
    w.interjectAt('fs.write', 1, async () => {
      await typeCommand($, 'compact-handoff', 'finish the parser')
      await w.clock.advance(LAUNCH_DELAY_MS)
      await w.clock.settle()
    })
    await compactAuto($)
    await w.clock.advance(LAUNCH_RETRY_MS)
    await w.clock.settle()
    expect(w.seen.commandRuns.length, 'the skill ran once, after the fork').toBe(1)
    expect(parseSkillArgs(w.seen.commandRuns[0]?.args ?? '')?.values).toMatchObject({ chain: 'HANDOFF_parser-rewrite_1970-01-01', seq: 2, parent: FORK_FILE })
  })

  test("continues the chain of the session's last swap", SLOW, async ($, on) => {
    const w = world(on, { forks: [REPLY] })
    await sessionWithWork($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    await compactAuto($)
    expect(checkedHandoffOf(fileText(w, FORK_FILE)).fields).toMatchObject({ chain: 'HANDOFF_parser_2026-11-29', seq: '2', parent: 'plans/handoffs/HANDOFF_parser_2026-11-29.md' })
    expect(checkedHandoffOf(fileText(w, FORK_FILE)).problems).toEqual([])
  })

  test('never overwrites a file: a name taken gets the next number', SLOW, async ($, on) => {
    const old = { text: 'an older handoff of the same name', mtimeMs: 1 }
    const w = world(on, { forks: [REPLY], files: { [`${CWD}/${FORK_FILE}`]: old } })
    await sessionWithWork($)
    await compactAuto($)
    const next = FORK_FILE.replace('.md', '_2.md')
    expect(handoffFiles(w).sort()).toEqual([FORK_FILE, next])
    expect(fileText(w, FORK_FILE)).toBe(old.text)
    expect(checkedHandoffOf(fileText(w, next)).fields.chain).toBe('HANDOFF_parser-rewrite_1970-01-01_2')
  })
})

describe("what a fork wraps around the handoff is left out of the file", () => {
  for (const [what, reply] of [
    ['a code fence', `\`\`\`markdown\n${REPLY}\`\`\`\n`],
    ['a preamble', `Here is the handoff for the next session.\n\n${REPLY}`],
    ['text after the last section', `${REPLY}\nLet me know if anything is missing.\n`],
    ['all three', `Sure.\n\`\`\`md\n${REPLY}\`\`\`\nDone.`],
  ] as const) {
    test(`${what}`, SLOW, async ($, on) => {
      const w = world(on, { forks: [reply] })
      await sessionWithWork($)
      await compactAuto($)
      expect(w.seen.forkPrompts, 'no repair was needed').toHaveLength(1)
      expect(fileText(w, FORK_FILE)?.endsWith(`---\n\n${REPLY}`)).toBe(true)
    })
  }
})

describe('a token in the handoff', () => {
  test('is masked before the file is written and the stub inlines it', SLOW, async ($, on) => {
    const reply = REPLY.replace('## Verify\n', '## Verify\n- `export GITHUB_TOKEN=ghx_secret123 && gh auth status` → logged in\n')
    const w = world(on, { forks: [reply] })
    await sessionWithWork($)
    const result = await compactAuto($)
    expect(fileText(w, FORK_FILE)).toContain('export GITHUB_TOKEN=[REDACTED]')
    expect(fileText(w, FORK_FILE)).not.toContain('ghx_secret123')
    expect(result.messages?.[0]?.text).not.toContain('ghx_secret123')
  })
})
