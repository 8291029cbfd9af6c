/**
 * `pnpm bench`: numbers for the README, measured on real interactive Claude Code sessions
 * against the scripted mock API (offline; the mock answers at once, so no model time is
 * in any figure).
 *
 * 1. Swap: the same scripted conversation (typed prompts whose replies chain Read
 *    tool_uses of large files and end in long answers), then built-in `/compact` or
 *    `/compact-handoff`, in fresh sessions with the same three plugins loaded.
 * 2. Cost of the mods: time to ready with and without the plugins, and wall time per Write
 *    tool call (from the mock's request arrival times) with and without them.
 *
 * Prints markdown tables to stdout. `--runs N` sets the swap repeats (start repeats are 2N).
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { existsSync, readFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { basename, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { carriesToolResult, handoffFileText, skillTurn } from './handoff-script.js'
import { STUB_OPENING } from '../../packages/compact-handoff/hooks/swap-text.js'
import { SWAP_LOG_PATH } from '../../packages/compact-handoff/hooks/swap-log.js'
import { startMockApi, type MockApi, type MockRequest, type ScriptedReply } from './mock-api.js'
import { claudeVersion, createRunDir, pollUntil, startSession, type RunDir, type Session } from './session.js'
import { bytesOf, conversationOf, median, pluginDirs, readyAt, removeRun, runRoot, stampArrivals, textOf, TIMING_POLL_MS } from './showcase-kit.js'

const runsArg = process.argv.indexOf('--runs')
const SWAP_RUNS = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 1) : 5
const START_RUNS = SWAP_RUNS * 2
/** `--keep` keeps every run dir (mock log, debug log, screen) for a look afterwards. */
const KEEP = process.argv.includes('--keep')
function done(dir: string): void {
  if (KEEP) log(`kept ${dir}`)
  else removeRun(dir)
}
/** Typed prompts of the scripted conversation, and Read tool calls per prompt. */
const PROMPTS = 3
const READS_PER_PROMPT = 8
const FILE_LINES = 200
const ANSWER_PARAGRAPHS = 24
/** Write tool calls per session in the per-call measurement, and sessions per variant. */
const PLAIN_WRITES = 20
const HANDOFF_PATH_WRITES = 10
const WRITE_SESSIONS = 2
const FOCUS = 'finish the parser'
const FOLLOW_UP = 'Carry on with the parser from where we were'

function log(line: string): void {
  process.stderr.write(`bench: ${line}\n`)
}

// ---------------------------------------------------------------------------------------
// The scripted conversation

function bigFileText(file: number): string {
  const lines: string[] = [`// module ${file}: generated for the bench`]
  for (let j = 0; j < FILE_LINES; j++) {
    const word = ((file * 7919 + j * 104729) >>> 0).toString(36)
    lines.push(`export const value_${file}_${j} = compute('${word}', ${j}, { retries: ${j % 5}, label: 'entry-${word}-${j}' })`)
  }
  return lines.join('\n') + '\n'
}

function longAnswer(prompt: number): string {
  const paras: string[] = [`Summary of pass ${prompt + 1}:`]
  for (let p = 0; p < ANSWER_PARAGRAPHS; p++) {
    paras.push(
      `- Module ${prompt * READS_PER_PROMPT + (p % READS_PER_PROMPT)}: the values are computed through compute() with a retry count between 0 and 4; ` +
        `label ${p} follows the entry-<word>-<n> scheme and the parser must keep these call shapes intact while binary operators are added.`,
    )
  }
  paras.push(`End of pass ${prompt + 1}.`)
  return paras.join('\n')
}

function promptText(prompt: number): string {
  return `Pass ${prompt + 1}: read the next modules and tell me what the parser must preserve`
}

