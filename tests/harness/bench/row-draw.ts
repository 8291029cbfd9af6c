/**
 * The stub row's cost to a typed prompt: a `ui.render` hook the engine sends a row to is
 * a worker hop before the row is drawn (a new row is blank until its first answer), and
 * compact-handoff's literal matcher on the row's origin is meant to keep every typed row
 * from it. The time from Enter to the typed prompt's row on screen is measured with the
 * plugins as shipped and with a staged copy of compact-handoff whose register.ts leaves
 * the hook out, both sessions open at once and their prompts alternated.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { startMockApi, type MockApi } from '../mock-api.js'
import { createRunDir, type RunDir } from '../run-dir.js'
import { pluginDirs, runRoot } from '../showcase-kit.js'
import { stageCopy } from '../staging.js'
import { startSession, type Session } from '../tmux-session.js'
import { done, log } from './options.js'

export type RowVariant = 'with-hook' | 'without-hook'
export const ROW_VARIANTS: readonly RowVariant[] = ['with-hook', 'without-hook']

/** Prompts typed per session; the first row after the start is left out (its hooks warm up). */
export const ROW_PROMPTS = 11
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

type OpenRow = { variant: RowVariant; run: RunDir; mock: MockApi; session: Session }

async function openRow(variant: RowVariant): Promise<OpenRow> {
  const run = createRunDir(`bench-row-${variant}`, runRoot())
  const mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl'), timeLimitMs: 10 * 60_000 })
  const [handoff, ...rest] = pluginDirs()
  const plugins = variant === 'with-hook' ? [handoff!, ...rest] : [withoutRowHook(run), ...rest]
  const session = await startSession({ run, plugins, mock })
  await session.waitForReady()
  return { variant, run, mock, session }
}

/** One prompt typed into `open`'s session; waits for its turn's end so rows never queue. */
async function onePrompt(open: OpenRow, text: string): Promise<number> {
  const mark = open.session.logMark()
  const ms = await rowDrawnMs(open.session, text)
  await open.session.waitForScreen(new RegExp(`${text}[\\s\\S]*OK \\(mock default reply\\)`), 30_000)
  await open.session.waitForHookSettled('compact-handoff@inline', 'turn.complete', { since: mark, timeoutMs: 30_000 })
  log(`row ${open.variant} ${text}: ${ms.toFixed(0)} ms`)
  return ms
}

/**
 * Enter to row, in ms, for each prompt but each session's first (its hooks warm up):
 * both variants' sessions open at once and the prompts alternate between them, the
 * order turned each time, so a load that comes and goes falls on both alike.
 */
export async function rowDrawTimes(round: number): Promise<Record<RowVariant, number[]>> {
  const opened: OpenRow[] = []
  const times: Record<RowVariant, number[]> = { 'with-hook': [], 'without-hook': [] }
  try {
    for (let i = 0; i < ROW_VARIANTS.length; i++) opened.push(await openRow(ROW_VARIANTS[(i + round) % ROW_VARIANTS.length]!))
    for (let p = 0; p < ROW_PROMPTS; p++) {
      for (let i = 0; i < opened.length; i++) {
        const open = opened[(i + p) % opened.length]!
        const ms = await onePrompt(open, `row bench ${round}-${p} ${open.variant}`)
        if (p > 0) times[open.variant].push(ms)
      }
    }
    for (const open of opened) {
      await open.session.stop()
      done(open.run.dir)
    }
    return times
  } catch (error) {
    for (const open of opened) await open.session.stop()
    throw new Error(`row bench failed (run dirs kept: ${opened.map((o) => o.run.dir).join(', ')}): ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    for (const open of opened) await open.mock.close()
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
