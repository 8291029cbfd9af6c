/**
 * What a session's start spends on mods, told apart from outside: throwaway mods that do
 * nothing (one module; as many tiny modules as compact-handoff's hooks folder holds; one
 * module as large as that folder; that folder's own import graph with every body emptied,
 * module-graph.ts), and the stages of the start read from the debug log's
 * time stamps: the hooks worker spawned, the mods' modules loaded in it, `session.start`
 * raised, and the mods' `session.start` hooks settled.
 */
import { join } from 'node:path'
import { escapeRe } from '../escape-re.js'
import { repoRoot } from '../repo-root.js'
import type { RunDir } from '../run-dir.js'
import { writeMod } from '../staging.js'
import { modulesUnder } from '../../support/hooks-tree.js'
import { emptiedGraphFiles, moduleGraphOf } from './module-graph.js'

/** The start variants: nothing loaded, a do-nothing mod several ways, and the two mods with the skill pack, as shipped and each as one generated module. */
export const ALL_START_VARIANTS = ['bare', 'trivial', 'manyModules', 'bigModule', 'sameGraph', 'sameGraphBeside', 'bundled', 'flatMods', 'mods'] as const
export type StartVariant = (typeof ALL_START_VARIANTS)[number]

/** `--start-variants a,b,…` runs those alone (in this order), for a quicker same-run comparison. */
function chosenVariants(): readonly StartVariant[] {
  const at = process.argv.indexOf('--start-variants')
  if (at < 0) return ALL_START_VARIANTS
  const named = (process.argv[at + 1] ?? '').split(',')
  const unknown = named.filter((v) => !(ALL_START_VARIANTS as readonly string[]).includes(v))
  if (unknown.length > 0) throw new Error(`bench: no start variant ${unknown.join(', ')} (known: ${ALL_START_VARIANTS.join(', ')})`)
  return ALL_START_VARIANTS.filter((v) => named.includes(v))
}
export const START_VARIANTS: readonly StartVariant[] = chosenVariants()

export const START_VARIANT_LABELS: Readonly<Record<StartVariant, string>> = {
  bare: 'nothing loaded',
  trivial: 'a do-nothing mod (one module)',
  manyModules: "a do-nothing mod in as many modules as compact-handoff's",
  bigModule: "a do-nothing mod in one module as large as compact-handoff's",
  sameGraph: "a do-nothing mod with compact-handoff's import graph (its files and imports, every body emptied)",
  sameGraphBeside: 'that emptied graph in place of compact-handoff, beside the answer mod and the skill pack',
  bundled: 'the two mods and the skill pack, each mod as one module generated from its sources (not shipped: docs/measured.md)',
  flatMods: "the two mods and the skill pack, compact-handoff's register.ts also importing every module it reaches (the walk one level deep; not shipped)",
  mods: 'the two mods and the skill pack',
}

/** The stages of one start, in ms from the launch; absent where the variant has no mod. */
export interface StartStages {
  box: number
  ready: number
  /** The session's screen mounted: its own start-up work, which the engine's walk of a mod's imports shares the main thread with. */
  mounted?: number
  spawned?: number
  loaded?: number
  raised?: number
  settled?: number
}

const HOOKS_DIR = join('packages', 'compact-handoff', 'hooks')

/** compact-handoff's hooks tree: how many modules, and their bytes in all. */
export function handoffModules(): { count: number; bytes: number } {
  const modules = modulesUnder(join(repoRoot(), HOOKS_DIR))
  return { count: modules.length, bytes: modules.reduce((n, m) => n + Buffer.byteLength(m.text, 'utf8'), 0) }
}

const REGISTER_HEAD = "import type { Register } from 'claude-code'\n"
/** One session.start hook that only passes the event on: the least a mod can hook. */
const PASS_START = "  on('session.start', ($, e, next) => next(e))\n"