/** Writes the files the Reads read; returns the scripted replies of every prompt. */
function conversationScript(proj: string): ScriptedReply[][] {
  mkdirSync(join(proj, 'src'), { recursive: true })
  const script: ScriptedReply[][] = []
  for (let p = 0; p < PROMPTS; p++) {
    const replies: ScriptedReply[] = []
    let previous: string | undefined
    for (let r = 0; r < READS_PER_PROMPT; r++) {
      const file = p * READS_PER_PROMPT + r
      const path = join(proj, 'src', `module-${String(file).padStart(2, '0')}.ts`)
      writeFileSync(path, bigFileText(file))
      const id = `toolu_bench_read_${file}`
      const prev = previous
      replies.push({ when: prev === undefined ? promptText(p) : (q) => carriesToolResult(q, prev), toolUses: [{ id, name: 'Read', input: { file_path: path } }] })
      previous = id
    }
    const last = previous
    replies.push({ when: (q) => last !== undefined && carriesToolResult(q, last), text: longAnswer(p) })
    script.push(replies)
  }
  return script
}

/** Modules the scripted follow-up reads again after either kind of compaction. */
const REREAD_MODULES = [3, 17]

/** The same scripted follow-up after `/compact` and after the swap: the next
 * context reads two modules read before, and the answer follows. */
function followUpScript(when: string, proj: string): ScriptedReply[] {
  const ids = REREAD_MODULES.map((m) => `toolu_bench_reread_${m}_${Date.now().toString(36)}`)
  const reads: ScriptedReply[] = REREAD_MODULES.map((m, i) => ({
    when: i === 0 ? when : (q) => carriesToolResult(q, ids[i - 1]!),
    toolUses: [{ id: ids[i]!, name: 'Read', input: { file_path: join(proj, 'src', `module-${String(m).padStart(2, '0')}.ts`) } }],
  }))
  return [...reads, { when: (q) => carriesToolResult(q, ids.at(-1)!), text: 'Continuing.' }]
}

/** The meter's line for the window after the swap or `/compact`: asked for with
 * /compact-handoff status, which closes the window and logs it. */
async function meterCounts(session: Session, proj: string): Promise<{ reReads: number; repeatedCommands: number }> {
  await session.waitForScreen(/Continuing\./, 30_000)
  await session.type('/compact-handoff status')
  const logPath = join(proj, SWAP_LOG_PATH)
  const entry = await pollUntil('the follow-up line', 15_000, () => {
    const lines = existsSync(logPath) ? readFileSync(logPath, 'utf8').split('\n').filter((l) => l.includes('"follow-up"')) : []
    return lines.length > 0 ? (JSON.parse(lines.at(-1)!) as { reReads: string[]; repeatedCommands: string[] }) : undefined
  })
  return { reReads: entry.reReads.length, repeatedCommands: entry.repeatedCommands.length }
}

async function haveConversation(session: Session, mock: MockApi, proj: string): Promise<MockRequest> {
  for (const [p, replies] of conversationScript(proj).entries()) {
    mock.script(...replies)
    await session.type(promptText(p))
    await pollUntil(`pass ${p + 1} to finish`, 90_000, () => (mock.pending() === 0 ? true : undefined), 50)
    await session.waitForScreen(new RegExp(`End\\s+of\\s+pass\\s+${p + 1}\\.`), 30_000)
  }
  const last = mock.requests.at(-1)
  if (last === undefined) throw new Error('no request seen')
  // Let the last turn settle (turn.complete hooks, the spinner) before the command.
  await sleep(500)
  return last
}

// ---------------------------------------------------------------------------------------
// 1. /compact versus /compact-handoff

interface SwapSample {
  contextBytes: number
  summaryCount: number
  summaryBytes: number
  swapRequests: number
  swapBytes: number
  afterBytes: number
  afterMessages: number
  /** Calls other than POST /v1/messages (count_tokens), answered 404 by the mock. */
  otherCalls: number
  wallMs: number
  /** /compact only: first key of the follow-up prompt to its request (part of wallMs). */
  followUpMs?: number
  /** /compact-handoff only: the swap's own latency, from the skill turn's last request
   * (answered at once with its final text) to the request after the swap. */
  swapOwnMs?: number
  /** The rediscovery meter after the same scripted follow-up. */
  meter: { reReads: number; repeatedCommands: number }
  /** /compact-handoff only: the stub's text, in bytes (words and facts included). */
  stubBytes?: number
}

