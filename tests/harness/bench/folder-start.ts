/**
 * What a full handoff folder costs a session's start: the start-of-session offer of an own
 * handoff (written by the model's Write in a first session), timed from the launch to the
 * offer's toast, with the other handoff folder empty and with FOLDER_FILES handoffs in it.
 * The offer decides from the mod's own records, so the folder's size should not show.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { handoffFileText } from '../handoff-script.js'
import { startMockApi } from '../mock-api.js'
import { carriesToolResult } from '../request-messages.js'
import { createRunDir } from '../run-dir.js'
import { pluginDirs, runRoot, TIMING_POLL_MS } from '../showcase-kit.js'
import { startSession, type Session } from '../tmux-session.js'
import { done, log } from './options.js'

export const FOLDER_FILES = 10_000
/** Timed pairs of starts (empty, full): few, so the bench stays short. */
export const FOLDER_PAIRS = 2

export interface FolderStartTimes {
  /** Launch to the offer's toast, in ms, with the other handoff folder empty or full. */
  empty: number[]
  full: number[]
  /** The offer's own part: compact-handoff's session.start settled to the toast. */
  offerEmpty: number[]
  offerFull: number[]
}

const OWN = '.claude/handoffs/HANDOFF_bench-own_2026-01-01.md'
const WRITE_ID = 'toolu_bench_own_handoff'
/** The offer's toast in the debug log, with the line's time. */
const OFFER_LINE_RE = /^(\S+Z) \[DEBUG\] \$\.ui\.toast \(compact-handoff[^)]*\): \/compact-handoff resume picks up your handoff of /m

/** FOLDER_FILES handoffs with work left, each a frontmatter and a line: what a crowded folder holds. */
function fillFolder(dir: string): void {
  mkdirSync(dir, { recursive: true })
  for (let i = 0; i < FOLDER_FILES; i++) {
    writeFileSync(join(dir, `HANDOFF_filler-${i}_2026-01-01.md`), `---\nkind: handoff\nstatus: in-progress\n---\n# Filler ${i}\n`)
  }
}

/** compact-handoff's session.start settled, with the line's time: the offer's timer is set then. */
const STARTED_LINE_RE = /^(\S+Z) \[DEBUG\] hooks module [^\n]*compact-handoff@inline[^\n]* session\.start settled/m

/** Launch to the offer's toast, and the offer's own part: from the settled session.start to the toast. */
async function offerShownMs(session: Session, launchedAtMs: number): Promise<{ shown: number; offer: number }> {
  await session.readyAt({ everyMs: TIMING_POLL_MS })
  const toast = await session.waitForDebugLog(OFFER_LINE_RE, { timeoutMs: 30_000 })
  const started = session.debugLog().match(STARTED_LINE_RE)
  const toastMs = Date.parse(toast[1] ?? '')
  return { shown: toastMs - launchedAtMs, offer: toastMs - Date.parse(started?.[1] ?? '') }
}

export async function folderStartTimes(): Promise<FolderStartTimes> {
  const run = createRunDir('bench-start-folder', runRoot())
  const mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl'), timeLimitMs: 5 * 60_000 })
  const times: FolderStartTimes = { empty: [], full: [], offerEmpty: [], offerFull: [] }
  const full = join(run.proj, 'plans', 'handoffs')
  const away = join(run.proj, 'plans', 'handoffs-away')
  let session: Session | undefined
  try {
    session = await startSession({ run, plugins: pluginDirs(), mock })
    await session.waitForReady()
    mock.script(
      { when: 'Write the handoff', toolUses: [{ id: WRITE_ID, name: 'Write', input: { file_path: join(run.proj, OWN), content: handoffFileText({ slug: 'bench-own', date: '2026-01-01' }) } }] },
      { when: (q) => carriesToolResult(q, WRITE_ID), text: 'Handoff written.' },
    )
    await session.type('Write the handoff')
    await session.waitForScreen(/Handoff written\./, 60_000)
    await session.stop()
    fillFolder(away)
    const staged = pluginDirs().map((d) => join(run.plugins, basename(d)))
    // The first session already warmed the engine up (it writes types into a mod folder on its first load).
    for (let i = 0; i < FOLDER_PAIRS; i++) {
      for (const variant of ['empty', 'full'] as const) {
        // The filler lives beside the folder and is renamed in for the full variant only.
        if (variant === 'full') renameSync(away, full)
        const launchedAtMs = Date.now()
        session = await startSession({ run, plugins: staged, mock })
        const { shown, offer } = await offerShownMs(session, launchedAtMs)
        times[variant].push(shown)
        times[variant === 'full' ? 'offerFull' : 'offerEmpty'].push(offer)
        await session.stop()
        if (variant === 'full') renameSync(full, away)
      }
    }
    log(`start with a handoff folder: empty ${times.empty.join(' ')} (offer ${times.offerEmpty.join(' ')}); ${FOLDER_FILES} files ${times.full.join(' ')} (offer ${times.offerFull.join(' ')})`)
    done(run.dir)
    return times
  } catch (error) {
    await session?.stop()
    throw new Error(`folder start bench failed (run dir kept: ${run.dir}): ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    await mock.close()
  }
}
