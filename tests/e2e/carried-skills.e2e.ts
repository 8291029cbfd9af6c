/**
 * Issue 23 in a real session, model scripted: a project skill (`.claude/skills/house-rules`)
 * typed as `/house-rules`, and a file read, before the context is replaced.
 * - The engine's own `/compact` (compactionHandoff: off): what its next request carries, kind
 *   by kind, with sizes (the inventory in CONTRIBUTING's "What a compaction carries").
 * - A swap, and separately an automatic compaction answered by a fork: the next request
 *   carries the skill's body, framed as invoked earlier, and names the deferred tools a
 *   ToolSearch loaded; the continue-prompt (or the typed prompt) is still the last user
 *   text; no summariser request is made.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AUTO_COMPACT_INPUT_TOKENS, forkReply, forkReplyText, isForkRequest } from '../harness/fork-script.js'
import { isSkillTurnFor, skillTurn } from '../harness/handoff-script.js'
import type { MockRequest } from '../harness/mock-api.js'
import { carriesToolResult, userBlocks } from '../harness/request-messages.js'
import type { RunDir } from '../harness/run-dir.js'
import { STUB_OPENING } from '../../packages/compact-handoff/hooks/stub/swap-text.js'
import { SKILLS_HEADING } from '../../packages/compact-handoff/hooks/carried/skills.js'
import { trackRuns } from './lifecycle.js'
import { messagesText, ordinaryTurn, requestAfter, startFlow, turnSettled, type Flow } from './flow-support.js'

/** A line only the skill's body holds: a request that carries the body holds it. */
const SKILL_MARK = 'HOUSE-RULE-7: tabs, never spaces, in every Makefile'
const SKILL_ARGS = 'for the parser work'
/** What a cron and a wakeup scheduled before the compaction would fire with. */
const CRON_MARK = 'CRON-PROMPT-MARK: check the nightly build'
const WAKEUP_MARK = 'WAKEUP-PROMPT-MARK: look at the build again'
/** Huge skills (about 180,000 characters each) the engine's own compaction bounds. */
const BIG_SKILLS = 7
const READ_MARK = 'NOTES-FILE-LINE: the parser keeps positions as byte offsets'

/** The project skill and a file to read, written before the session starts. */
function prepareProject(run: RunDir): void {
  const dir = join(run.proj, '.claude', 'skills', 'house-rules')
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    join(dir, 'SKILL.md'),
    ['---', 'name: house-rules', 'description: The team rules for any change in this repository', '---', '', '# House rules', '', SKILL_MARK, 'HOUSE-RULE-8: run `make check` before saying done.', '', 'Asked: $ARGUMENTS', ''].join('\n'),
  )
  for (let n = 1; n <= BIG_SKILLS; n++) {
    const big = join(run.proj, '.claude', 'skills', `big${n}`)
    mkdirSync(big, { recursive: true })
    const lines = Array.from({ length: 4000 }, (_, i) => `BIG${n}-LINE-${String(i).padStart(5, '0')} ${'x'.repeat(40)}`)
    writeFileSync(join(big, 'SKILL.md'), ['---', `name: big${n}`, 'description: A huge skill', '---', '', ...lines, `BIG${n}-END`, ''].join('\n'))
  }
  mkdirSync(join(run.proj, 'src'), { recursive: true })
  writeFileSync(join(run.proj, 'src', 'notes.md'), `# Notes\n\n${READ_MARK}\n${'filler line for size\n'.repeat(40)}`)
}

/** Types `/big1`… (`bigSkills` of them) and `/house-rules`, each answered at once;
 * then a turn that loads a deferred tool and starts a background shell, and one
 * that reads `src/notes.md`. */
