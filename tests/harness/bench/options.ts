/**
 * The bench's command line and what every part of it shares: `--runs N` sets the swap
 * repeats (start repeats are 2N), `--keep` keeps every run dir (mock log, debug log,
 * screen) for a look afterwards, `--swap-only` prints the swap samples as JSON and stops,
 * `--handoff-only` does the same for `/compact-handoff` alone (a minute or two, to iterate on the swap),
 * `--start-only` prints the start table alone (`--start-variants bare,trivial,bundled,mods` runs
 * only those starts, interleaved, for a quicker comparison), `--auto-only` only the
 * automatic-compaction table, `--row-only` only the typed row's drawing with and without the
 * stub row's ui.render hook, `--turn-only` only the per-turn table (our mods, do-nothing mods, none); `--row-only --turn-only`
 * prints both from one run; `--digest-only` only the digest's build on 1, 10 and 100 MB
 * transcripts (seconds: no session), `--edge-only` only the automatic compaction answered by a
 * fork's handoff against one written from the digest, on the same conversation; `--start-curve`
 * only the start with do-nothing mods of controlled shapes (bench/start-curve.ts).
 */
import { removeRun } from '../showcase-kit.js'

const runsArg = process.argv.indexOf('--runs')
export const SWAP_RUNS = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 1) : 5
export const START_RUNS = SWAP_RUNS * 2
const KEEP = process.argv.includes('--keep')
export const HANDOFF_ONLY = process.argv.includes('--handoff-only')
export const SWAP_ONLY = HANDOFF_ONLY || process.argv.includes('--swap-only')
export const START_ONLY = process.argv.includes('--start-only')
export const AUTO_ONLY = process.argv.includes('--auto-only')
export const ROW_ONLY = process.argv.includes('--row-only')
export const DIGEST_ONLY = process.argv.includes('--digest-only')
export const TURN_ONLY = process.argv.includes('--turn-only')
export const EDGE_ONLY = process.argv.includes('--edge-only')
export const START_CURVE = process.argv.includes('--start-curve')

/** Progress goes to stderr; stdout is the report. */
export function log(line: string): void {
  process.stderr.write(`bench: ${line}\n`)
}

/** A run finished well: its dir goes, unless `--keep`. A failed run's dir is always kept. */
export function done(dir: string): void {
  if (KEEP) log(`kept ${dir}`)
  else removeRun(dir)
}
