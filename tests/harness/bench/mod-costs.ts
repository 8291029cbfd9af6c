/**
 * What the mods cost: time to ready with and without the plugins (and with the do-nothing
 * mods of start-stages.ts), and wall time per tool call (from the mock's request arrival
 * times) with and without them.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { startMockApi, type ScriptedReply } from '../mock-api.js'
import { carriesToolResult } from '../request-messages.js'
import { createRunDir, type RunDir } from '../run-dir.js'
import { pluginDirs, runRoot, stampArrivals, TIMING_POLL_MS } from '../showcase-kit.js'
import { BUNDLE_FILE, BUNDLED_MODS, bundleOf } from '../bundle.js'
import { repoRoot } from '../repo-root.js'
import { stageCopy } from '../staging.js'
import { startSession, type Session } from '../tmux-session.js'
import { done, log, START_RUNS } from './options.js'
import { moduleGraphOf, withEveryModuleImported } from './module-graph.js'
import { START_VARIANTS, startStagesOf, writeTrivialMod, type StartStages, type StartVariant } from './start-stages.js'

/** Write tool calls per session in the per-call measurement, and sessions per variant. */
export const PLAIN_WRITES = 20
export const HANDOFF_PATH_WRITES = 10
export const WRITE_SESSIONS = 2
/** Edit, Read and Bash calls per session, on the files the plain Writes made. */
export const OTHER_CALLS = 10

export type CallKind = 'plain' | 'handoffPath' | 'edit' | 'read' | 'bash'
export type CallTimes = Record<CallKind, number[]>
export const CALL_KINDS: readonly CallKind[] = ['plain', 'handoffPath', 'edit', 'read', 'bash']

export function noCallTimes(): CallTimes {
  return { plain: [], handoffPath: [], edit: [], read: [], bash: [] }
}

/** Plugins staged once per run dir; later launches reuse the staged copies. */
function stagedPlugins(run: RunDir, withMods: boolean): string[] {
  return withMods ? pluginDirs().map((d) => join(run.plugins, basename(d))) : []
}

/** The answer mod and the skill pack: everything the mods variant loads but compact-handoff. */
function partnerDirs(dirs: readonly string[]): string[] {
  return dirs.filter((d) => basename(d) !== 'compact-handoff')
}

/** Each variant's starts (start-stages.ts), START_RUNS of them. */
export type StartTimes = Record<StartVariant, StartStages[]>

/** The plugins staged into `run`, each mod's hooks.json naming the one module bundle.ts generates from its sources. */
function bundledPlugins(run: RunDir): string[] {
  return pluginDirs().map((d) => {
    const staged = stageCopy(d, join(run.plugins, basename(d)))
    if ((BUNDLED_MODS as readonly string[]).some((mod) => join(repoRoot(), mod) === d)) {
      writeFileSync(join(staged, 'hooks', BUNDLE_FILE), bundleOf(join(d, 'hooks')))
      writeFileSync(join(staged, 'hooks', 'hooks.json'), JSON.stringify({ modules: [`./${BUNDLE_FILE}`] }))
    }
    return staged
  })
}

/** The plugins staged into `run`, compact-handoff's register.ts importing every module it reaches (module-graph.ts). */
function flatPlugins(run: RunDir): string[] {
  return pluginDirs().map((d) => {
    const staged = stageCopy(d, join(run.plugins, basename(d)))
    if (basename(d) === 'compact-handoff') {
      const register = join(staged, 'hooks', 'register.ts')
      writeFileSync(register, withEveryModuleImported(readFileSync(register, 'utf8'), moduleGraphOf(join(d, 'hooks'))))
    }
    return staged
  })
}

/** A start variant's plugin folders: the do-nothing mods are written into their run once. */
function variantPlugins(run: RunDir, variant: StartVariant): string[] {
  if (variant === 'bare') return []
  if (variant === 'mods') return pluginDirs()
  if (variant === 'bundled') return bundledPlugins(run)
  if (variant === 'flatMods') return flatPlugins(run)
  const mod = writeTrivialMod(run, variant)
  return variant === 'sameGraphBeside' ? [mod, ...partnerDirs(pluginDirs())] : [mod]
}

