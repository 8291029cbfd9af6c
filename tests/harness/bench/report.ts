/**
 * The bench's report: markdown tables for docs/measured.md, as median
 * (min–max) of the runs, with the notes that say what each figure covers.
 */
import { readFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { claudeVersion } from '../claude-cli.js'
import { handoffFileText } from '../handoff-script.js'
import { median } from '../showcase-kit.js'
import { bigFileText, FOCUS, longAnswer, PROMPTS, READS_PER_PROMPT, REREAD_MODULES } from './conversation.js'
import { HANDOFF_PATH_WRITES, OTHER_CALLS, PLAIN_WRITES, WRITE_SESSIONS, type CallTimes, type StartTimes } from './mod-costs.js'
import { START_RUNS, SWAP_RUNS } from './options.js'
import { FOLDER_FILES, FOLDER_PAIRS, type FolderStartTimes } from './folder-start.js'
import type { SwapSample } from './swap-runs.js'
import { SWAP_STEP_LABELS, SWAP_STEPS, type SwapStep } from './swap-steps.js'
import type { FloorSample } from './swap-floor.js'
import { startTable } from './report-start.js'

export function kb(bytes: number): string {
  return bytes >= 10_000 ? `${(bytes / 1024).toFixed(0)} KiB` : `${bytes} B`
}
function tok(bytes: number): string {
  return `~${bytes >= 4000 ? `${(bytes / 4 / 1000).toFixed(1)}k` : Math.round(bytes / 4)} tok`
}
export function ms(x: number): string {
  return `${Math.round(x)} ms`
}
export function spread(xs: readonly number[], fmt: (x: number) => string): string {
  if (xs.length === 0) return '—'
  const lo = Math.min(...xs)
  const hi = Math.max(...xs)
  return lo === hi ? fmt(median(xs)) : `${fmt(median(xs))} (${fmt(lo)}–${fmt(hi)})`
}
export function sizeCell(xs: readonly number[]): string {
  if (xs.every((x) => x === 0)) return '0'
  return `${spread(xs, kb)}, ${tok(median(xs))}`
}

export function machine(): string {
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

/** The /compact vs /compact-handoff table and its notes: one row per figure, and the
 * notes as one paragraph, so a row reads beside its neighbours. */
function swapTable(compact: SwapSample[], handoff: SwapSample[]): string[] {
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
      "The swap's own latency runs from the arrival of the skill turn's last request, which the mock answers at once with the final text, to that request: the turn's end, the file check, the compaction and the continue-prompt.",
  )
  out.push('')
  return out
}

/** Where the swap's own latency goes, step by step, and each step's share of the whole,
 * beside the floor: the same steps taken by a mod that does nothing else (swap-floor.ts). */
function swapStepsTable(handoff: SwapSample[], floor: FloorSample[]): string[] {
  const split = handoff.flatMap((s) => (s.swapSteps !== undefined ? [s.swapSteps] : []))
  if (split.length === 0) return []
  const floorSplit = floor.flatMap((s) => (s.steps !== undefined ? [s.steps] : []))
  const medians = SWAP_STEPS.map((step) => median(split.map((s) => s[step])))
  const total = medians.reduce((a, b) => a + b, 0)
  const floorCell = (step: SwapStep): string => (floorSplit.length === 0 ? '—' : spread(floorSplit.map((s) => s[step]), ms))
  const out: string[] = []
  out.push(`### The swap's own latency, step by step (\`/compact-handoff\`, ${split.length} of ${handoff.length} runs split; median (min–max))`, '')
  out.push('| Step | Time | Share of the summed medians | The floor: a mod that does only this |', '| --- | --- | --- | --- |')
  for (const [i, step] of SWAP_STEPS.entries()) {
    out.push(`| ${SWAP_STEP_LABELS[step]} | ${spread(split.map((s) => s[step]), ms)} | ${Math.round((100 * (medians[i] ?? 0)) / total)} % | ${floorCell(step)} |`)
  }
  const floorWhole = floor.length === 0 ? '—' : spread(floor.map((s) => s.ownMs), ms)
  out.push(`| Sum of the medians (the whole swap's median: ${spread(handoff.map((s) => s.swapOwnMs ?? NaN), ms)}) | ${ms(total)} | 100 % | ${floorWhole} (the whole) |`)
  out.push('')
  out.push(
    "Each step runs from the previous mark to its own: the mock's arrival of the skill turn's last request, then the debug log's time stamps of the skill turn's end, " +
      "compact-handoff's go-command queued (from the skill turn's turn.complete hook), its `$.session.compact` asked (from the go-command hook's 0 ms timer), the compaction's messages standing, " +
      "`$.prompt.submit` of the continue-prompt, and the mock's arrival of the request after the swap. The engine logs a mod's `$` call when it takes it, so a mod's " +
      'step ends when its call reaches the engine; no timing code runs in the mods. Steps marked "engine" are work no mod does. ' +
      'The floor is the same path after the same conversation, taken by a throwaway pair of mods alone in their session: the first queues its hidden go-command from its turn.complete hook when the answer says so, ' +
      "the command's hook compacts from a 0 ms timer, the second mod answers with a fixed stub, and the first submits a fixed prompt (no check, no state). No swap can be faster than the floor.",
  )
  out.push('')
  return out
}

/** The cost-of-the-mods table and its notes. */
function costTable(start: StartTimes, writes: { without: CallTimes; with: CallTimes }): string[] {
  const out: string[] = []
  out.push(`### Cost of the mods (the two mods and the skill pack loaded with --plugin-dir vs nothing loaded)`, '')
  out.push('| | without | with | difference of medians |', '| --- | --- | --- | --- |')
  const diff = (a: number[], b: number[]): string => `${median(b) - median(a) >= 0 ? '+' : ''}${Math.round(median(b) - median(a))} ms`
  const bare = { box: start.bare.map((s) => s.box), ready: start.bare.map((s) => s.ready) }
  const mods = { box: start.mods.map((s) => s.box), ready: start.mods.map((s) => s.ready) }
  out.push(`| Session start → prompt box drawn (${START_RUNS} runs each) | ${spread(bare.box, ms)} | ${spread(mods.box, ms)} | ${diff(bare.box, mods.box)} |`)
  out.push(`| Session start → ready: prompt box and, with the mods, both \`session.start\` hooks settled | ${spread(bare.ready, ms)} | ${spread(mods.ready, ms)} | ${diff(bare.ready, mods.ready)} |`)
  out.push(`| Write tool call, ordinary path (${writes.without.plain.length} calls each) | ${spread(writes.without.plain, ms)} | ${spread(writes.with.plain, ms)} | ${diff(writes.without.plain, writes.with.plain)} |`)
  out.push(`| Write tool call, \`.claude/handoffs/HANDOFF_*.md\` with no run under way (${writes.without.handoffPath.length} calls each) | ${spread(writes.without.handoffPath, ms)} | ${spread(writes.with.handoffPath, ms)} | ${diff(writes.without.handoffPath, writes.with.handoffPath)} |`)
  for (const [kind, label] of [['edit', 'Edit'], ['read', 'Read'], ['bash', 'Bash (`echo`)']] as const) {
    out.push(`| ${label} tool call, recorded as a fact (${writes.without[kind].length} calls each) | ${spread(writes.without[kind], ms)} | ${spread(writes.with[kind], ms)} | ${diff(writes.without[kind], writes.with[kind])} |`)
  }
  out.push('')
  out.push(
    'Start times run from the launch of the tmux pane, polled every 20 ms (screen, and the debug log for the hooks); the mods can settle after the prompt box appears (the next table shows where that time goes). The first launch of each kind is a discarded warm-up. ' +
      "A Write call's time runs from the mock sending the reply that holds the tool_use to the arrival of the request carrying its tool_result (client parsing, the tool, the hooks, the next request); " +
      `${WRITE_SESSIONS} sessions per side, each with ${PLAIN_WRITES + HANDOFF_PATH_WRITES} chained Writes, then ${OTHER_CALLS} Edits, Reads and Bash calls each.`,
  )
  out.push('')
  return out
}

/** What a crowded handoff folder costs a start, and its note. */
function folderTable(folder: FolderStartTimes): string[] {
  const difference = median(folder.full) - median(folder.empty)
  const signed = (x: number): string => `${x >= 0 ? '+' : ''}${Math.round(x)} ms`
  return [
    `### A crowded handoff folder at session start (${FOLDER_PAIRS} starts each)`,
    '',
    `| | other handoff folder empty | ${FOLDER_FILES.toLocaleString('en')} handoffs in it | difference of medians |`,
    '| --- | --- | --- | --- |',
    `| Session start → the offer of an own handoff shown | ${spread(folder.empty, ms)} | ${spread(folder.full, ms)} | ${signed(difference)} |`,
    `| Of which the offer itself: \`session.start\` settled → the offer shown | ${spread(folder.offerEmpty, ms)} | ${spread(folder.offerFull, ms)} | ${signed(median(folder.offerFull) - median(folder.offerEmpty))} |`,
    '',
    `From the launch of the tmux pane, and from the debug log's line saying compact-handoff's \`session.start\` settled, to the offer's toast in the debug log (the lines' own time stamps). The whole start includes the engine's own work on the project's files. An own handoff, written by the model's Write in a first session, waits in .claude/handoffs/; plans/handoffs/ is empty, or holds ${FOLDER_FILES.toLocaleString('en')} handoffs with work left, none of them written here.`,
    '',
  ]
}

/** The whole report; `machineLine` is taken at the start, before the runs load the machine;
 * `autoLines` is the automatic-compaction table (auto-report.ts). */
export function report(
  machineLine: string,
  swaps: { compact: SwapSample[]; handoff: SwapSample[] },
  floor: FloorSample[],
  start: StartTimes,
  writes: { without: CallTimes; with: CallTimes },
  folder: FolderStartTimes,
  autoLines: readonly string[],
): string {
  const out = [...swapTable(swaps.compact, swaps.handoff), ...swapStepsTable(swaps.handoff, floor), ...autoLines, ...costTable(start, writes), ...startTable(start), ...folderTable(folder)]
  out.push(`Machine: ${machineLine}. Absolute times are noisy (shared machine, real terminal UI); compare the columns, not the digits.`)
  return out.join('\n')
}
