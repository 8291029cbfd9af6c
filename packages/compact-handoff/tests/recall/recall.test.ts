// The recall tool in the engine's host: listed at the first replacement of the
// conversation and not before, each call answered from this session's own
// transcript (read by range, masked by the engine's redact, bounded), never
// from a path the model names, and counted by the meter.
import { describe, expect, test } from 'claude-code/testing'
import type { Engine } from 'claude-code/testing'
import { CWD, HANDOFF, world, type World } from '../support/world.js'
import { TRANSCRIPT_PATH, kitMaskOf } from '../support/beneath.js'
import { ANSWER_STAND_IN } from '../support/answer-stand-in.js'
import { typeCommand } from '../support/engine-calls.js'
import { CUT_CASES, HELD_CASES, holdsPieceOf, pemBodyLinesOf, pemKeyOf } from '../support/credentials.js'
import { skillWritesHandoff, startSession, typeAndLaunch } from '../support/flow.js'
import { AT_PROMPT, REPLY, compactAuto, sessionWithWork } from '../support/fork-support.js'
import { bigTranscriptOf, boundaryLines, commandLines, transcriptOf, userLine } from '../support/transcripts.js'
import { RECALL_TOOL, RECALL_TOOL_NAME } from '../../hooks/recall/recall.js'
import { LAG_POLL_MS, READ_CHUNK_BYTES } from '../../hooks/recall/transcript-reading.js'
import { MAX_ENTRIES, WINDOW_CHARS } from '../../hooks/recall/recall-search.js'

// The kit's 5 s per test is passed by plain calls here on a loaded machine (2 cores, many runs).
const SLOW = { timeoutMs: 60_000 }
/** Two searches of 50 MB in the kit, the fake disk's base64 included (76 s seen at a load of 27). */
const BOUND_MS = 120_000
const GH_TOKEN = 'ghp_kitA1b2C3d4E5f6G7h8I9j0'

/** This session's transcript, as the engine names it (beneath.ts), holding `lines`. */
function transcriptFiles(lines: readonly string[]) {
  return { [TRANSCRIPT_PATH]: { text: transcriptOf(lines), mtimeMs: 0 } }
}

/** A session whose earlier conversation a swap took out: a failing test run, a token printed. */
const EARLIER = [
  userLine('fix the parser'),
  ...commandLines('toolu_1', 'pnpm vitest run parser', ' FAIL  src/parser.test.ts\nE_PARSE_EOF: unexpected end of input at 12:4', 1),
  ...commandLines('toolu_2', 'gh auth status', `export GH_TOKEN=${GH_TOKEN}\nLogged in to github.com`),
  ...boundaryLines(),
]

async function recall($: Engine, input: Record<string, unknown>, agentId?: string): Promise<string> {
  const answer = await $.tool.call({ tool: RECALL_TOOL, ...input, ...(agentId !== undefined ? { agentId } : {}) })
  return typeof answer.result === 'string' ? answer.result : `no text: ${JSON.stringify(answer)}`
}

async function swapped($: Engine, w: World): Promise<void> {
  await startSession($)
  await typeAndLaunch($, w, 'compact-handoff', '')
  await skillWritesHandoff($, w)
}

