/**
 * What a turn costs with the mods loaded: the time from Enter to the turn's first
 * request, from a tool call to the next request (both from the mock's arrival times),
 * and the CPU-seconds the claude process spends on the turn (/proc, its own and its
 * reaped children's), with our mods, with do-nothing mods and with none.
 *
 * Every arm's session is open at once and the turns go round the arms one by one,
 * the order turned each time, so a load that comes and goes on a shared machine falls
 * on every arm alike. A turn: a typed prompt, then Read, Bash, Write and Edit (the
 * tools whose facts compact-handoff keeps), then the answer; CPU is counted from just before
 * Enter until the process has gone quiet after the answer (the mods' turn-end work
 * included). Beside them, each hooked event's settle time from the engine's debug log,
 * with our mods and with the pass-through mod: what the hooks do beyond the hop.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { startMockApi, type MockApi, type MockRequest, type ScriptedReply } from '../mock-api.js'
import { pollUntil } from '../poll.js'
import { carriesToolResult } from '../request-messages.js'
import { createRunDir, type RunDir } from '../run-dir.js'
import { pluginDirs, runRoot, stampArrivals } from '../showcase-kit.js'
import { writeMod } from '../staging.js'
import { startSession, type Session } from '../tmux-session.js'
import { CHANGE_TOOLS } from '../../../packages/compact-handoff/hooks/facts/facts.js'
import { done, log } from './options.js'
import { writeTrivialMod } from './start-stages.js'
import { addSettles, hookSettlesOf, type HookSettles } from './hook-settles.js'

export const TURN_ARMS = ['mods', 'passThrough', 'trivial', 'bare'] as const
export type TurnArm = (typeof TURN_ARMS)[number]

export const TURN_ARM_LABELS: Readonly<Record<TurnArm, string>> = {
  mods: 'our mods',
  passThrough: 'a do-nothing mod on our events',
  trivial: 'a do-nothing mod',
  bare: 'none',
}

/** Measured turns per session, after one warm-up turn (the first turn's hooks and tools load). */
export const TURNS_PER_SESSION = 4
/** A turn's tool calls, in order; each works on the turn's own file. */
const TURN_TOOLS = ['Read', 'Bash', 'Write', 'Edit'] as const
/** The process is quiet once its CPU time has not moved over this long. */
const QUIET_MS = 150
const QUIET_WAIT_MS = 10_000
const TURN_WAIT_MS = 60_000
/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`: 100 on Linux). */
const TICKS_PER_S = 100

export type TurnSample = { enterMs: number; toolMs: number[]; cpuS: number }
/** The turns' samples, and the measured turns' hook settle times of the two arms that hook our events. */
export type TurnTimes = { samples: Record<TurnArm, TurnSample[]>; settles: Record<HookedArm, HookSettles> }

const PASS_THROUGH_MOD = 'bench-pass-through'
/** The arms whose mod hooks compact-handoff's events, and the mod whose hooks the debug log times. */
const HOOKED_ARMS = { mods: 'compact-handoff', passThrough: PASS_THROUGH_MOD } as const
type HookedArm = keyof typeof HOOKED_ARMS
/** Per session, not per turn: left out of the settle table. */
const SESSION_EVENTS = new Set(['session.start', 'session.end'])

const REGISTER_HEAD = "import type { Register } from 'claude-code'\n"

/** A mod that hooks every event compact-handoff hooks, with its matchers, and only passes each on:
 * what the hooks' existence costs, the worker hops, with none of their work. The tool calls
 * whose literal matchers name tools the bench turn never calls (carried/, recall/) are left out. */
function writePassThroughMod(run: RunDir): string {
  const pass = '($, e, next) => next(e)'
  const hooks = [
    `on('session.start', ${pass})`,
    `on('session.end', ${pass})`,
    `on('prompt.submit', ${pass})`,
    `on('tool.call', { tool: ${JSON.stringify(CHANGE_TOOLS)} }, ${pass})`,
    `on('tool.check', { tool: ['Write', 'Edit'] }, ${pass})`,
    `on('turn.start', ${pass})`,
    `on('turn.complete', ${pass})`,
    `on('classic.Stop', ${pass})`,
    `on('skill.prompt', ${pass})`,
    `on('ui.render', { component: 'UserMessage', props: { origin: { kind: 'unclassified' } } }, ${pass})`,
    `on('session.compact', ${pass})`,
  ]
  return writeMod(run, PASS_THROUGH_MOD, { 'hooks/register.ts': `${REGISTER_HEAD}export const register: Register = (on) => {\n${hooks.map((h) => `  ${h}\n`).join('')}}\n` })
}

function armPlugins(run: RunDir, arm: TurnArm): string[] {
  if (arm === 'mods') return pluginDirs()
  if (arm === 'passThrough') return [writePassThroughMod(run)]
  if (arm === 'trivial') return [writeTrivialMod(run, 'trivial')]
  return []
}

/** CPU-seconds of `pid` so far: its own (every thread, the hooks worker among them) and its reaped children's. */
function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command's closing parenthesis; utime, stime, cutime, cstime are fields 14–17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return [11, 12, 13, 14].reduce((n, i) => n + Number(fields[i]), 0) / TICKS_PER_S
}

/** Waits until the process's CPU time stands still for QUIET_MS; returns it. */
async function quietCpuSeconds(pid: number): Promise<number> {
  let last = cpuSecondsOf(pid)
  let since = performance.now()
  return pollUntil('claude to go quiet', QUIET_WAIT_MS, () => {
    const now = cpuSecondsOf(pid)
    if (now !== last) {
      last = now
      since = performance.now()
      return undefined
    }
    return performance.now() - since >= QUIET_MS ? now : undefined
  }, 25)
}

/** `measuredFrom`: the debug log's end once the warm-up turn is done. */
type Open = { arm: TurnArm; run: RunDir; mock: MockApi; at: Map<MockRequest, number>; session: Session; pid: number; measuredFrom: number }

async function openArm(arm: TurnArm, round: number): Promise<Open> {
  const run = createRunDir(`bench-turn-${arm}`, runRoot())
  const mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl'), timeLimitMs: 30 * 60_000 })
  const at = stampArrivals(mock)
  const session = await startSession({ run, plugins: armPlugins(run, arm), mock })
  await session.waitForReady()
  const pid = Number(session.tmux('display-message', '-p', '-t', 'cc', '#{pane_pid}').trim())
  log(`turn ${arm} round ${round}: ready`)
  return { arm, run, mock, at, session, pid, measuredFrom: 0 }
}

function promptOf(arm: TurnArm, turn: number): string {
  return `Bench turn ${turn} of ${arm}: check the module and note it`
}

/** The turn's replies: each tool call answers the previous one's result, then the answer. */
function turnScript(open: Open, turn: number): { ids: string[]; replies: ScriptedReply[]; answer: string } {
  const file = join(open.run.proj, 'src', `turn-${turn}.ts`)
  const input: Record<(typeof TURN_TOOLS)[number], Record<string, unknown>> = {
    Read: { file_path: file },
    Bash: { command: `echo turn-${turn}`, description: 'bench step' },
    Write: { file_path: file, content: `export const turn = ${turn}\n` },
    Edit: { file_path: file, old_string: `turn = ${turn}`, new_string: `turn = ${turn + 1}` },
  }
  const ids = TURN_TOOLS.map((tool) => `toolu_bench_turn_${turn}_${tool.toLowerCase()}`)
  const replies: ScriptedReply[] = TURN_TOOLS.map((tool, i) => ({
    when: i === 0 ? promptOf(open.arm, turn) : (q: MockRequest) => carriesToolResult(q, ids[i - 1]!),
    toolUses: [{ id: ids[i]!, name: tool, input: input[tool] }],
  }))
  const answer = `End of bench turn ${turn}.`
  replies.push({ when: (q) => carriesToolResult(q, ids.at(-1)!), text: answer })
  return { ids, replies, answer }
}

async function oneTurn(open: Open, turn: number): Promise<TurnSample> {
  const { session, mock, at, pid } = open
  const src = join(open.run.proj, 'src')
  mkdirSync(src, { recursive: true })
  writeFileSync(join(src, `turn-${turn}.ts`), `export const turn = ${turn}\n`)
  const { ids, replies, answer } = turnScript(open, turn)
  mock.script(...replies)
  const text = promptOf(open.arm, turn)
  session.tmux('send-keys', '-t', 'cc', '-l', text)
  await pollUntil(`"${text}" typed`, 15_000, () => (session.screen().includes(text.slice(-30)) ? true : undefined), 10)
  const cpuBefore = await quietCpuSeconds(pid)
  const sent = performance.now()
  session.pressKeys('Enter')
  await session.waitForScreen(new RegExp(answer.replace(/\./g, '\\.')), TURN_WAIT_MS)
  const cpuAfter = await quietCpuSeconds(pid)
  const first = mock.requests.find((r) => r.lastUserText.includes(text))
  const toolMs = ids.map((id, i) => {
    const asked = i === 0 ? first : mock.requests.find((r) => carriesToolResult(r, ids[i - 1]!))
    const answered = mock.requests.find((r) => carriesToolResult(r, id))
    if (asked === undefined || answered === undefined) throw new Error(`turn bench: the requests around ${id} were not found`)
    return (at.get(answered) ?? NaN) - (at.get(asked) ?? NaN)
  })
  if (first === undefined) throw new Error(`turn bench: no request for "${text}"`)
  return { enterMs: (at.get(first) ?? NaN) - sent, toolMs, cpuS: cpuAfter - cpuBefore }
}

/** `rounds` rounds: all arms open at once, a warm-up turn each, then the turns go round the arms. */
export async function turnTimes(rounds: number): Promise<TurnTimes> {
  const samples = Object.fromEntries(TURN_ARMS.map((a) => [a, []])) as unknown as TurnTimes['samples']
  const settles: TurnTimes['settles'] = { mods: {}, passThrough: {} }
  let turn = 0
  for (let round = 0; round < rounds; round++) {
    const opened: Open[] = []
    try {
      // The start order turns too: a later start meets the earlier sessions idle.
      for (let i = 0; i < TURN_ARMS.length; i++) opened.push(await openArm(TURN_ARMS[(i + round) % TURN_ARMS.length]!, round))
      for (let t = 0; t <= TURNS_PER_SESSION; t++) {
        turn++
        for (let i = 0; i < opened.length; i++) {
          const open = opened[(i + t + round) % opened.length]!
          const sample = await oneTurn(open, turn)
          if (t > 0) samples[open.arm].push(sample)
          else open.measuredFrom = open.session.logMark()
          log(`turn ${open.arm} ${turn}: enter ${sample.enterMs.toFixed(0)} ms, tools ${sample.toolMs.map((ms) => ms.toFixed(0)).join('/')} ms, ${sample.cpuS.toFixed(2)} CPU-s`)
        }
      }
      for (const open of opened) {
        await open.session.stop()
        if (open.arm === 'mods' || open.arm === 'passThrough') addSettles(settles[open.arm], hookSettlesOf(open.session.debugLog().slice(open.measuredFrom), HOOKED_ARMS[open.arm]))
        done(open.run.dir)
      }
    } catch (error) {
      for (const open of opened) await open.session.stop()
      throw new Error(`turn bench failed (run dirs kept: ${opened.map((o) => o.run.dir).join(', ')}): ${error instanceof Error ? error.message : String(error)}`)
    } finally {
      for (const open of opened) await open.mock.close()
    }
  }
  return { samples, settles }
}

function medianOf(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2
}

function statsOf(xs: readonly number[], digits: number, unit: string): string {
  if (xs.length === 0) return '–'
  const sorted = [...xs].sort((a, b) => a - b)
  return `${medianOf(sorted).toFixed(digits)}${unit} (${sorted[0]!.toFixed(digits)}–${sorted.at(-1)!.toFixed(digits)})`
}

/** The tool calls split by what they cost our mods: Read and Bash reach no hook of
 * ours, Write and Edit pass two (tool.check, tool.call) whatever the file. */
const TOOL_GROUPS: readonly { label: string; tools: readonly (typeof TURN_TOOLS)[number][] }[] = [
  { label: 'a Read or Bash call (no hook of ours)', tools: ['Read', 'Bash'] },
  { label: 'a Write or Edit call (two hooks)', tools: ['Write', 'Edit'] },
]

function toolTimesOf(sample: TurnSample, tools: readonly (typeof TURN_TOOLS)[number][]): number[] {
  return TURN_TOOLS.flatMap((tool, i) => (tools.includes(tool) ? [sample.toolMs[i]!] : []))
}

/** Medians (min–max) per arm, a markdown table; then each hooked event's median settle
 * time with our mods and with the pass-through mod (the same built-ins beneath both). */
export function turnTable({ samples, settles }: TurnTimes): string[] {
  const cells = (f: (s: TurnSample[]) => string): string => TURN_ARMS.map((arm) => f(samples[arm])).join(' | ')
  const events = [...new Set([...Object.keys(settles.mods), ...Object.keys(settles.passThrough)])].filter((e) => !SESSION_EVENTS.has(e)).sort()
  const settleCell = (times: number[] | undefined): string => (times === undefined ? '–' : `${medianOf(times).toFixed(1)} ms (${times.length})`)
  return [
    `| Per turn: median (min–max) | ${TURN_ARMS.map((a) => TURN_ARM_LABELS[a]).join(' | ')} |`,
    `| --- | ${TURN_ARMS.map(() => '---').join(' | ')} |`,
    `| Enter → the turn's first request | ${cells((s) => statsOf(s.map((x) => x.enterMs), 0, ' ms'))} |`,
    `| a tool call (Read, Bash, Write, Edit) → the next request | ${cells((s) => statsOf(s.flatMap((x) => x.toolMs), 0, ' ms'))} |`,
    ...TOOL_GROUPS.map(({ label, tools }) => `| ${label} → the next request | ${cells((s) => statsOf(s.flatMap((x) => toolTimesOf(x, tools)), 0, ' ms'))} |`),
    `| CPU-seconds per turn (claude's process) | ${cells((s) => statsOf(s.map((x) => x.cpuS), 2, ''))} |`,
    `| turns; tool calls | ${cells((s) => `${s.length}; ${s.reduce((n, x) => n + x.toolMs.length, 0)}`)} |`,
    '',
    `| A hook settled (debug log, next() included): median (dispatches) | ${TURN_ARM_LABELS.mods} | ${TURN_ARM_LABELS.passThrough} |`,
    '| --- | --- | --- |',
    ...events.map((e) => `| \`${e}\` | ${settleCell(settles.mods[e])} | ${settleCell(settles.passThrough[e])} |`),
  ]
}
