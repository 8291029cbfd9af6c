/**
 * `pnpm bench`: numbers for docs/measured.md, measured on real interactive Claude Code sessions
 * against the scripted mock API (offline; the mock answers at once, so no model time is
 * in any figure).
 *
 * 1. Swap (bench/swap-runs.ts): the same scripted conversation (bench/conversation.ts),
 *    then built-in `/compact` or `/compact-handoff`, in fresh sessions with the same three
 *    plugins loaded; and the swap's floor (bench/swap-floor.ts), the same engine path taken
 *    by a mod that does nothing else.
 * 2. Cost of the mods (bench/mod-costs.ts): time to ready with and without the plugins
 *    (and with do-nothing mods, bench/start-stages.ts, to tell the engine's own loading
 *    from the mods'), and wall time per tool call with and without them.
 * 3. A crowded handoff folder (bench/folder-start.ts): the start-of-session offer with the
 *    other handoff folder empty and with 10,000 handoffs in it.
 * 4. Automatic compaction (bench/auto-compaction.ts): the engine's own compaction of the
 *    same scripted conversation, left to its summary or answered by the fork handoff;
 *    `--edge-only`: the fork handoff against the handoff written from the digest.
 * 5. The stub row's hook (bench/row-draw.ts): a typed prompt's row, Enter to drawn, with
 *    compact-handoff's ui.render hook and without it.
 * 6. The digest at the window's edge (bench/digest-build.ts): its build time and size on
 *    synthetic transcripts of 1, 10 and 100 MB, in this process (no session).
 * 7. Every turn (bench/turn-costs.ts): Enter → first request, a tool call → the next
 *    request and CPU-seconds per turn, with our mods, do-nothing mods and none, interleaved;
 *    and each hooked event's settle time from the debug log, ours beside the pass-through's.
 * 8. The start's curve (bench/start-curve.ts, `--start-curve` only): do-nothing mods of
 *    controlled file counts, sizes, fillers and import shapes, against nothing loaded.
 *
 * Prints markdown tables to stdout (bench/report.ts). Options: bench/options.ts.
 */
import { performance } from 'node:perf_hooks'
import { CALL_KINDS, noCallTimes, startTimes, writeTimes, WRITE_SESSIONS } from './bench/mod-costs.js'
import { folderStartTimes } from './bench/folder-start.js'
import { AUTO_ONLY, DIGEST_ONLY, EDGE_ONLY, HANDOFF_ONLY, log, ROW_ONLY, START_CURVE, START_ONLY, SWAP_ONLY, SWAP_RUNS, TURN_ONLY } from './bench/options.js'
import { ROW_VARIANTS, rowDrawTimes, rowTable, type RowVariant } from './bench/row-draw.js'
import { turnTable, turnTimes } from './bench/turn-costs.js'
import { machine, report } from './bench/report.js'
import { startTable } from './bench/report-start.js'
import { swapRun, type SwapSample } from './bench/swap-runs.js'
import { floorRun, type FloorSample } from './bench/swap-floor.js'
import { autoCompactionRun, type AutoSample } from './bench/auto-compaction.js'
import { autoTable, edgeTable } from './bench/auto-report.js'
import { digestSamples, digestTable } from './bench/digest-build.js'
import { curveTable, curveTimes } from './bench/start-curve.js'

/** The typed row's drawing, SWAP_RUNS rounds of the two variants' sessions, their prompts alternated. */
async function rowTimes(): Promise<Record<RowVariant, number[]>> {
  const rows: Record<RowVariant, number[]> = { 'with-hook': [], 'without-hook': [] }
  for (let i = 0; i < SWAP_RUNS; i++) {
    const round = await rowDrawTimes(i)
    for (const variant of ROW_VARIANTS) rows[variant].push(...round[variant])
  }
  return rows
}

async function main(): Promise<void> {
  const machineLine = machine()
  const started = performance.now()
  if (DIGEST_ONLY) {
    console.log([...digestTable(digestSamples()), `Machine: ${machineLine}.`].join('\n'))
    return
  }
  if (EDGE_ONLY) {
    const edge: { fork: AutoSample[]; digest: AutoSample[] } = { fork: [], digest: [] }
    for (let i = 0; i < SWAP_RUNS; i++) {
      edge.fork.push(await autoCompactionRun('fork', i))
      edge.digest.push(await autoCompactionRun('digest', i))
    }
    console.log([...edgeTable(edge.fork, edge.digest), `Machine: ${machineLine}.`].join('\n'))
    return
  }
  if (ROW_ONLY || TURN_ONLY) {
    // Both asked for: the two tables of one run, the row's sessions first.
    const rows = ROW_ONLY ? [...rowTable(await rowTimes()), ''] : []
    const turns = TURN_ONLY ? [...turnTable(await turnTimes(SWAP_RUNS)), ''] : []
    console.log([...rows, ...turns, `Machine: ${machineLine}.`].join('\n'))
    return
  }
  if (START_CURVE) {
    console.log([...curveTable(await curveTimes()), `Machine: ${machineLine}.`].join('\n'))
    return
  }
  if (START_ONLY) {
    console.log([...startTable(await startTimes()), `Machine: ${machineLine}.`].join('\n'))
    return
  }
  const swaps: { compact: SwapSample[]; handoff: SwapSample[] } = { compact: [], handoff: [] }
  const floor: FloorSample[] = []
  for (let i = 0; i < SWAP_RUNS && !AUTO_ONLY; i++) {
    if (!HANDOFF_ONLY) swaps.compact.push(await swapRun('compact', i))
    swaps.handoff.push(await swapRun('handoff', i))
    floor.push(await floorRun(i))
  }
  if (SWAP_ONLY) {
    console.log(JSON.stringify({ ...swaps, floor }, null, 1))
    return
  }
  const auto: { summary: AutoSample[]; fork: AutoSample[] } = { summary: [], fork: [] }
  for (let i = 0; i < SWAP_RUNS; i++) {
    auto.summary.push(await autoCompactionRun('summary', i))
    auto.fork.push(await autoCompactionRun('fork', i))
  }
  if (AUTO_ONLY) {
    console.log([...autoTable(auto.summary, auto.fork), `Machine: ${machineLine}.`].join('\n'))
    return
  }
  const start = await startTimes()
  const folder = await folderStartTimes()
  const writes = { without: noCallTimes(), with: noCallTimes() }
  for (let i = 0; i < WRITE_SESSIONS; i++) {
    for (const withMods of [false, true]) {
      const w = await writeTimes(withMods)
      const into = withMods ? writes.with : writes.without
      for (const kind of CALL_KINDS) into[kind].push(...w[kind])
    }
  }
  const rows = await rowTimes()
  const turns = await turnTimes(SWAP_RUNS)
  log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`)
  console.log([report(machineLine, swaps, floor, start, writes, folder, autoTable(auto.summary, auto.fork)), '', ...rowTable(rows), '', ...turnTable(turns), '', ...digestTable(digestSamples())].join('\n'))
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  },
)
