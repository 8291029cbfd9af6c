/**
 * The stub row's cost to a typed prompt: a `ui.render` hook the engine sends a row to is
 * a worker hop before the row is drawn (a new row is blank until its first answer), and
 * compact-handoff's literal matcher on the row's origin is meant to keep every typed row
 * from it. The time from Enter to the typed prompt's row on screen is measured with the
 * plugins as shipped and with a staged copy of compact-handoff whose register.ts leaves
 * the hook out, sessions interleaved.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { startMockApi } from '../mock-api.js'
import { createRunDir, type RunDir } from '../run-dir.js'
import { pluginDirs, runRoot } from '../showcase-kit.js'
import { stageCopy } from '../staging.js'
import { startSession, type Session } from '../tmux-session.js'
import { done, log } from './options.js'

export type RowVariant = 'with-hook' | 'without-hook'
export const ROW_VARIANTS: readonly RowVariant[] = ['with-hook', 'without-hook']

/** Prompts typed per session; the first row after the start is left out (its hooks warm up). */
export const ROW_PROMPTS = 6
/** Finer than a frame, so a one-frame difference shows. */
const ROW_POLL_MS = 5
const HOOK_START = "  on('ui.render', { component: 'UserMessage'"
const HOOK_END = '}).catch(($, e, next) => next(e)) // fail open: a broken hook draws the row as it is\n'

/** A staged compact-handoff whose register.ts has no ui.render hook. */
function withoutRowHook(run: RunDir): string {
  const dir = stageCopy(pluginDirs()[0]!, join(run.plugins, 'compact-handoff'))
  const file = join(dir, 'hooks', 'register.ts')
  const text = readFileSync(file, 'utf8')
  const start = text.indexOf(HOOK_START)
  const end = text.indexOf(HOOK_END, start)
  if (start < 0 || end < 0) throw new Error('row bench: the ui.render hook was not found in register.ts')
  writeFileSync(file, text.slice(0, start) + text.slice(end + HOOK_END.length))
  return dir
}

/** The typed row is drawn: "❯ <text>" stands above an empty prompt box (the row's glyph takes a plain space, the box's a no-break space). */
function isRowDrawn(screen: string, text: string): boolean {
  const at = screen.lastIndexOf('❯\u00a0')
  return at >= 0 && screen.slice(0, at).includes(`❯ ${text}`) && screen.slice(at + 2).split('\n', 1)[0]!.trim() === ''
}

async function rowDrawnMs(session: Session, text: string): Promise<number> {
  session.tmux('send-keys', '-t', 'cc', '-l', text)
  const sent = performance.now()
  session.pressKeys('Enter')
  for (;;) {
    if (isRowDrawn(session.screen(), text)) return performance.now() - sent
    if (performance.now() - sent > 30_000) throw new Error(`row bench: "${text}" was not drawn in 30 s`)
    await new Promise((resolve) => setTimeout(resolve, ROW_POLL_MS))
  }
}

/** Enter to row, in ms, for each prompt but the first of one session of `variant`. */
export async function rowDrawTimes(variant: RowVariant, n: number): Promise<number[]> {
  const run = createRunDir(`bench-row-${variant}`, runRoot())
  const mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl'), timeLimitMs: 5 * 60_000 })
  let session: Session | undefined
  try {
    const [handoff, ...rest] = pluginDirs()
    const plugins = variant === 'with-hook' ? [handoff!, ...rest] : [withoutRowHook(run), ...rest]
    session = await startSession({ run, plugins, mock })
    await session.waitForReady()
    const times: number[] = []
    for (let i = 0; i < ROW_PROMPTS; i++) {
      const text = `row bench ${n}-${i}`
      const mark = session.logMark()
      const ms = await rowDrawnMs(session, text)
      await session.waitForScreen(/OK \(mock default reply\)/, 30_000)
      // The answer is drawn; the next prompt waits for the turn's end so rows never queue.
      await session.waitForHookSettled('compact-handoff@inline', 'turn.complete', { since: mark, timeoutMs: 30_000 })
      if (i > 0) times.push(ms)
      log(`row ${variant} ${text}: ${ms.toFixed(0)} ms`)
    }
    await session.stop()
    done(run.dir)
    return times
  } catch (error) {
    await session?.stop()
    throw new Error(`row bench failed (run dir kept: ${run.dir}): ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    await mock.close()
  }
}

/** The median and the spread of each variant, a markdown table. */
export function rowTable(times: Record<RowVariant, number[]>): string[] {
  const stats = (xs: number[]): string => {
    const sorted = [...xs].sort((a, b) => a - b)
    const median = sorted[Math.floor(sorted.length / 2)] ?? NaN
    return `${median.toFixed(0)} ms | ${(sorted[0] ?? NaN).toFixed(0)}–${(sorted.at(-1) ?? NaN).toFixed(0)} ms | ${sorted.length}`
  }
  return [
    "| A typed prompt's row, Enter to drawn | median | range | prompts |",
    '| --- | --- | --- | --- |',
    `| compact-handoff with its ui.render hook | ${stats(times['with-hook'])} |`,
    `| the same without the hook | ${stats(times['without-hook'])} |`,
  ]
}