async function skillAndRead(flow: Flow, bigSkills = 0): Promise<void> {
  const { mock, session, run } = flow
  for (let n = 1; n <= bigSkills; n++) {
    mock.script({ when: `BIG${n}-LINE-00000`, text: `REPLY-BIG${n}` })
    await session.type(`/big${n}`)
    await session.waitForScreen(new RegExp(`REPLY-BIG${n}`), 30_000)
  }
  mock.script({ when: SKILL_MARK, text: 'REPLY-HOUSE-RULES' })
  const mark = session.logMark()
  await session.type(`/house-rules ${SKILL_ARGS}`)
  await mock.waitForRequest((r) => r.lastUserText.includes(SKILL_MARK), 30_000)
  await session.waitForScreen(/REPLY-HOUSE-RULES/, 30_000)
  await turnSettled(session, mark)

  const bg = `toolu_bg_${Date.now().toString(36)}`
  const wake = `toolu_wake_${Date.now().toString(36)}`
  mock.script(
    { when: 'ask EXTRA', toolUses: [{ name: 'ToolSearch', input: { query: 'select:WebFetch,CronCreate', max_results: 2 } }, { id: bg, name: 'Bash', input: { command: 'sleep 300', description: 'wait', run_in_background: true } }] },
    { when: (r) => carriesToolResult(r, bg), toolUses: [{ name: 'CronCreate', input: { cron: '0 9 * * *', prompt: CRON_MARK, recurring: true } }, { id: wake, name: 'ScheduleWakeup', input: { delaySeconds: 3600, reason: 'check the build later', prompt: WAKEUP_MARK, noop: false } }] },
    { when: (r) => carriesToolResult(r, wake), text: 'REPLY-EXTRA' },
  )
  const extraMark = session.logMark()
  await session.type('ask EXTRA')
  await session.waitForScreen(/REPLY-EXTRA/, 30_000)
  await turnSettled(session, extraMark)

  const id = `toolu_read_notes_${Date.now().toString(36)}`
  mock.script({ when: 'ask READ-NOTES', toolUses: [{ id, name: 'Read', input: { file_path: join(run.proj, 'src', 'notes.md') } }] }, { when: (r) => carriesToolResult(r, id), text: 'REPLY-READ-NOTES' })
  const readMark = session.logMark()
  await session.type('ask READ-NOTES')
  await mock.waitForRequest((r) => carriesToolResult(r, id), 30_000)
  await session.waitForScreen(/REPLY-READ-NOTES/, 30_000)
  await turnSettled(session, readMark)
}

/** Each message of a request, one line: role, size in JSON bytes, its opening. */
function inventoryOf(request: MockRequest): string {
  return (request.body?.messages ?? [])
    .map((m, i) => {
      const json = JSON.stringify(m.content)
      const blocks = Array.isArray(m.content) ? (m.content as Array<{ type?: string; text?: string }>) : [{ type: 'text', text: String(m.content) }]
      const heads = blocks.map((b) => `${b.type}:${(b.text ?? JSON.stringify(b).slice(0, 160)).slice(0, 160).split('\n').join(' ⏎ ')}`)
      return `#${i} ${m.role} ${json.length} B\n    ${heads.join('\n    ')}`
    })
    .join('\n')
}

/** The part of `text` from `start` up to the first of `ends` after it (or its end); '' without `start`. */
function partOf(text: string, start: string, ends: readonly string[]): string {
  const from = text.indexOf(start)
  if (from < 0) return ''
  const to = Math.min(...ends.map((end) => text.indexOf(end, from + start.length)).filter((at) => at >= 0), text.length)
  return text.slice(from, to)
}

/** One line of sizes for docs/measured.md (UTF-8 bytes): the request's
 * messages as sent, the skills' part (the engine's "invoked EARLIER" message, or
 * the stub's section), the stub, and whether the file read came back whole. */
