/**
 * `pnpm bench --start-curve`: the start with do-nothing mods of controlled shapes
 * (curve-shapes.ts), each launched interleaved with nothing loaded and the one-module
 * do-nothing mod, START_RUNS times after a warm-up; the stages come from the debug log
 * (start-stages.ts). Compare within a run: the columns share the machine's load.
 */
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { createRunDir, type RunDir } from '../run-dir.js'
import { median, runRoot, TIMING_POLL_MS } from '../showcase-kit.js'
import { writeMod } from '../staging.js'
import { startSession } from '../tmux-session.js'
import { CURVE_SHAPES, curveFiles, depthOf, type CurveShape } from './curve-shapes.js'
import { done, log, START_RUNS } from './options.js'
import { startStagesOf, writeTrivialMod, type StartStages } from './start-stages.js'

interface CurveRow {
  name: string
  shape?: CurveShape
  starts: StartStages[]
}

/** Every row's starts, and the 1-minute load average before each round of launches. */
export interface CurveTimes {
  rows: CurveRow[]
  loads: number[]
}

function pluginsOf(run: RunDir, row: CurveRow): string[] {
  if (row.name === 'bare') return []
  if (row.shape === undefined) return [writeTrivialMod(run, 'trivial')]
  return [writeMod(run, `bench-curve-${row.shape.name}`, curveFiles(row.shape))]
}

export async function curveTimes(): Promise<CurveTimes> {
  const rows: CurveRow[] = [{ name: 'bare', starts: [] }, { name: 'trivial', starts: [] }, ...CURVE_SHAPES.map((shape) => ({ name: shape.name, shape, starts: [] }))]
  const runs = rows.map((row) => createRunDir(`bench-curve-${row.name}`, runRoot()))
  const plugins = rows.map((row, i) => pluginsOf(runs[i]!, row))
  const loads: number[] = []
  // Launch 0 of each is a warm-up (the engine writes types into a mod folder on its first load).
  for (let i = 0; i <= START_RUNS; i++) {
    loads.push(loadavg()[0]!)
    for (const [r, row] of rows.entries()) {
      const launchedAtMs = Date.now()
      const t0 = performance.now()
      const session = await startSession({ run: runs[r]!, plugins: plugins[r]! })
      try {
        const { box, ready } = await session.readyAt({ everyMs: TIMING_POLL_MS })
        if (i > 0) row.starts.push({ box: box - t0, ready: ready - t0, ...startStagesOf(session.debugLog(), launchedAtMs, session.modIds) })
      } finally {
        await session.stop()
      }
    }
    log(`start curve: round ${i} of ${START_RUNS} done (load ${loadavg()[0]!.toFixed(1)})`)
  }
  for (const run of runs) done(run.dir)
  return { rows, loads }
}

function med(starts: readonly StartStages[], pick: (s: StartStages) => number | undefined): number | undefined {
  const xs = starts.flatMap((s) => {
    const v = pick(s)
    return v === undefined ? [] : [v]
  })
  return xs.length === 0 ? undefined : median(xs)
}

function cell(x: number | undefined): string {
  return x === undefined ? '–' : String(Math.round(x))
}

/** The curve as a markdown table: medians in ms from the launch, but "ready after box" and the stage gaps. */
export function curveTable({ rows, loads }: CurveTimes): string[] {
  const trivialReady = med(rows.find((r) => r.name === 'trivial')?.starts ?? [], (s) => s.ready - s.box)
  const lines = [
    `Start curve: medians of ${START_RUNS} starts each, ms from the launch; "ready−box" is ready after the session's own prompt box (× the one-module do-nothing mod's); "spawned−mounted" and "loaded−spawned" from the debug log. The 1-minute load average before each round: ${loads.map((l) => l.toFixed(1)).join(', ')}.`,
    '',
    '| Shape | Files | Bytes | Depth | Box | Ready−box | Mounted | Spawned | Loaded | Spawned−mounted | Loaded−spawned |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ]
  for (const row of rows) {
    const readyAfter = med(row.starts, (s) => s.ready - s.box)
    const ratio = readyAfter !== undefined && trivialReady !== undefined && row.name !== 'bare' ? ` (${(readyAfter / trivialReady).toFixed(1)}×)` : ''
    const gap = (a: keyof StartStages, b: keyof StartStages) => med(row.starts, (s) => (s[a] === undefined || s[b] === undefined ? undefined : s[a]! - s[b]!))
    const s = row.shape
    lines.push(
      `| ${row.name} | ${s?.files ?? (row.name === 'bare' ? 0 : 1)} | ${s?.bytes ?? '–'} | ${s === undefined ? '–' : depthOf(s)} | ${cell(med(row.starts, (x) => x.box))} | ${cell(readyAfter)}${ratio} | ${cell(med(row.starts, (x) => x.mounted))} | ${cell(med(row.starts, (x) => x.spawned))} | ${cell(med(row.starts, (x) => x.loaded))} | ${cell(gap('spawned', 'mounted'))} | ${cell(gap('loaded', 'spawned'))} |`,
    )
  }
  return lines
}