/** Writes the do-nothing mod of `variant` into the run's plugins/ folder; returns its folder. */
export function writeTrivialMod(run: RunDir, variant: Exclude<StartVariant, 'bare' | 'mods' | 'bundled' | 'flatMods'>): string {
  const { count, bytes } = handoffModules()
  const name = `bench-${variant.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
  if (variant === 'trivial') return writeMod(run, name, { 'hooks/register.ts': `${REGISTER_HEAD}export const register: Register = (on) => {\n${PASS_START}}\n` })
  if (variant === 'sameGraph' || variant === 'sameGraphBeside') return writeMod(run, name, emptiedGraphFiles(moduleGraphOf(join(repoRoot(), HOOKS_DIR)), `export const register: Register = (on) => {\n${PASS_START}}\n`))
  if (variant === 'manyModules') {
    const files: Record<string, string> = {}
    const others = Array.from({ length: count - 1 }, (_, i) => `part${i}`)
    for (const [i, part] of others.entries()) files[`hooks/${part}.ts`] = `export function ${part}(x: number): number {\n  return x + ${i}\n}\n`
    const imports = others.map((part) => `import { ${part} } from './${part}.js'\n`).join('')
    files['hooks/register.ts'] = `${REGISTER_HEAD}${imports}const PARTS = [${others.join(', ')}]\nexport const register: Register = (on) => {\n${PASS_START}  void PARTS\n}\n`
    return writeMod(run, name, files)
  }
  // As many bytes of plain functions as the hooks folder holds, in one file.
  const lines: string[] = [REGISTER_HEAD]
  let size = Buffer.byteLength(REGISTER_HEAD)
  for (let i = 0; size < bytes; i++) {
    const fn = `/** Part ${i} of the bench's large module, padded like documented code. */\nexport function part${i}(value: number, label: string): string {\n  return \`\${label}-\${value + ${i}}\`\n}\n`
    lines.push(fn)
    size += Buffer.byteLength(fn)
  }
  lines.push(`export const register: Register = (on) => {\n${PASS_START}}\n`)
  return writeMod(run, name, { 'hooks/register.ts': lines.join('') })
}

/** A debug-log line's time, ms since the epoch. */
function timeOf(log: string, re: RegExp): number | undefined {
  const found = re.exec(log)
  return found === null ? undefined : Date.parse(found[1] ?? '')
}

/** The latest of one line per mod ("hooks module <ids> <what>"); undefined unless every mod has one. */
function lastOf(log: string, modIds: readonly string[], what: string): number | undefined {
  const times = modIds.map((id) => timeOf(log, new RegExp(`^(\\S+Z) \\[DEBUG\\] hooks module (?:[^\\n]*, )?${escapeRe(id)}(?:, [^\\n]*)? ${what}`, 'm')))
  return modIds.length === 0 || times.some((t) => t === undefined) ? undefined : Math.max(...(times as number[]))
}

/** The mods among `modIds` whose "loaded" line lists session.start among their events. */
function startHookedOf(log: string, modIds: readonly string[]): string[] {
  return modIds.filter((id) => new RegExp(`hooks module ${escapeRe(id)} loaded .*; events: (?:.*,)?session\\.start(?:,|$)`, 'm').test(log))
}

/**
 * The start's stages from its debug log, in ms from `launchedAtMs` (wall clock);
 * `modIds` are the user mods (`<name>@inline`), loaded in the hooks worker.
 */
export function startStagesOf(log: string, launchedAtMs: number, modIds: readonly string[]): Omit<StartStages, 'box' | 'ready'> {
  const since = (t: number | undefined): number | undefined => (t === undefined ? undefined : t - launchedAtMs)
  const mounted = since(timeOf(log, /^(\S+Z) \[DEBUG\] \[REPL:mount\] REPL mounted/m))
  if (modIds.length === 0) return mounted === undefined ? {} : { mounted }
  const startHooked = startHookedOf(log, modIds)
  const stages = {
    mounted,
    spawned: since(timeOf(log, /^(\S+Z) \[DEBUG\] hooks worker spawned/m)),
    loaded: since(lastOf(log, modIds, 'loaded ')),
    raised: since(timeOf(log, /^(\S+Z) \[DEBUG\] session\.start: raised/m)),
    settled: since(lastOf(log, startHooked, 'session\\.start settled')),
  }
  return Object.fromEntries(Object.entries(stages).filter(([, v]) => v !== undefined))
}