function sizesOf(label: string, request: MockRequest): string {
  const blocks = (request.body?.messages ?? []).flatMap((m) => (typeof m.content === 'string' ? [m.content] : Array.isArray(m.content) ? (m.content as Array<{ text?: string }>).map((b) => b.text ?? '') : []))
  const all = blocks.join('\n')
  const skills = partOf(all, 'The following skills were invoked EARLIER', ['\n\nThe following deferred tools']) || partOf(all, SKILLS_HEADING, ['\nNothing else from before was kept', '\n\nThe handoff, as saved'])
  const stub = blocks.find((b) => b.startsWith(STUB_OPENING)) ?? ''
  const bytes = (text: string) => Buffer.byteLength(text)
  const tools = (request.body?.tools ?? []).map((t) => (t as { name?: string }).name)
  const has = (what: string, yes: boolean) => `${what} ${yes ? 'yes' : 'no'}`
  return [
    `e2e carried-skills sizes: after ${label}: messages ${Buffer.byteLength(messagesText(request))} B; the skills ${bytes(skills)} B; stub ${bytes(stub)} B; the file read ${all.includes(READ_MARK) ? 'inlined' : 'not inlined'}`,
    `e2e carried-skills kinds: after ${label}: ${[
      has('cron', all.includes(CRON_MARK)),
      has('wakeup', all.includes(WAKEUP_MARK)),
      has('WebFetch loaded', tools.includes('WebFetch')),
      has('CronCreate loaded', tools.includes('CronCreate')),
      has('deferred-tools list', all.includes('deferred tools are now available')),
      has('skills list', all.includes('skills are available for use')),
      has('agent types', all.includes('Available agent types')),
      has('tools used before', all.includes('tools-used-before')),
      has('background shell', all.includes('sleep 300')),
      has('transcript', all.includes('.jsonl')),
    ].join('; ')}`,
  ].join('\n')
}

describe("the engine's own /compact (compactionHandoff: off)", () => {
  const { track } = trackRuns()

  it('carries the skill, framed as invoked earlier, and the file read again', async () => {
    const flow = await startFlow('carried-engine', track, { handoffOptions: { compactionHandoff: 'off' }, prepare: prepareProject })
    const { mock, session } = flow
    await skillAndRead(flow)
    const since = mock.requests.length
    await session.type('/compact')
    await mock.waitForRequest((r) => r.seq > since && r.kind === 'summary', 30_000)
    await session.waitForScreen(/Compacted|compacted/, 30_000)
    const next = await ordinaryTurn(flow, 'AFTER-COMPACT')
    console.log(sizesOf('/compact', next))
    const text = messagesText(next)
    expect(text, "the skill's body").toContain(SKILL_MARK)
    expect(text, 'framed as invoked earlier').toContain('invoked EARLIER')
    expect(text, 'the file read again').toContain(READ_MARK)
  })

  it('carries the newest skills, each cut, framed as invoked earlier, and the file read', async () => {
    const flow = await startFlow('carried-engine-bounds', track, { handoffOptions: { compactionHandoff: 'off' }, prepare: prepareProject })
    const { mock, session } = flow
    await skillAndRead(flow, BIG_SKILLS)
    const since = mock.requests.length
    await session.type('/compact')
    await mock.waitForRequest((r) => r.seq > since && r.kind === 'summary', 30_000)
    await session.waitForScreen(/Compacted|compacted/, 30_000)
    const next = await ordinaryTurn(flow, 'AFTER-COMPACT')
    console.log(`e2e carried-skills: the request after /compact\n${inventoryOf(next)}\n${sizesOf('/compact, huge skills', next)}`)
    const text = messagesText(next)
    expect(text, "the newest skill's body").toContain(SKILL_MARK)
    expect(text, 'framed as invoked earlier').toContain('invoked EARLIER')
    expect(text, 'each huge skill cut').toContain('skill content truncated for compaction')
    expect(text, 'the newest five kept').toContain('BIG4-LINE-00000')
    expect(text, 'older ones dropped').not.toContain('BIG3-LINE-00000')
    expect(text, 'the file read again').toContain(READ_MARK)
    expect(text, 'the shell still running').toContain('is still running')
    expect((next.body?.tools ?? []).map((t) => (t as { name?: string }).name), "the deferred tool's loaded schema").toContain('WebFetch')
  })
})

/** The stub of a request (the user block compact-handoff's stub opens). */
function stubOf(request: MockRequest): string {
  return userBlocks(request).find((b) => b.startsWith(STUB_OPENING)) ?? ''
}

