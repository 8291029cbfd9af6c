/**
 * Issue 27 in a real session, model scripted: a project that carries symbolic links out of
 * itself, as a clone can. `$.fs.write` follows links (seen live on 2.1.332), so each
 * session here runs a swap, a failed run and an automatic compaction answered by the fork,
 * and then holds that nothing outside the project was touched: the outside folder's
 * entries, bytes and mtimes are as they were.
 * - The swap log is a link to a shell start-up file outside: the swap, the abort and the
 *   fork's handoff all go on, the log is skipped with a note in the debug log each time.
 * - `.claude/handoffs` is a link to a rules folder outside: the swap (its handoff in
 *   plans/handoffs) goes on, no fork is spent on a handoff the folder would refuse, and
 *   the engine's summary replaces the conversation instead, the toast saying why.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AUTO_COMPACT_INPUT_TOKENS, forkReply, forkReplyText, forkRequestsOf, isForkRequest } from '../harness/fork-script.js'
import { failedSkillTurn, isSkillTurnFor, skillTurn } from '../harness/handoff-script.js'
import type { RunDir } from '../harness/run-dir.js'
import { SWAP_LOG_FOLDER } from '../../packages/compact-handoff/hooks/swap-log/swap-log.js'
import { trackRuns } from './lifecycle.js'
import { ordinaryTurn, requestAfter, startFlow, turnSettled, type Flow } from './flow-support.js'

const SHELL_RC = 'export PATH="$HOME/bin:$PATH"\n'
const HOUSE_RULE = '# House rules\n\nBe kind to the parser.\n'
const SKIPPED_LOG = 'the swap log was not written: '

/** Every entry under `dir`, depth first: its kind, and a file's bytes and mtime. */
function snapshotOf(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name)
    const stat = lstatSync(path)
    if (stat.isDirectory()) out.push(`dir ${name} ${stat.mtimeMs}`, ...snapshotOf(path).map((line) => `${name}/${line}`))
    else out.push(`${stat.isSymbolicLink() ? 'link' : 'file'} ${name} ${stat.mtimeMs} ${JSON.stringify(readFileSync(path, 'utf8'))}`)
  }
  return out
}

function outsideOf(run: RunDir): string {
  return join(run.dir, 'outside')
}

/** A typed command's skill turn, scripted with `replies`; returns the skill request's seq. */
async function runSkill(flow: Flow, focus: string, replies: Parameters<Flow['mock']['script']>): Promise<number> {
  flow.mock.script(...replies)
  const before = flow.mock.requests.length
  await flow.session.type(`/compact-handoff ${focus}`)
  const request = await flow.mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, focus), 30_000)
  return request.seq
}

/** A swap whose handoff the skill writes in plans/handoffs (a real folder of the project). */
async function swap(flow: Flow, slug: string): Promise<void> {
  const turn = skillTurn({ proj: flow.run.proj, dir: 'plans/handoffs', doc: { slug, focus: slug } })
  const mark = flow.session.logMark()
  const seq = await runSkill(flow, slug, turn.replies)
  await requestAfter(flow.mock, seq, turn.continuePrompt)
  expect(existsSync(turn.handoffFile), 'the handoff is on disk').toBe(true)
  await flow.session.waitForScreen(/OK \(mock default reply\)/, 30_000)
  await turnSettled(flow.session, mark)
}

/** A run whose skill reports failure with words a shell would run. */
async function failedRun(flow: Flow): Promise<void> {
  const mark = flow.session.logMark()
  await runSkill(flow, 'doomed', [failedSkillTurn('nothing to hand off $(touch pwned) `id`')])
  await flow.session.waitForToast(/^handoff run stopped; the conversation is unchanged$/, { mod: 'compact-handoff', since: mark, timeoutMs: 30_000 })
  const detail = await flow.session.waitForTranscriptLine(/the handoff skill reported failure/, { plugin: 'compact-handoff', since: mark, timeoutMs: 30_000 })
  expect(detail.text).toMatch(/Context unchanged\.$/)
}

/** Types a prompt after a turn that reported usage near the window, so the engine compacts first; the fork answers. */
async function automaticCompaction(flow: Flow, tag: string): Promise<number> {
  await ordinaryTurn(flow, `${tag}-NEAR`, { inputTokens: AUTO_COMPACT_INPUT_TOKENS })
  const typed = `ask ${tag}: carry on`
  flow.mock.script(forkReply(forkReplyText({ focus: 'finish the parser' }, 'plain')), { when: (r) => !isForkRequest(r) && r.lastUserText.includes(typed), text: `REPLY-${tag}` })
  const mark = flow.session.logMark()
  await flow.session.type(typed)
  await flow.session.waitForScreen(new RegExp(`REPLY-${tag}`), 60_000)
  await turnSettled(flow.session, mark)
  return mark
}

