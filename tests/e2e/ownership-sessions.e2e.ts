/**
 * Two sessions at once in one project, each of whose models writes 15 handoffs in one
 * step (parallel tool calls, as a model makes them): every Write is recorded as the
 * person's own in the mod's store, which both sessions share. A record one session sets
 * must never drop the other's: all 30 are kept, three times in a row (a fresh project
 * and store each time).
 */
import { readdirSync, readFileSync, type Dirent } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { handoffFileText, handoffRelPath } from '../harness/handoff-script.js'
import { startMockApi } from '../harness/mock-api.js'
import { createRunDir, type RunDir } from '../harness/run-dir.js'
import { startSession, type Session } from '../harness/tmux-session.js'
import { trackRuns } from './lifecycle.js'
import { carriesToolResult } from '../harness/request-messages.js'
import { ANSWER_MOD, HANDOFF_MOD, PLUGIN_DIRS, turnSettled } from './flow-support.js'

const WRITES_PER_SESSION = 15
const ROUNDS = 3

/** Every JSON file under `dir` (the run's HOME: the mod's store is one of them). The
 * engine's own lock entries (`.claude.json.lock`) come and go while the sessions run,
 * so an entry gone between the listing and the look is skipped, not an error. */
function jsonFilesUnder(dir: string): string[] {
  let entries: Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'projects' ? [] : jsonFilesUnder(path)
    return entry.name.endsWith('.json') ? [path] : []
  })
}

function isRecord(value: unknown): value is { key: string; sha256: string } {
  return typeof value === 'object' && value !== null && typeof (value as { key?: unknown }).key === 'string' && typeof (value as { sha256?: unknown }).sha256 === 'string'
}

/** The files the store's ownership records name, whatever its layout: a list of
 * records under one key, or a record per key. */
function recordedFiles(home: string): Set<string> {
  const files = new Set<string>()
  for (const path of jsonFilesUnder(home)) {
    let stored: unknown
    try {
      stored = JSON.parse(readFileSync(path, 'utf8'))
    } catch {
      continue
    }
    if (typeof stored !== 'object' || stored === null) continue
    for (const value of Object.values(stored)) {
      for (const record of Array.isArray(value) ? value : [value]) if (isRecord(record)) files.add(record.key)
    }
  }
  return files
}

/** One session in `run`'s project with its own mock, ready. */
async function sessionIn(run: RunDir, track: (run: RunDir, session?: Session) => void) {
  const mock = await startMockApi({ logFile: join(run.dir, `mock-${Date.now()}.jsonl`) })
  const session = await startSession({ run, plugins: [PLUGIN_DIRS.handoff, PLUGIN_DIRS.answer, PLUGIN_DIRS.skills], mock })
  track(run, session)
  return { mock, session }
}

describe(`two sessions at once in one project, ${WRITES_PER_SESSION} handoffs each`, () => {
  const { track } = trackRuns()

  for (let round = 1; round <= ROUNDS; round++) {
    it(`keep all ${2 * WRITES_PER_SESSION} ownership records (round ${round} of ${ROUNDS})`, { timeout: 300_000 }, async () => {
      const run = createRunDir(`ownership-sessions-${round}`)
      track(run)
      const sides = await Promise.all(['a', 'b'].map(async (side) => ({ side, ...(await sessionIn(run, track)) })))
      await Promise.all(sides.map((s) => s.session.waitForReady({ mods: [HANDOFF_MOD, ANSWER_MOD] })))
      const paths = sides.flatMap(({ side }) => Array.from({ length: WRITES_PER_SESSION }, (_, i) => join(run.proj, handoffRelPath({ slug: `side-${side}-${i + 1}` }, 'plans/handoffs'))))
      for (const { side, mock } of sides) {
        const toolUses = Array.from({ length: WRITES_PER_SESSION }, (_, i) => ({
          id: `toolu_write_${side}_${i + 1}`,
          name: 'Write',
          input: { file_path: join(run.proj, handoffRelPath({ slug: `side-${side}-${i + 1}` }, 'plans/handoffs')), content: handoffFileText({ slug: `side-${side}-${i + 1}`, focus: `work ${side} ${i + 1}` }) },
        }))
        const lastId = toolUses.at(-1)!.id
        mock.script({ when: `write handoffs ${side}`, toolUses }, { when: (r) => carriesToolResult(r, lastId), text: `WROTE-${side}` })
      }
      const marks = sides.map((s) => s.session.logMark())
      // Typed into both before either turn ends, so their writes overlap.
      await Promise.all(sides.map((s) => s.session.type(`write handoffs ${s.side}`)))
      await Promise.all(sides.map((s, i) => s.session.waitForScreen(new RegExp(`WROTE-${s.side}`), 120_000).then(() => turnSettled(s.session, marks[i]!, 60_000))))
      // Each Write's record is set by the tool.call hook, settled before the next request goes out.
      const recorded = recordedFiles(run.home)
      const missing = paths.filter((p) => !recorded.has(p))
      console.log(`e2e ownership-sessions round ${round}: ${paths.length - missing.length} of ${paths.length} records kept`)
      expect(missing, 'records lost between the two sessions').toEqual([])
      for (const s of sides) {
        await s.session.stop()
        await s.mock.close()
      }
    })
  }
})
