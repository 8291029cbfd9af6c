/**
 * A full disk in real sessions, the project a small tmpfs (mounted here, so the suite
 * runs these as root, and skips them otherwise):
 * - the engine's `$.fs.write` truncates a file and then writes it, and on a full disk
 *   stops at the last block it got: a swap-log append cuts the log's new line short.
 *   The cut line is dropped when the log is read: the session logs on once there is room,
 *   and the status report never calls its own log "no swap log";
 * - a fork's handoff that cannot be written leaves no file behind (neither the handoff
 *   nor a log the failed write created), and the person is told what happened.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { failedSkillTurn, isSkillTurnFor } from '../harness/handoff-script.js'
import { AUTO_COMPACT_INPUT_TOKENS, forkReply, forkReplyText, isForkRequest } from '../harness/fork-script.js'
import { pollUntil } from '../harness/poll.js'
import type { RunDir } from '../harness/run-dir.js'
import { swapLogFiles } from '../harness/swap-logs.js'
import { trackRuns } from './lifecycle.js'
import { ordinaryTurn, startFlow, type Flow } from './flow-support.js'

/** The project's size: a few of tmpfs's 4096-byte blocks beyond what a session puts there. */
const TMPFS_SIZE = '256k'
const FILLER = 'filler.bin'

/** The project folder made a tmpfs of TMPFS_SIZE before the session starts in it. */
function onTmpfs(run: RunDir): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE}`, 'tmpfs', run.proj])
}

/** Fills what is left of the project's disk (a write larger than the disk stops, ENOSPC, once it is full). */
function fillDisk(proj: string): void {
  expect(() => writeFileSync(join(proj, FILLER), Buffer.alloc(1024 * 1024, 'x'))).toThrow(/ENOSPC/)
}

/** Stops the session, then unmounts the project (lazily: a shell may still hold it) so the run dir can go. */
async function unmount(flow: Flow): Promise<void> {
  await flow.session.stop()
  execFileSync('umount', ['-l', flow.run.proj])
}

async function failedRun(flow: Flow, reason: string): Promise<void> {
  const { session, mock } = flow
  const mark = session.logMark()
  const before = mock.requests.length
  mock.script(failedSkillTurn(reason))
  await session.type(`/compact-handoff ${reason}`)
  await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, reason), 60_000)
  await session.waitForToast(/^handoff run stopped; the conversation is unchanged$/, { mod: 'compact-handoff', since: mark, timeoutMs: 60_000 })
}

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`]))
}

const isRoot = process.getuid?.() === 0

describe.skipIf(!isRoot)('a swap-log append on a full disk', () => {
  const { track } = trackRuns()

  it('cuts its line short; the log keeps its whole lines, the session logs on once there is room, and the report calls it a log', { timeout: 300_000 }, async () => {
    const flow = await startFlow('full-disk-log', track, { prepare: onTmpfs })
    try {
      const { run, session } = flow
      await ordinaryTurn(flow, 'FULL-ONE')
      await failedRun(flow, 'before-full')
      const log = await pollUntil("this session's log", 15_000, () => swapLogFiles(run.proj)[0])
      // Whole lines up to just under one block, so the next line needs a second block, which a full disk does not have.
      const line = readFileSync(log, 'utf8')
      let whole = line
      while (whole.length + line.length < 4_096) whole += line
      writeFileSync(log, whole)
      fillDisk(run.proj)

      const mark = session.logMark()
      await failedRun(flow, 'on-full-disk')
      await session.waitForDebugLog(/\$\.fs\.write \(compact-handoff\): [^\n]*swap-log[^\n]* failed: ENOSPC/, { since: mark, timeoutMs: 15_000 })
      const cut = readFileSync(log, 'utf8')
      expect(statSync(log).size, 'the engine wrote the new text up to the block it had').toBe(4_096)
      expect(cut.startsWith(whole) && !cut.endsWith('\n'), 'the whole lines, then the new one cut short').toBe(true)

      rmSync(join(run.proj, FILLER))
      await failedRun(flow, 'after-room')
      const lines = await pollUntil('the next line logged', 15_000, () => {
        const now = readFileSync(log, 'utf8')
        return now.includes('after-room') ? now : undefined
      })
      expect(lines.endsWith('\n'), 'the log ends in a whole line').toBe(true)
      const reasons = lines.trimEnd().split('\n').map((l) => (JSON.parse(l) as { reason?: string }).reason)
      expect(reasons.at(-1)).toBe('the handoff skill reported failure: after-room')
      expect(reasons.slice(0, -1).every((r) => r === 'the handoff skill reported failure: before-full'), 'the whole lines kept, the cut one gone').toBe(true)

      await session.type('/compact-handoff status')
      const screen = await session.waitForScreen(/Swap log, newest last \(as its files say\):\n.*aborted: “the handoff skill reported failure: /, 30_000)
      expect(screen).not.toContain('No swap log')
    } finally {
      await unmount(flow)
    }
  })
})

describe.skipIf(!isRoot)("a fork's handoff on a full disk", () => {
  const { track } = trackRuns()

  it('leaves no file behind, and the person is told the write failed', { timeout: 300_000 }, async () => {
    const flow = await startFlow('full-disk-fork', track, { prepare: onTmpfs })
    try {
      const { run, session, mock } = flow
      await ordinaryTurn(flow, 'FORK-ONE')
      await ordinaryTurn(flow, 'FORK-TWO', { inputTokens: AUTO_COMPACT_INPUT_TOKENS })
      fillDisk(run.proj)

      const typed = 'ask FORK-THREE: carry on'
      mock.script(forkReply(forkReplyText({ focus: 'finish the parser' })), { when: (r) => !isForkRequest(r) && r.lastUserText.includes(typed), text: 'REPLY-FORK-THREE' })
      const since = mock.requests.length
      const mark = session.logMark()
      await session.type(typed)
      await mock.waitForRequest((r) => r.seq > since && r.kind === 'summary', 30_000)
      const said = await session.waitForTranscriptLine(/^no handoff was written at this compaction: /, { plugin: 'compact-handoff', since: mark, timeoutMs: 30_000 })
      await session.waitForScreen(/REPLY-FORK-THREE/, 30_000)
      // The fallback's log line, which fails too, comes after the answer.
      await session.waitForDebugLog(/the swap log was not written|could not write the swap log/, { since: mark, timeoutMs: 15_000 })
      expect(filesUnder(join(run.proj, '.claude')), 'no handoff, no log: nothing the failed writes made').toEqual([])
      expect(said.text).toMatch(/^no handoff was written at this compaction: \.claude\/handoffs\/HANDOFF_[^ ]*\.md was not written: the write failed \(compact-handoff: [^\n]*ENOSPC\); nothing of it is left\./)
    } finally {
      await unmount(flow)
    }
  })
})
