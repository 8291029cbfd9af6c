/**
 * The bench's start table: each start variant's stages (start-stages.ts) as median
 * (min–max) from the launch, and the notes that say which part is the engine's own
 * loading, the same for a mod that does nothing, and which is the mods'.
 */
import { median } from '../showcase-kit.js'
import type { StartTimes } from './mod-costs.js'
import { START_RUNS } from './options.js'
import { ALL_START_VARIANTS, handoffModules, START_VARIANT_LABELS, START_VARIANTS, type StartStages, type StartVariant } from './start-stages.js'

function ms(x: number): string {
  return `${Math.round(x)} ms`
}
function spread(xs: readonly number[]): string {
  if (xs.length === 0) return '—'
  const lo = Math.min(...xs)
  const hi = Math.max(...xs)
  return lo === hi ? ms(median(xs)) : `${ms(median(xs))} (${ms(lo)}–${ms(hi)})`
}
function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${Math.round(x)} ms`
}

type Pick = (s: StartStages) => number | undefined

const ROWS: ReadonlyArray<[string, Pick]> = [
  ['Prompt box drawn', (s) => s.box],
  ["The session's screen mounted (debug log: the engine's own start-up, before the prompt box)", (s) => s.mounted],
  ['Hooks worker spawned (debug log; the engine first walks each mod\'s imports from `register.ts`)', (s) => s.spawned],
  ["Every mod's module loaded in it (the engine reads, checks and runs each module's top level and `register`)", (s) => s.loaded],
  ['`session.start` raised (engine: the mod folders watched, commands and skills loaded again, types written into each `--plugin-dir` mod)', (s) => s.raised],
  ["Every mod's `session.start` settled (the mods' own hooks)", (s) => s.settled],
  ['Ready: the prompt box and every `session.start` settled', (s) => s.ready],
  ["Ready, after the session's own prompt box", (s) => s.ready - s.box],
]

const MOD_VARIANTS = START_VARIANTS.filter((v) => v !== 'bare')
const SPAWN_NAMES: Readonly<Record<StartVariant, string>> = {
  bare: '',
  trivial: 'for one tiny module',
  manyModules: 'for the tiny modules',
  bigModule: 'for the one large module',
  sameGraph: "for compact-handoff's import graph emptied",
  sameGraphBeside: 'for that graph beside the answer mod and the skill pack',
  bundled: 'for the two mods as one generated module each',
  flatMods: 'for the two mods, the walk one level deep',
  mods: 'for the two mods',
}

/** The goal the start is held to (issue 40), against the same run's one-module do-nothing mod. */
const BOX_GOAL_MS = 50
const READY_GOAL_RATIO = 2

function valuesOf(start: StartTimes, variant: StartVariant, pick: Pick): number[] {
  return start[variant].flatMap((s) => {
    const v = pick(s)
    return v === undefined ? [] : [v]
  })
}

/** One variant's median of `pick`, over the starts where it has a value. */
function med(start: StartTimes, variant: StartVariant, pick: Pick): number {
  return median(valuesOf(start, variant, pick))
}

/** The two figures of the goal, for `variant` against the same run's one-module do-nothing mod: its prompt box behind that mod's, and its ready-after-the-box against that mod's. */
function goalLine(start: StartTimes, variant: 'mods' | 'bundled'): string {
  const box = med(start, variant, (s) => s.box) - med(start, 'trivial', (s) => s.box)
  const ratio = med(start, variant, (s) => s.ready - s.box) / med(start, 'trivial', (s) => s.ready - s.box)
  const met = (ok: boolean): string => (ok ? 'met' : 'not met')
  return `${START_VARIANT_LABELS[variant]}: prompt box ${signed(box)} behind the do-nothing mod's (goal: at most +${BOX_GOAL_MS} ms, ${met(box <= BOX_GOAL_MS)}); ready ${ratio.toFixed(2)}× the do-nothing mod's time after the prompt box (goal: at most ${READY_GOAL_RATIO}×, ${met(ratio <= READY_GOAL_RATIO)}).`
}

export function startTable(start: StartTimes): string[] {
  const { count, bytes } = handoffModules()
  const out: string[] = []
  out.push(`### Session start: where the time to ready goes (${START_RUNS} starts each; ms from the launch, median (min–max))`, '')
  out.push(`| | ${START_VARIANTS.map((v) => START_VARIANT_LABELS[v]).join(' | ')} |`, `| --- |${START_VARIANTS.map(() => ' --- |').join('')}`)
  for (const [label, pick] of ROWS) out.push(`| ${label} | ${START_VARIANTS.map((v) => spread(valuesOf(start, v, pick))).join(' | ')} |`)
  out.push('')
  if (START_VARIANTS.includes('bare') && START_VARIANTS.includes('trivial')) {
    for (const v of ['mods', 'bundled'] as const) if (START_VARIANTS.includes(v)) out.push(`- ${goalLine(start, v)}`)
    out.push('')
  }
  // The notes below compare every variant: a `--start-variants` subset gets the table and the goal alone.
  if (START_VARIANTS.length < ALL_START_VARIANTS.length) return out
  const loadedOf = (v: StartVariant): number => med(start, v, (s) => s.loaded)
  const engineStep = (v: StartVariant): number => med(start, v, (s) => (s.raised === undefined || s.loaded === undefined ? undefined : s.raised - s.loaded))
  const spawnAfterMount = (v: StartVariant): number => med(start, v, (s) => (s.spawned === undefined || s.mounted === undefined ? undefined : s.spawned - s.mounted))
  const afterBox = (v: StartVariant): number => med(start, v, (s) => s.ready - s.box)
  const ownStep = (v: StartVariant): number => med(start, v, (s) => (s.settled === undefined || s.raised === undefined ? undefined : s.settled - s.raised))
  out.push(
    'From the launch of the tmux pane, polled every 20 ms for the prompt box; the other stages are the debug log\'s own time stamps ("hooks worker spawned", each mod\'s "hooks module … loaded", "session.start: raised", each mod\'s "session.start settled"). The first launch of each variant is a discarded warm-up. ' +
      `The do-nothing mods hook \`session.start\` and pass it on; one is a single module, one is ${count} tiny modules all imported by its \`register.ts\` (compact-handoff's hooks folder holds ${count}), one is a single module of ${Math.round(bytes / 1024)} KiB (that folder's size), one is that folder's files and imports with every body emptied (the same graph, none of the code). ` +
      `Medians: from its module loaded to \`session.start\` raised the engine took ${ms(engineStep('trivial'))} with the do-nothing mod and ${ms(engineStep('mods'))} with the two mods: the engine's own loading, which no mod shortens. ` +
      `Modules loaded, against the do-nothing mod: ${signed(loadedOf('manyModules') - loadedOf('trivial'))} for ${count} tiny modules, ${signed(loadedOf('bigModule') - loadedOf('trivial'))} for one module of that size, ${signed(loadedOf('sameGraph') - loadedOf('trivial'))} for the emptied graph, ${signed(loadedOf('mods') - loadedOf('trivial'))} for the two mods, ${signed(loadedOf('bundled') - loadedOf('trivial'))} for them as one generated module each. ` +
      `The mods' own \`session.start\` (raised → settled): ${ms(ownStep('mods'))}, against ${ms(ownStep('trivial'))} for a hook that only passes the event on. ` +
      `The hooks worker spawned against the session's screen mount (median; minus is before it): ${MOD_VARIANTS.map((v) => `${signed(spawnAfterMount(v))} ${SPAWN_NAMES[v]}`).join(', ')}. ` +
      `Before it spawns the worker the engine opens every module a mod imports, following the imports from \`register.ts\`, on the thread that also draws the session: ` +
      `a walk that ends after the screen mounted waits behind the session's own start-up. The emptied graph (none of the code) against one tiny module is what the shape of compact-handoff's imports costs; the emptied graph beside the answer mod and the skill pack, against it alone, is what loading those two beside it adds; the two mods against that (the same plugins, the same imports) is what compact-handoff's code adds. ` +
      `Ready after the prompt box: ${ms(afterBox('trivial'))} for the one-module do-nothing mod, ${ms(afterBox('sameGraph'))} for the emptied graph, ${ms(afterBox('sameGraphBeside'))} for it beside the answer mod and the skill pack, ${ms(afterBox('mods'))} for the two mods, ${ms(afterBox('bundled'))} for them as one generated module each (prompt box ${signed(med(start, 'bundled', (s) => s.box) - med(start, 'mods', (s) => s.box))} against the mods as shipped).`,
  )
  out.push('')
  return out
}