describe('a swap after /house-rules', () => {
  const { track } = trackRuns()

  it("carries the skill's body in the stub, framed as invoked earlier; the continue-prompt is last; no summariser", async () => {
    const flow = await startFlow('carried-swap', track, { prepare: prepareProject })
    const { mock, session, run } = flow
    await skillAndRead(flow)
    const turn = skillTurn({ proj: run.proj, doc: { slug: 'carried-swap', focus: 'house rules' } })
    mock.script(...turn.replies)
    const before = mock.requests.length
    await session.type('/compact-handoff house rules')
    const skill = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'house rules'), 30_000)
    const next = await requestAfter(mock, skill.seq, turn.continuePrompt)
    console.log(`e2e carried-skills: the request after a swap\n${inventoryOf(next)}\n${sizesOf('a swap', next)}`)

    const stub = stubOf(next)
    expect(stub, "the stub carries the skill's body").toContain(SKILL_MARK)
    expect(stub, 'with the arguments it was invoked with').toContain(`Asked: ${SKILL_ARGS}`)
    expect(stub, 'framed as invoked earlier, not to be run again').toMatch(/invoked earlier in this session[\s\S]*do not run them again/i)
    expect(stub, "never the handoff skill's own run").not.toContain('compact-mode')
    expect(stub, 'the deferred tools loaded, with how to load them again').toContain('ToolSearch (query "select:WebFetch,CronCreate")')
    expect(userBlocks(next).at(-1)?.trim(), 'the continue-prompt is the last user text').toBe(turn.continuePrompt)
    expect(mock.requests.some((r) => r.kind === 'summary'), 'no summariser request').toBe(false)
    await session.waitForScreen(/OK \(mock default reply\)/, 30_000)
    console.log(sizesOf('a swap, one turn later', await ordinaryTurn(flow, 'AFTER-SWAP')))
  })
})

describe('an automatic compaction answered by the fork after /house-rules', () => {
  const { track } = trackRuns()

  it("carries the skill's body in the fork's stub; the typed prompt is last; no summariser", async () => {
    const flow = await startFlow('carried-fork', track, { prepare: prepareProject })
    const { mock, session } = flow
    await skillAndRead(flow)
    await ordinaryTurn(flow, 'FORK-ONE', { inputTokens: AUTO_COMPACT_INPUT_TOKENS })
    const typed = 'ask FORK-TWO: carry on with the parser'
    mock.script(forkReply(forkReplyText({ focus: 'house rules' })), { when: (r) => !isForkRequest(r) && r.lastUserText.includes(typed), text: 'REPLY-FORK-TWO' })
    const since = mock.requests.length
    const mark = session.logMark()
    await session.type(typed)
    const next = await mock.waitForRequest((r) => r.seq > since && r.kind === 'main' && r.status === 200 && !isForkRequest(r), 30_000)
    console.log(`e2e carried-skills: the request after a fork's handoff\n${inventoryOf(next)}\n${sizesOf("a fork's handoff", next)}`)

    const stub = stubOf(next)
    expect(stub, 'answered by the fork').toContain('a fork of this session wrote the handoff below')
    expect(stub, "the stub carries the skill's body").toContain(SKILL_MARK)
    expect(stub, 'framed as invoked earlier, not to be run again').toMatch(/invoked earlier in this session[\s\S]*do not run them again/i)
    expect(stub, 'the deferred tools loaded, with how to load them again').toContain('ToolSearch (query "select:WebFetch,CronCreate")')
    expect(userBlocks(next).at(-1)?.trim(), 'the typed prompt is the last user text').toBe(typed)
    expect(mock.requests.some((r) => r.kind === 'summary'), 'no summariser request').toBe(false)
    await session.waitForScreen(/REPLY-FORK-TWO/, 30_000)
    await turnSettled(session, mark)
    console.log(sizesOf("a fork's handoff, one turn later", await ordinaryTurn(flow, 'AFTER-FORK')))
  })
})