/** The stub's own text block in a request (the engine merges it with the continue-prompt into one message). */
function stubBlockOf(request: MockRequest): string {
  const blocks = conversationOf(request).flatMap((m) => (Array.isArray(m.content) ? (m.content as { type?: string; text?: string }[]) : [{ type: 'text', text: String(m.content) }]))
  return blocks.find((b) => b.type === 'text' && (b.text ?? '').startsWith(STUB_OPENING))?.text ?? ''
}

function isMessages(r: MockRequest): boolean {
  return r.status === 200 && r.path.split('?')[0] === '/v1/messages'
}

async function swapRun(variant: 'compact' | 'handoff', index: number): Promise<SwapSample> {
  const run = createRunDir(`bench-${variant}`, runRoot())
  // The summariser gets the same text the skill writes, so both sides carry the same content.
  const mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl'), summary: handoffFileText({ focus: FOCUS }), timeLimitMs: 5 * 60_000 })
  const at = stampArrivals(mock)
  let session: Session | undefined
  try {
    session = await startSession({ run, plugins: pluginDirs(), mock })
    await session.waitForReady()
    const last = await haveConversation(session, mock, run.proj)
    const before = mock.requests.length
    let after: MockRequest
    let t0: number
    let followUpMs: number | undefined
    if (variant === 'compact') {
      await session.type('/compact')
      t0 = performance.now()
      const summary = await mock.waitForRequest((r) => r.seq > before && r.kind === 'summary', 60_000)
      // Compaction is over when the prompt is back and the screen says it compacted.
      await pollUntil('/compact to finish', 60_000, () => (/Compacted/.test(session!.screen()) ? true : undefined), TIMING_POLL_MS)
      mock.script(...followUpScript(FOLLOW_UP, run.proj))
      const typedAt = performance.now()
      await session.type(FOLLOW_UP)
      // Compaction sends count_tokens calls for the files it re-attaches; the mock 404s them.
      after = await mock.waitForRequest((r) => r.seq > summary.seq && isMessages(r) && r.kind === 'main', 30_000)
      followUpMs = (at.get(after) ?? NaN) - typedAt
    } else {
      const turn = skillTurn({ proj: run.proj, doc: { focus: FOCUS } })
      mock.script(...turn.replies, ...followUpScript(turn.continuePrompt, run.proj))
      await session.type(`/compact-handoff ${FOCUS}`)
      t0 = performance.now()
      after = await mock.waitForRequest((r) => r.seq > before && conversationOf(r).some((m) => textOf(m).includes(STUB_OPENING)), 60_000)
    }
    const meter = await meterCounts(session, run.proj)
    const between = mock.requests.filter((r) => r.seq > before && r.seq < after.seq)
    const during = between.filter(isMessages)
    const summaries = during.filter((r) => r.kind === 'summary')
    const sample: SwapSample = {
      contextBytes: bytesOf(last.body?.messages),
      summaryCount: summaries.length,
      summaryBytes: summaries.reduce((n, r) => n + bytesOf(r.body), 0),
      swapRequests: during.length,
      swapBytes: during.reduce((n, r) => n + bytesOf(r.body), 0),
      afterBytes: bytesOf(after.body?.messages),
      afterMessages: conversationOf(after).length,
      otherCalls: between.length - during.length,
      wallMs: (at.get(after) ?? NaN) - t0,
      ...(followUpMs === undefined ? {} : { followUpMs }),
      meter,
      ...(variant === 'handoff' ? { stubBytes: Buffer.byteLength(stubBlockOf(after)) } : {}),
      ...(variant === 'handoff' ? { swapOwnMs: (at.get(after) ?? NaN) - (at.get(during.at(-1) ?? after) ?? NaN) } : {}),
    }
    log(`swap ${variant} #${index + 1}: ${Math.round(sample.wallMs)} ms, after ${sample.afterBytes} B, ${sample.swapRequests} request(s) during`)
    await session.stop()
    done(run.dir)
    return sample
  } catch (error) {
    await session?.stop()
    throw new Error(`swap ${variant} #${index + 1} failed (run dir kept: ${run.dir}): ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    await mock.close()
  }
}

// ---------------------------------------------------------------------------------------
// 2. Cost of the mods: start and per Write

/** Plugins staged once per run dir; later launches reuse the staged copies. */
function stagedPlugins(run: RunDir, withMods: boolean): string[] {
  return withMods ? pluginDirs().map((d) => join(run.plugins, basename(d))) : []
}

interface StartTimes {
  /** Launch to ready (prompt box, and the mods' session.start settled). */
  without: number[]
  with: number[]
  /** Launch to the prompt box alone. */
  boxWithout: number[]
  boxWith: number[]
}

async function startTimes(): Promise<StartTimes> {
  const runs = { without: createRunDir('bench-start-bare', runRoot()), with: createRunDir('bench-start-mods', runRoot()) }
  const times: StartTimes = { without: [], with: [], boxWithout: [], boxWith: [] }
  // Launch 0 of each is a warm-up (the engine writes types into a mod folder on its first load).
  for (let i = 0; i <= START_RUNS; i++) {
    for (const variant of ['without', 'with'] as const) {
      const run = runs[variant]
      const plugins = i === 0 && variant === 'with' ? pluginDirs() : stagedPlugins(run, variant === 'with')
      const t0 = performance.now()
      const session = await startSession({ run, plugins })
      try {
        const { box, ready } = await readyAt(session)
        if (i > 0) {
          times[variant].push(ready - t0)
          times[variant === 'with' ? 'boxWith' : 'boxWithout'].push(box - t0)
        }
      } finally {
        await session.stop()
      }
    }
  }
  log(`start: without ${times.without.map(Math.round).join(' ')}; with ${times.with.map(Math.round).join(' ')}`)
  done(runs.without.dir)
  done(runs.with.dir)
  return times
}

type CallKind = 'plain' | 'handoffPath' | 'edit' | 'read' | 'bash'
type CallTimes = Record<CallKind, number[]>
const CALL_KINDS: readonly CallKind[] = ['plain', 'handoffPath', 'edit', 'read', 'bash']
/** Edit, Read and Bash calls per session, on the files the plain Writes made. */
const OTHER_CALLS = 10

function toolUseOf(kind: CallKind, i: number, proj: string): { name: string; input: Record<string, unknown> } {
  const gen = join(proj, 'gen', `file-${i}.ts`)
  switch (kind) {
    case 'plain':
      return { name: 'Write', input: { file_path: gen, content: `// generated ${i}\nexport const n = ${i}\n` } }
    case 'handoffPath':
      return { name: 'Write', input: { file_path: join(proj, '.claude', 'handoffs', `HANDOFF_bench-${i}_2026-01-01.md`), content: `// generated ${i}\n` } }
    case 'edit':
      return { name: 'Edit', input: { file_path: gen, old_string: `export const n = ${i}`, new_string: `export const n = ${i + 1}` } }
    case 'read':
      return { name: 'Read', input: { file_path: gen } }
    case 'bash':
      return { name: 'Bash', input: { command: `echo step-${i}`, description: 'bench step' } }
  }
}

async function writeTimes(withMods: boolean): Promise<CallTimes> {
  const run = createRunDir(`bench-write-${withMods ? 'mods' : 'bare'}`, runRoot())
  const mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl'), timeLimitMs: 5 * 60_000 })
  const at = stampArrivals(mock)
  const out: CallTimes = { plain: [], handoffPath: [], edit: [], read: [], bash: [] }
  let session: Session | undefined
  try {
    session = await startSession({ run, plugins: withMods ? pluginDirs() : [], mock })
    await session.waitForReady()
    const prompt = 'Write the generated files'
    const counts: Record<CallKind, number> = { plain: PLAIN_WRITES, handoffPath: HANDOFF_PATH_WRITES, edit: OTHER_CALLS, read: OTHER_CALLS, bash: OTHER_CALLS }
    const targets = CALL_KINDS.flatMap((kind) => Array.from({ length: counts[kind] }, (_, i) => ({ kind, ...toolUseOf(kind, i, run.proj) })))
    const replies: ScriptedReply[] = []
    const ids: string[] = []
    targets.forEach((t, i) => {
      const id = `toolu_bench_write_${i}`
      const prev = ids[i - 1]
      replies.push({
        when: prev === undefined ? prompt : (q) => carriesToolResult(q, prev),
        toolUses: [{ id, name: t.name, input: t.input }],
      })
      ids.push(id)
    })
    const lastId = ids.at(-1)!
    replies.push({ when: (q) => carriesToolResult(q, lastId), text: 'All files written.' })
    mock.script(...replies)
    await session.type(prompt)
    await session.waitForScreen(/All files written/, 90_000)
    for (const [i, t] of targets.entries()) {
      const asked = mock.requests.find((r) => (i === 0 ? r.lastUserText.includes(prompt) : carriesToolResult(r, ids[i - 1]!)))
      const answered = mock.requests.find((r) => carriesToolResult(r, ids[i]!))
      if (asked === undefined || answered === undefined) throw new Error(`write ${i}: requests not found`)
      out[t.kind].push((at.get(answered) ?? NaN) - (at.get(asked) ?? NaN))
    }
    await session.stop()
    done(run.dir)
    return out
  } catch (error) {
    await session?.stop()
    throw new Error(`write bench failed (run dir kept: ${run.dir}): ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    await mock.close()
  }
}

// ---------------------------------------------------------------------------------------
// Report

function kb(bytes: number): string {
  return bytes >= 10_000 ? `${(bytes / 1024).toFixed(0)} KiB` : `${bytes} B`
}
function tok(bytes: number): string {
  return `~${bytes >= 4000 ? `${(bytes / 4 / 1000).toFixed(1)}k` : Math.round(bytes / 4)} tok`
}
function ms(x: number): string {
  return `${Math.round(x)} ms`
}
function spread(xs: readonly number[], fmt: (x: number) => string): string {
  if (xs.length === 0) return '—'
  const lo = Math.min(...xs)
  const hi = Math.max(...xs)
  return lo === hi ? fmt(median(xs)) : `${fmt(median(xs))} (${fmt(lo)}–${fmt(hi)})`
}
function sizeCell(xs: readonly number[]): string {
  if (xs.every((x) => x === 0)) return '0'
  return `${spread(xs, kb)}, ${tok(median(xs))}`
}

function machine(): string {
  const cpuinfo = (() => {
    try {
      return readFileSync('/proc/cpuinfo', 'utf8')
    } catch {
      return ''
    }
  })()
  const model = /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1]?.trim() ?? 'unknown'
  const load = loadavg().map((l) => l.toFixed(2)).join(' ')
  return `${availableParallelism()} CPUs (nproc), ${model}, Node ${process.version}, Claude Code ${claudeVersion()}, load average at start ${load}`
}

async function main(): Promise<void> {
  const machineLine = machine()
  const started = performance.now()
  const compact: SwapSample[] = []
  const handoff: SwapSample[] = []
  for (let i = 0; i < SWAP_RUNS; i++) {
    compact.push(await swapRun('compact', i))
    handoff.push(await swapRun('handoff', i))
  }
  if (process.argv.includes('--swap-only')) {
    console.log(JSON.stringify({ compact, handoff }, null, 1))
    return
  }
  const start = await startTimes()
  const empty = (): CallTimes => ({ plain: [], handoffPath: [], edit: [], read: [], bash: [] })
  const writes = { without: empty(), with: empty() }
  for (let i = 0; i < WRITE_SESSIONS; i++) {
    for (const withMods of [false, true]) {
      const w = await writeTimes(withMods)
      const into = withMods ? writes.with : writes.without
      for (const kind of CALL_KINDS) into[kind].push(...w[kind])
    }
  }
  log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`)

  const col = (xs: SwapSample[], pick: (s: SwapSample) => number, fmt: (v: number[]) => string): string => fmt(xs.map(pick))
  const rows: Array<[string, string, string]> = [
    ['Conversation before the command (messages JSON of the last request)', col(compact, (s) => s.contextBytes, sizeCell), col(handoff, (s) => s.contextBytes, sizeCell)],
    ['Summariser requests', col(compact, (s) => s.summaryCount, (v) => spread(v, String)), col(handoff, (s) => s.summaryCount, (v) => spread(v, String))],
    ['Summariser input (request body)', col(compact, (s) => s.summaryBytes, sizeCell), col(handoff, (s) => s.summaryBytes, sizeCell)],
    ['All model requests from the command to the swap (count; body bytes)', `${col(compact, (s) => s.swapRequests, (v) => spread(v, String))}; ${col(compact, (s) => s.swapBytes, sizeCell)}`, `${col(handoff, (s) => s.swapRequests, (v) => spread(v, String))}; ${col(handoff, (s) => s.swapBytes, sizeCell)}`],
    ['Other API calls meanwhile (`count_tokens`; the mock answers 404)', col(compact, (s) => s.otherCalls, (v) => spread(v, String)), col(handoff, (s) => s.otherCalls, (v) => spread(v, String))],
    ['Conversation the model receives after the swap (messages JSON of the first request after it)', col(compact, (s) => s.afterBytes, sizeCell), col(handoff, (s) => s.afterBytes, sizeCell)],
    ['Wall time: Enter on the command → first request after the swap', col(compact, (s) => s.wallMs, (v) => spread(v, ms)), col(handoff, (s) => s.wallMs, (v) => spread(v, ms))],
    ["The stub (the person's words and the work's facts included)", '—', col(handoff, (s) => s.stubBytes ?? NaN, sizeCell)],
    ["The swap's own latency: the skill turn's final answer → first request after the swap", '—', col(handoff, (s) => s.swapOwnMs ?? NaN, (v) => spread(v, ms))],
    ['Rediscovery meter after the same scripted follow-up (files read again; commands run again)', `${col(compact, (s) => s.meter.reReads, (v) => spread(v, String))}; ${col(compact, (s) => s.meter.repeatedCommands, (v) => spread(v, String))}`, `${col(handoff, (s) => s.meter.reReads, (v) => spread(v, String))}; ${col(handoff, (s) => s.meter.repeatedCommands, (v) => spread(v, String))}`],
  ]
  const followUp = compact.map((s) => s.followUpMs ?? NaN)

  const out: string[] = []
  out.push(`### /compact vs /compact-handoff (${SWAP_RUNS} runs each; median (min–max))`, '')
  out.push('| | built-in `/compact` | `/compact-handoff` |', '| --- | --- | --- |')
  for (const [label, a, b] of rows) out.push(`| ${label} | ${a} | ${b} |`)
  out.push('')
  out.push(
    `Scripted conversation: ${PROMPTS} typed prompts, each answered by ${READS_PER_PROMPT} chained Read tool calls of ~${kb(Buffer.byteLength(bigFileText(0)))} files and a ~${kb(Buffer.byteLength(longAnswer(0)))} answer (${PROMPTS * (READS_PER_PROMPT + 1)} model turns). ` +
      'Both sides run in fresh sessions with the same three plugins loaded; the mock answers at once, so model time is zero in every figure. ' +
      "The mock's summary is the handoff file's text, so both sides carry the same content. " +
      "Sizes are JSON bytes of what the mock received (body, or its messages array, the engine's role:\"system\" entries included); tokens are estimated as bytes / 4. " +
      "For `/compact-handoff` the requests before the swap are the skill's turn (its Write, then its final answer); they carry the whole conversation, as a summariser request would. " +
      `After \`/compact-handoff\` the model still has to read the handoff file (${kb(Buffer.byteLength(handoffFileText({ focus: FOCUS })))} here) with one Read call; after \`/compact\` the engine has re-attached the files read last as synthetic Read results, which is most of its post-swap size. ` +
      `Wall time for \`/compact\` runs from Enter on \`/compact\` through the summariser request and the end of compaction (seen on screen, polled every 20 ms) to the request of a follow-up prompt the bench types at once; from its first key to its request took ${spread(followUp, ms)} of that. ` +
      'For `/compact-handoff` it runs from Enter to the request carrying the stub and the continue-prompt, which the mod submits by itself. ' +
      `The meter row shows the meter working, not quality: both sides get the same scripted follow-up, which reads ${REREAD_MODULES.length} modules read before the compaction and runs no command. ` +
      "The swap's own latency runs from the arrival of the skill turn's last request, which the mock answers at once with the final text, to that request: the turn's end, the file check, the go-command, the compaction and the continue-prompt.",
  )
  out.push('')
  out.push(`### Cost of the mods (the two mods and the skill pack loaded with --plugin-dir vs nothing loaded)`, '')
  out.push('| | without | with | difference of medians |', '| --- | --- | --- | --- |')
  const diff = (a: number[], b: number[]): string => `${median(b) - median(a) >= 0 ? '+' : ''}${Math.round(median(b) - median(a))} ms`
  out.push(`| Session start → prompt box drawn (${START_RUNS} runs each) | ${spread(start.boxWithout, ms)} | ${spread(start.boxWith, ms)} | ${diff(start.boxWithout, start.boxWith)} |`)
  out.push(`| Session start → ready: prompt box and, with the mods, both \`session.start\` hooks settled | ${spread(start.without, ms)} | ${spread(start.with, ms)} | ${diff(start.without, start.with)} |`)
  out.push(`| Write tool call, ordinary path (${writes.without.plain.length} calls each) | ${spread(writes.without.plain, ms)} | ${spread(writes.with.plain, ms)} | ${diff(writes.without.plain, writes.with.plain)} |`)
  out.push(`| Write tool call, \`.claude/handoffs/HANDOFF_*.md\` with no run under way (${writes.without.handoffPath.length} calls each) | ${spread(writes.without.handoffPath, ms)} | ${spread(writes.with.handoffPath, ms)} | ${diff(writes.without.handoffPath, writes.with.handoffPath)} |`)
  for (const [kind, label] of [['edit', 'Edit'], ['read', 'Read'], ['bash', 'Bash (`echo`)']] as const) {
    out.push(`| ${label} tool call, recorded as evidence (${writes.without[kind].length} calls each) | ${spread(writes.without[kind], ms)} | ${spread(writes.with[kind], ms)} | ${diff(writes.without[kind], writes.with[kind])} |`)
  }
  out.push('')
  out.push(
    'Start times run from the launch of the tmux pane, polled every 20 ms (screen, and the debug log for the hooks); the mods can settle after the prompt box appears. The first launch of each kind is a discarded warm-up. ' +
      "A Write call's time runs from the mock sending the reply that holds the tool_use to the arrival of the request carrying its tool_result (client parsing, the tool, the hooks, the next request); " +
      `${WRITE_SESSIONS} sessions per side, each with ${PLAIN_WRITES + HANDOFF_PATH_WRITES} chained Writes, then ${OTHER_CALLS} Edits, Reads and Bash calls each.`,
  )
  out.push('')
  out.push(`Machine: ${machineLine}. Absolute times are noisy (shared machine, real terminal UI); compare the columns, not the digits.`)
  console.log(out.join('\n'))
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  },
)