describe('the tool is listed', () => {
  test("from the session's start, off its wait, in the prompt (not behind ToolSearch)", SLOW, async ($, on) => {
    const w = world(on)
    await startSession($)
    expect(w.seen.tools, "not on the start's own wait").toEqual([])
    await w.clock.advance(0)
    await w.clock.settle()
    expect(w.seen.tools).toEqual([{ name: RECALL_TOOL_NAME, description: expect.stringContaining('instead of guessing or running the command again'), isDeferred: false }])
  })

  test('named by the stub of a swap, in place of grepping the transcript', SLOW, async ($, on) => {
    const w = world(on)
    await swapped($, w)
    const stub = w.seen.compactions.at(-1)?.instructions ?? ''
    expect(stub).toContain(`call the tool ${RECALL_TOOL} with a word you expect instead of guessing or running it again`)
    expect(stub).not.toMatch(/search that file for it \(grep/)
  })

  test("named by the stub of an automatic compaction answered by a fork's handoff", SLOW, async ($, on) => {
    world(on, { forks: [REPLY] })
    await sessionWithWork($)
    const compacted = await compactAuto($, AT_PROMPT)
    expect(compacted.messages?.[0]?.text).toContain(`call the tool ${RECALL_TOOL}`)
  })

  test('a refused listing costs the session nothing', { ...SLOW, plugins: [ANSWER_STAND_IN] }, async ($, on) => {
    const w = world(on, { refuseToolRegister: true })
    await swapped($, w)
    expect(w.seen.submits.filter((s) => s.asUser), 'the swap and its continue-prompt go on').toHaveLength(1)
  })
})

describe('a call', () => {
  test("brings an earlier command's output back verbatim, its call and exit status named, the token masked", SLOW, async ($, on) => {
    const w = world(on, { files: transcriptFiles(EARLIER) })
    await startSession($)
    const answer = await recall($, { query: 'E_PARSE_EOF' })
    expect(answer).toContain('[1] Tool result of Bash: pnpm vitest run parser  → exit 1')
    expect(answer).toContain('E_PARSE_EOF: unexpected end of input at 12:4')
    const token = await recall($, { query: 'Logged' })
    expect(token).toContain('export GH_TOKEN=[REDACTED]\nLogged in to github.com')
    expect(token, 'masked by the engine, the call line too').not.toContain(GH_TOKEN)
    expect(w.seen.reads.every((r) => r.path === TRANSCRIPT_PATH)).toBe(true)
  })

  test("finds the boundary the engine's queued writes put on disk after the call began", SLOW, async ($, on) => {
    const unwritten = EARLIER.slice(0, -boundaryLines().length)
    const w = world(on, { files: transcriptFiles(unwritten) })
    await startSession($)
    // The replacement's lines land while the first range is read: past the size the call began with.
    w.interjectAt('fs.read', 1, async () => w.files.set(TRANSCRIPT_PATH, { text: transcriptOf(EARLIER), mtimeMs: 0 }))
    const answering = recall($, { query: 'E_PARSE_EOF' })
    // The first pass has read no boundary: the call waits LAG_POLL_MS, then reads what the file grew by.
    await w.clock.settle()
    await w.clock.advance(LAG_POLL_MS)
    const answer = await answering
    expect(answer, 'the earlier output, found once the boundary was read').toContain('E_PARSE_EOF: unexpected end of input at 12:4')
    const ranges = w.seen.reads.filter((r) => r.path === TRANSCRIPT_PATH)
    expect(ranges.map((r) => r.offset), 'the file read from its start once, then from where the first read ended').toEqual([0, transcriptOf(unwritten).length])
  })

  test('that the engine could not mask shows nothing of the entry', SLOW, async ($, on) => {
    world(on, { files: transcriptFiles(EARLIER), refuseRedact: true })
    await startSession($)
    const answer = await recall($, { query: 'Logged' })
    expect(answer).toContain('[1] An entry that could not be masked, not shown.')
    expect(answer).not.toContain(GH_TOKEN)
  })

  test('reads only the transcript the engine names for this session, never a path in the input', SLOW, async ($, on) => {
    const w = world(on, { files: { ...transcriptFiles(EARLIER), '/etc/secrets.jsonl': { text: transcriptOf([userLine('E_PARSE_EOF secret'), ...boundaryLines()]), mtimeMs: 0 } } })
    await startSession($)
    const answer = await recall($, { query: 'E_PARSE_EOF', path: '/etc/secrets.jsonl', file_path: '/etc/secrets.jsonl' })
    expect(answer).not.toContain('secret')
    expect(w.seen.reads.map((r) => r.path).filter((p) => p !== TRANSCRIPT_PATH)).toEqual([])
  })

  for (const [what, transcriptPath] of [
    ['another project', '/home/me/.claude/projects/-srv-other/session-1.jsonl'],
    ['another session', '/home/me/.claude/projects/-srv-app/session-2.jsonl'],
    ['a file outside the projects folder', '/srv/app/session-1.jsonl'],
  ] as const) {
    test(`refuses a transcript the engine names in ${what}, reading nothing`, SLOW, async ($, on) => {
      const w = world(on, { transcriptPath, files: { [transcriptPath]: { text: transcriptOf(EARLIER), mtimeMs: 0 } } })
      await startSession($)
      expect(await recall($, { query: 'E_PARSE_EOF' })).toBe(
        "recall could not search this session's transcript: the file the engine names is not this session's transcript in its projects folder for this project. Nothing was searched; the handoff, the files on disk and git are what remain.",
      )
      expect(w.seen.reads).toEqual([])
    })
  }

  test('refuses a transcript that is a link, reading nothing through it', SLOW, async ($, on) => {
    const w = world(on, { files: { '/srv/app/notes.jsonl': { text: transcriptOf(EARLIER), mtimeMs: 0 } }, links: { [TRANSCRIPT_PATH]: '/srv/app/notes.jsonl' } })
    await startSession($)
    expect(await recall($, { query: 'E_PARSE_EOF' })).toMatch(/^recall could not search this session's transcript: session-1\.jsonl is a symbolic link/)
    expect(w.seen.reads).toEqual([])
  })

  test('says so for a missing transcript', SLOW, async ($, on) => {
    world(on)
    await startSession($)
    expect(await recall($, { query: 'E_PARSE_EOF' })).toBe(
      "recall could not search this session's transcript: the file is not on disk. Nothing was searched; the handoff, the files on disk and git are what remain.",
    )
  })

  test('says so for a session that keeps no transcript', SLOW, async ($, on) => {
    world(on, { transcriptPath: '' })
    await startSession($)
    expect(await recall($, { query: 'x' })).toContain('the engine keeps no transcript for this session on this machine')
  })

  test('an empty query and one of 10,000 characters: a short answer, nothing read', SLOW, async ($, on) => {
    const w = world(on, { files: transcriptFiles(EARLIER) })
    await startSession($)
    expect(await recall($, { query: '' })).toMatch(/^recall needs a query: .* Nothing was searched\.$/)
    expect(await recall($, {})).toMatch(/^recall needs a query/)
    expect(await recall($, { query: 'x'.repeat(10_000) })).toMatch(/^recall takes a query of at most 500 characters, and this one has 10000: .* Nothing was searched\.$/)
    expect(w.seen.reads).toEqual([])
  })

  test(`a query matching every entry: the newest ${MAX_ENTRIES}, the rest counted`, { timeoutMs: BOUND_MS }, async ($, on) => {
    const lines = Array.from({ length: 300 }, (_, i) => commandLines(`toolu_${i}`, `echo ${i}`, `needle ${i} ${'x'.repeat(3_000)}`)).flat()
    world(on, { files: transcriptFiles([...lines, ...boundaryLines()]) })
    await startSession($)
    const answer = await recall($, { query: 'needle' })
    expect(answer).toContain('recall found 300 entries')
    expect(answer).toContain(`${300 - MAX_ENTRIES} older entries matched too`)
    expect(answer.length).toBeLessThan(MAX_ENTRIES * (WINDOW_CHARS + 400) + 1_000)
  })

  test('a 1 MB transcript line: the window around its match', { timeoutMs: BOUND_MS }, async ($, on) => {
    const output = `${'é'.repeat(300_000)}needle-mid${'b'.repeat(700_000)}`
    world(on, { files: transcriptFiles([...commandLines('toolu_1', 'cat big.log', output), ...boundaryLines()]) })
    await startSession($)
    const answer = await recall($, { query: 'needle-mid' })
    expect(answer).toMatch(/, characters \d+-\d+ of 1000010:\n```\né+needle-midb+\n```$/)
    expect(answer.length).toBeLessThan(WINDOW_CHARS + 600)
  })

  test("a character cut by a range's edge is read whole, never as two broken ones", { timeoutMs: BOUND_MS }, async ($, on) => {
    const bytes = (lines: readonly string[]) => new TextEncoder().encode(transcriptOf(lines))
    const linesOf = (pad: string) => [...commandLines('toolu_1', 'cat wide.log', `${pad}${'é'.repeat(READ_CHUNK_BYTES / 2)}needle-edge`), ...boundaryLines()]
    // One of the two pads puts the first range's end inside a two-byte character.
    const pad = ['', 'a'].find((p) => (bytes(linesOf(p))[READ_CHUNK_BYTES]! & 0xc0) === 0x80)!
    world(on, { files: transcriptFiles(linesOf(pad)) })
    await startSession($)
    const answer = await recall($, { query: 'needle-edge' })
    expect(answer, 'the entry as long as written: a broken character would count twice').toContain(` of ${pad.length + READ_CHUNK_BYTES / 2 + 'needle-edge'.length}:`)
    expect(answer).not.toContain('\ufffd')
  })

  test('a 50 MB transcript: read in ranges under the 4 MiB limit, answered in bounded time', { timeoutMs: 2 * BOUND_MS }, async ($, on) => {
    const text = bigTranscriptOf(50 * 1_048_576, 'E_NEEDLE_42')
    const w = world(on, { files: { [TRANSCRIPT_PATH]: { text, mtimeMs: 0 } } })
    await startSession($)
    const started = Date.now()
    const answer = await recall($, { query: 'E_NEEDLE_42' })
    const everyLine = await recall($, { query: 'output' })
    const ms = Date.now() - started
    expect(answer).toContain('E_NEEDLE_42 in src/parser.ts:12')
    expect(everyLine).toContain('older entries matched too')
    const ranges = w.seen.reads.filter((r) => r.path === TRANSCRIPT_PATH)
    expect(ranges.every((r) => r.length !== undefined && r.length <= READ_CHUNK_BYTES)).toBe(true)
    expect(ranges).toHaveLength(2 * Math.ceil(text.length / READ_CHUNK_BYTES))
    expect(ms, `recall over a ${(text.length / 1_048_576).toFixed(0)} MB transcript, a rare word and a word on every line: ${ms} ms together`).toBeLessThan(BOUND_MS)
  })
})

function transcriptReadsOf(w: World): number {
  return w.seen.reads.filter((r) => r.path === TRANSCRIPT_PATH).length
}

/** The window an answer's first entry shows, between its fences. */
function firstWindowOf(answer: string): string {
  const fenced = /^\[1\] [^\n]*:\n(`{3,})\n([\s\S]*?)\n\1$/m.exec(answer)
  return fenced?.[2] ?? `no window in: ${answer}`
}

describe('masked whole, then cut', () => {
  for (const c of [...CUT_CASES, ...HELD_CASES]) {
    test(`${c.name}: nothing of it comes back, and the window is what the engine's masking of the whole output shows there`, SLOW, async ($, on) => {
      world(on, { files: transcriptFiles([...commandLines('toolu_1', c.command, c.output), ...boundaryLines()]) })
      await startSession($)
      const answer = await recall($, { query: c.word })
      const window = firstWindowOf(answer)
      expect(window).toContain(c.word)
      expect(kitMaskOf(c.output), "the whole output, masked by the kit's redact at once").toContain(window)
      for (const secret of c.secrets) expect(holdsPieceOf(answer, secret), `a piece of ${secret.slice(0, 12)}… came back:\n${answer}`).toBe(false)
    })
  }

  test('an entry longer than the engine masks at once: a key across where a cut at its limit would fall is masked as the whole is', { timeoutMs: BOUND_MS }, async ($, on) => {
    const key = pemKeyOf(40, 61)
    const output = `${'build step ok\n'.repeat(7_050)}E_BIG_KEY next\n${key}\n${'build step ok\n'.repeat(9_000)}`
    const w = world(on, { files: transcriptFiles([...commandLines('toolu_1', 'cat build.log', output), ...boundaryLines()]) })
    await startSession($)
    const before = w.seen.redactions
    const answer = await recall($, { query: 'E_BIG_KEY' })
    expect(answer).toContain('E_BIG_KEY next\n[REDACTED]\nbuild step ok')
    for (const line of pemBodyLinesOf(key)) expect(answer).not.toContain(line)
    expect(w.seen.redactions - before, 'in pieces the engine takes, a few calls').toBeLessThan(12)
  })
})

