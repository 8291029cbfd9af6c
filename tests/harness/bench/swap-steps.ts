/**
 * Where the swap's own latency goes, read from outside the mods: the debug log's time
 * stamps (the engine logs each mod's `$` call as it takes it, and each turn's end) between
 * the mock's arrival times of the skill turn's last request and of the request after the
 * swap. No timing code runs in the mods.
 */
import { escapeRe } from '../escape-re.js'

/** The swap's steps in order; each runs from the previous step's mark to its own. */
export const SWAP_STEPS = ['turnEnd', 'check', 'go', 'compaction', 'finish', 'request'] as const
export type SwapStep = (typeof SWAP_STEPS)[number]
export type SwapSteps = Record<SwapStep, number>

/** What each step covers, and whose work it is: the engine's, or the mods'. */
export const SWAP_STEP_LABELS: Readonly<Record<SwapStep, string>> = {
  turnEnd: "the skill's final answer → its turn ends (engine: the reply streamed, the turn closed)",
  check: "turn end → go-command queued (compact-handoff's turn.complete: the turn's verdict, the file check, the run moved to the go stage)",
  go: "go-command queued → compaction asked (engine: the queued command run once idle; compact-handoff's go-command hook takes the go step, its 0 ms timer moves the run to compacting and builds the stub)",
  compaction: 'compaction (compact-handoff-answer answers with the stub; core never runs)',
  finish: "compaction done → continue-prompt submitted (the meter's window opened, the run back to idle)",
  request: "continue-prompt → its request at the mock (engine: the new turn's hooks and context)",
}

/** Debug-log lines that end each step but the first and the last (the mock's arrivals
 * mark those), for the swap of the mod named `plugin`. */
function marksOf(plugin: string): ReadonlyArray<[SwapStep, RegExp]> {
  const name = escapeRe(plugin)
  return [
    ['turnEnd', /^(\S+Z) \[DEBUG\] \[engine\] turn \d+ end\b/m],
    ['check', new RegExp(`^(\\S+Z) \\[DEBUG\\] \\$\\.command\\.run \\(${name}\\): \\d+ chars queued`, 'm')],
    ['go', new RegExp(`^(\\S+Z) \\[DEBUG\\] \\$\\.session\\.compact \\(${name}\\): compacting`, 'm')],
    ['compaction', /^(\S+Z) \[DEBUG\] session\.compact \(plugin\): a hook's \d+ messages? stands?/m],
    ['finish', new RegExp(`^(\\S+Z) \\[DEBUG\\] \\$\\.prompt\\.submit \\(${name}\\): `, 'm')],
  ]
}

/**
 * Each step's ms, from the debug log written since the skill turn's last request went
 * out, and the wall-clock ms (epoch) at which the mock received that request and the one
 * after the swap, for the swap of the mod named `plugin`. Each mark is searched for after
 * the previous one; undefined when one is missing (a swap that took another path).
 */
export function swapStepsOf(logSince: string, answeredAtMs: number, afterAtMs: number, plugin = 'compact-handoff'): SwapSteps | undefined {
  const steps: Partial<SwapSteps> = {}
  let at = answeredAtMs
  let from = 0
  for (const [step, re] of marksOf(plugin)) {
    const found = re.exec(logSince.slice(from))
    if (found === null) return undefined
    const markMs = Date.parse(found[1] ?? '')
    steps[step] = markMs - at
    at = markMs
    from += found.index + found[0].length
  }
  steps.request = afterAtMs - at
  return steps as SwapSteps
}