export async function startTimes(): Promise<StartTimes> {
  const runs = Object.fromEntries(START_VARIANTS.map((v) => [v, createRunDir(`bench-start-${v}`, runRoot())])) as Record<StartVariant, RunDir>
  const times = Object.fromEntries(START_VARIANTS.map((v) => [v, []])) as unknown as StartTimes
  // Launch 0 of each is a warm-up (the engine writes types into a mod folder on its first load).
  const firstPlugins = Object.fromEntries(START_VARIANTS.map((v) => [v, variantPlugins(runs[v], v)])) as Record<StartVariant, string[]>
  for (let i = 0; i <= START_RUNS; i++) {
    for (const variant of START_VARIANTS) {
      const run = runs[variant]
      // Later launches load the copies the first one staged (do-nothing mods are written in place).
      const plugins =
        i === 0 || (variant !== 'mods' && variant !== 'sameGraphBeside')
          ? firstPlugins[variant]
          : variant === 'mods'
            ? stagedPlugins(run, true)
            : [firstPlugins[variant][0]!, ...partnerDirs(stagedPlugins(run, true))]
      const launchedAtMs = Date.now()
      const t0 = performance.now()
      const session = await startSession({ run, plugins })
      try {
        const { box, ready } = await session.readyAt({ everyMs: TIMING_POLL_MS })
        if (i > 0) times[variant].push({ box: box - t0, ready: ready - t0, ...startStagesOf(session.debugLog(), launchedAtMs, session.modIds) })
      } finally {
        await session.stop()
      }
    }
  }
  for (const variant of START_VARIANTS) {
    log(`start ${variant}: ${times[variant].map((s) => `${Math.round(s.box)}/${Math.round(s.ready)}`).join(' ')} (prompt box/ready)`)
    done(runs[variant].dir)
  }
  return times
}

function toolUseOf(kind: CallKind, i: number, proj: string): { name: string; input: Record<string, unknown> } {
  // The Edit, Read and Bash calls work on the files the plain Writes (same i) made first.
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

const WRITE_PROMPT = 'Write the generated files'
const WRITE_DONE = 'All files written.'

/** Every timed call as one chained turn: each reply answers the previous call's result. */
function callScript(proj: string): { kinds: CallKind[]; ids: string[]; replies: ScriptedReply[] } {
  const counts: Record<CallKind, number> = { plain: PLAIN_WRITES, handoffPath: HANDOFF_PATH_WRITES, edit: OTHER_CALLS, read: OTHER_CALLS, bash: OTHER_CALLS }
  const targets = CALL_KINDS.flatMap((kind) => Array.from({ length: counts[kind] }, (_, i) => ({ kind, ...toolUseOf(kind, i, proj) })))
  const ids = targets.map((_, i) => `toolu_bench_write_${i}`)
  const replies: ScriptedReply[] = targets.map((t, i) => {
    const prev = ids[i - 1]
    return { when: prev === undefined ? WRITE_PROMPT : (q) => carriesToolResult(q, prev), toolUses: [{ id: ids[i]!, name: t.name, input: t.input }] }
  })
  const lastId = ids.at(-1)!
  replies.push({ when: (q) => carriesToolResult(q, lastId), text: WRITE_DONE })
  return { kinds: targets.map((t) => t.kind), ids, replies }
}

export async function writeTimes(withMods: boolean): Promise<CallTimes> {
  const run = createRunDir(`bench-write-${withMods ? 'mods' : 'bare'}`, runRoot())
  const mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl'), timeLimitMs: 5 * 60_000 })
  const at = stampArrivals(mock)
  const out = noCallTimes()
  let session: Session | undefined
  try {
    session = await startSession({ run, plugins: withMods ? pluginDirs() : [], mock })
    await session.waitForReady()
    const { kinds, ids, replies } = callScript(run.proj)
    mock.script(...replies)
    await session.type(WRITE_PROMPT)
    await session.waitForScreen(/All files written/, 90_000)
    for (const [i, kind] of kinds.entries()) {
      const asked = mock.requests.find((r) => (i === 0 ? r.lastUserText.includes(WRITE_PROMPT) : carriesToolResult(r, ids[i - 1]!)))
      const answered = mock.requests.find((r) => carriesToolResult(r, ids[i]!))
      if (asked === undefined || answered === undefined) throw new Error(`write ${i}: requests not found`)
      out[kind].push((at.get(answered) ?? NaN) - (at.get(asked) ?? NaN))
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