describe('who may call it', () => {
  test("a subagent's call is refused in words, searches nothing and is not counted", { ...SLOW, plugins: [ANSWER_STAND_IN] }, async ($, on) => {
    const w = world(on)
    await swapped($, w)
    w.files.set(TRANSCRIPT_PATH, { text: transcriptOf(EARLIER), mtimeMs: 0 })
    const reads = transcriptReadsOf(w)
    const answer = await $.tool.call({ tool: RECALL_TOOL, query: 'E_PARSE_EOF', agentId: 'agent-1' })
    expect(answer.deny).toMatch(/^recall searched nothing: it answers only the main conversation, .* a subagent never had that part\./)
    expect(JSON.stringify(answer)).not.toContain('E_PARSE_EOF: unexpected')
    expect(transcriptReadsOf(w), 'the transcript is not read').toBe(reads)
    expect(await recall($, { query: 'E_PARSE_EOF' })).toContain('E_PARSE_EOF: unexpected end of input at 12:4')
    expect((await typeCommand($, 'compact-handoff', 'status')).text ?? '').toContain('no file re-read, no command re-run, 1 recall.')
  })

  test("another plugin's call is refused in words, searches nothing and is not counted", {
    ...SLOW,
    plugins: [
      ANSWER_STAND_IN,
      {
        name: 'other-plugin',
        register(on) {
          on('command.run', { command: 'ask-recall' }, async ($) => {
            const answer = await $.tool.call({ tool: 'mcp__compact-handoff__recall', query: 'E_PARSE_EOF' })
            return { text: `recall:${JSON.stringify(answer)}` }
          })
        },
      },
    ],
  }, async ($, on) => {
    const w = world(on)
    await swapped($, w)
    w.files.set(TRANSCRIPT_PATH, { text: transcriptOf(EARLIER), mtimeMs: 0 })
    const reads = transcriptReadsOf(w)
    const answer = (await typeCommand($, 'ask-recall')).text ?? ''
    expect(answer).toContain("recall searched nothing: it answers only the model's own calls in the main conversation, and this call was raised by other-plugin.")
    expect(answer).not.toContain('E_PARSE_EOF: unexpected')
    expect(transcriptReadsOf(w), 'the transcript is not read').toBe(reads)
    // The model's own call in the main loop is answered, and it alone is counted.
    expect(await recall($, { query: 'E_PARSE_EOF' })).toContain('E_PARSE_EOF: unexpected end of input at 12:4')
    expect((await typeCommand($, 'compact-handoff', 'status')).text ?? '').toContain('no file re-read, no command re-run, 1 recall.')
  })
})

describe('the meter', () => {
  test('counts recall calls after a swap, apart from files read and commands run again', { ...SLOW, plugins: [ANSWER_STAND_IN] }, async ($, on) => {
    const w = world(on)
    await swapped($, w)
    w.files.set(TRANSCRIPT_PATH, { text: transcriptOf(EARLIER), mtimeMs: 0 })
    await recall($, { query: 'E_PARSE_EOF' })
    await recall($, { query: 'Logged' })
    await recall($, { query: 'by a subagent' }, 'agent-1')
    const report = (await typeCommand($, 'compact-handoff', 'status')).text ?? ''
    // The status report's meter line, in its plain words, the handoff's name cut from the head to fit the row.
    expect(report).toContain(`Since “…${HANDOFF.slice(-17)}”: no file re-read, no command re-run, 2 recalls.`)
  })
})

test('the kit session folder is the one the transcript folder is named after', () => {
  expect(TRANSCRIPT_PATH.startsWith(`/home/me/.claude/projects/${CWD.replace(/[^a-zA-Z0-9]/g, '-')}/`)).toBe(true)
})