describe('a swap-log folder that is a link to a folder outside the project', () => {
  const { track } = trackRuns()

  it('is never written through, across a swap, a failed run and a fork-answered compaction', async () => {
    let before: string[] = []
    const flow = await startFlow('links-log', track, {
      prepare: (run) => {
        mkdirSync(outsideOf(run), { recursive: true })
        writeFileSync(join(outsideOf(run), 'bashrc'), SHELL_RC)
        mkdirSync(join(outsideOf(run), 'logs'), { recursive: true })
        mkdirSync(join(run.proj, '.claude', 'handoffs'), { recursive: true })
        symlinkSync(join(outsideOf(run), 'logs'), join(run.proj, SWAP_LOG_FOLDER))
        before = snapshotOf(outsideOf(run))
      },
    })
    const start = flow.session.logMark()
    await ordinaryTurn(flow, 'LOG-ONE')
    await swap(flow, 'log-swap')
    await failedRun(flow)
    const mark = await automaticCompaction(flow, 'LOG-AUTO')
    await flow.session.waitForToast(/the automatic compaction became a checked handoff/, { mod: 'compact-handoff', since: mark, timeoutMs: 10_000 })

    expect(snapshotOf(outsideOf(flow.run)), 'outside the project, byte for byte and mtime for mtime').toEqual(before)
    expect(lstatSync(join(flow.run.proj, SWAP_LOG_FOLDER)).isSymbolicLink(), 'the link is left as it was').toBe(true)
    expect(existsSync(join(flow.run.proj, 'pwned')), 'no shell ran the reason').toBe(false)
    const skipped = flow.session.debugLog().slice(start).split('\n').filter((line) => line.includes(`${SKIPPED_LOG}${SWAP_LOG_FOLDER} is a symbolic link`))
    expect(skipped.length, 'a debug note for the swap, the abort and the compaction').toBeGreaterThanOrEqual(3)
  })
})

describe('a .claude/handoffs that is a link to a rules folder outside the project', () => {
  const { track } = trackRuns()

  it("refuses the fork's handoff there (the summary instead, the toast says why), and writes nothing outside", async () => {
    let before: string[] = []
    const flow = await startFlow('links-folder', track, {
      prepare: (run) => {
        const rules = join(outsideOf(run), 'rules')
        mkdirSync(rules, { recursive: true })
        writeFileSync(join(rules, 'house.md'), HOUSE_RULE)
        mkdirSync(join(run.proj, '.claude'), { recursive: true })
        symlinkSync(rules, join(run.proj, '.claude', 'handoffs'))
        before = snapshotOf(outsideOf(run))
      },
    })
    const start = flow.session.logMark()
    await ordinaryTurn(flow, 'DIR-ONE')
    await swap(flow, 'dir-swap')
    await failedRun(flow)
    const since = flow.mock.requests.length
    const mark = await automaticCompaction(flow, 'DIR-AUTO')
    await flow.session.waitForToast(/^no handoff was written; Claude Code's own summary replaced the conversation$/, { mod: 'compact-handoff', since: mark, timeoutMs: 10_000 })
    await flow.session.waitForTranscriptLine(
      /no handoff was written at this compaction: no handoff can be saved in \.claude\/handoffs: \.claude\/handoffs is a symbolic link, and compact-handoff never writes or reads through one/,
      { plugin: 'compact-handoff', since: mark, timeoutMs: 10_000 },
    )
    expect(flow.mock.requests.filter((r) => r.seq > since && r.kind === 'summary'), "the engine's summary replaced the conversation").toHaveLength(1)
    expect(forkRequestsOf(flow.mock.requests.filter((r) => r.seq > since)), 'no fork is spent on a folder that refuses the file').toEqual([])

    expect(snapshotOf(outsideOf(flow.run)), 'outside the project, byte for byte and mtime for mtime').toEqual(before)
    const skipped = flow.session.debugLog().slice(start).split('\n').filter((line) => line.includes(`${SKIPPED_LOG}.claude/handoffs is a symbolic link`))
    expect(skipped.length, 'a debug note for the swap, the abort and the compaction').toBeGreaterThanOrEqual(3)
  })
})
