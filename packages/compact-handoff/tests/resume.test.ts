// Picking up a handoff in a fresh session: the file chosen, the continue-prompt
// built from it, a file git tracks confirmed first, and the start-of-session offer.
import { describe, expect, test } from 'claude-code/testing'
import { parseSkillArgs } from '../hooks/protocol.js'
import { CWD, world, type World } from './world.js'
import { typeCommand } from './engine-calls.js'
import { handoffText, planText } from './texts.js'
import { startSession, typeAndLaunch } from './flow.js'

const DIR = '.claude/handoffs'
const HOUR_MS = 3_600_000
/** The kit's clock starts at 1,000,000 ms (world.ts); files are stamped relative to it. */
const NOW_MS = 1_000_000

function withStatus(status: string, nextStep = 'Make recoverFrom() handle a closing brace, then run the parser suite.'): string {
  return handoffText().replace('status: in-progress', `status: ${status}`).replace(/## Next step\n[^\n]*\n/, `## Next step\n${nextStep}\n`)
}

/** Handoffs on the fake disk, each `ageMs` old, written into `DIR`. */
function handoffs(w: World, files: { name: string; status: string; ageMs: number; next?: string }[]) {
  for (const f of files) w.files.set(`${CWD}/${DIR}/${f.name}`, { text: withStatus(f.status, f.next), mtimeMs: NOW_MS - f.ageMs })
}

async function settle(w: World) {
  await w.clock.advance(0)
  await w.clock.settle()
}

describe('/compact-handoff resume', () => {
  test('picks the newest handoff with work left, sends a continue-prompt built from it as the person, and logs it', async ($, on) => {
    const w = world(on)
    handoffs(w, [
      { name: 'HANDOFF_done-work_2026-11-30.md', status: 'done', ageMs: 1_000 },
      { name: 'HANDOFF_newest-open_2026-11-30.md', status: 'in-progress', ageMs: 5_000 },
      { name: 'HANDOFF_older-open_2026-11-29.md', status: 'waiting-for-user', ageMs: 50_000 },
    ])
    await startSession($)
    const said = (await typeCommand($, 'compact-handoff', 'resume')).text ?? ''
    expect(said).toBe(`Resuming from ${DIR}/HANDOFF_newest-open_2026-11-30.md.`)
    await settle(w)
    const sent = w.seen.submits.filter((s) => s.asUser)
    expect(sent.length).toBe(1)
    const prompt = sent[0]?.text ?? ''
    expect(prompt).toContain(`Resume the work from the handoff ${DIR}/HANDOFF_newest-open_2026-11-30.md (status in-progress`)
    expect(prompt).toContain('Reopen the files its Files section names.')
    expect(prompt).toContain('only those that change nothing and reach no network; say which you skipped and why')
    expect(prompt).toContain('the repository wins over the note')
    expect(prompt).toContain('Follow its Constraints exactly')
    expect(prompt).toContain('Then do its Next step: Make recoverFrom() handle a closing brace')
    const log = w.files.get(`${CWD}/${DIR}/compact-handoff.log.jsonl`)?.text ?? ''
    expect(log).toContain('"outcome":"resumed"')

    // The resumed handoff is the parent of the next one.
    await typeAndLaunch($, w, 'compact-handoff', '')
    expect(parseSkillArgs(w.seen.commandRuns.at(-1)?.args ?? '')?.values).toMatchObject({ parent: `${DIR}/HANDOFF_newest-open_2026-11-30.md`, seq: 2 })
  })

  test('asks the person to answer first when the Next step waits for them', async ($, on) => {
    const w = world(on)
    handoffs(w, [{ name: 'HANDOFF_waiting_2026-11-30.md', status: 'waiting-for-user', ageMs: 10, next: 'Wait for the user: which database should the cache use?' }])
    await startSession($)
    await typeCommand($, 'compact-handoff', 'resume')
    await settle(w)
    expect(w.seen.submits[0]?.text).toContain('Its Next step waits for me: ask me what it asks, and wait for my answer before changing anything.')
  })

  test('names the plan of the same chain', async ($, on) => {
    const w = world(on)
    handoffs(w, [{ name: 'HANDOFF_parser_2026-11-29.md', status: 'in-progress', ageMs: 10 }])
    w.files.set(`${CWD}/${DIR}/PLAN_parser_2026-11-29.md`, { text: planText(), mtimeMs: NOW_MS })
    await startSession($)
    await typeCommand($, 'compact-handoff', 'resume')
    await settle(w)
    expect(w.seen.submits[0]?.text).toContain(`Then read the plan ${DIR}/PLAN_parser_2026-11-29.md.`)
  })

  test('takes a named file, even a done one, and refuses one outside the handoff folders or one that fails the check', async ($, on) => {
    const w = world(on)
    handoffs(w, [{ name: 'HANDOFF_finished_2026-11-30.md', status: 'done', ageMs: 10 }])
    w.files.set(`${CWD}/${DIR}/HANDOFF_broken_2026-11-30.md`, { text: '---\nkind: handoff\n---\n# nothing\n', mtimeMs: NOW_MS })
    await startSession($)
    expect((await typeCommand($, 'compact-handoff', `resume ${CWD}/${DIR}/HANDOFF_finished_2026-11-30.md`)).text).toBe(`Resuming from ${DIR}/HANDOFF_finished_2026-11-30.md.`)
    expect((await typeCommand($, 'compact-handoff', 'resume notes/HANDOFF_x_2026-11-30.md')).text).toMatch(/^Not resumed: notes\/HANDOFF_x_2026-11-30\.md is not a HANDOFF_\*\.md file directly under/)
    const broken = (await typeCommand($, 'compact-handoff', `resume ${DIR}/HANDOFF_broken_2026-11-30.md`)).text ?? ''
    expect(broken).toMatch(/^Not resumed; nothing was sent:\n- .*HANDOFF_broken_2026-11-30\.md: /)
    await settle(w)
    expect(w.seen.submits.length, 'only the good one was sent').toBe(1)
  })

  test('says so when nothing is left to resume', async ($, on) => {
    const w = world(on)
    handoffs(w, [{ name: 'HANDOFF_done-work_2026-11-30.md', status: 'done', ageMs: 10 }])
    await startSession($)
    expect((await typeCommand($, 'compact-handoff', 'resume')).text).toMatch(/^No handoff to resume/)
  })
})

describe('a handoff git tracks', () => {
  const TRACKED = { gitTracked: { [`${DIR}/HANDOFF_cloned_2026-11-30.md`]: 'Someone Else, 2026-11-20' } }

  test('is resumed only once the person confirms, saying who last committed it', async ($, on) => {
    const w = world(on, { ...TRACKED, askAnswer: 'Resume from it' })
    handoffs(w, [{ name: 'HANDOFF_cloned_2026-11-30.md', status: 'in-progress', ageMs: 10 }])
    await startSession($)
    expect((await typeCommand($, 'compact-handoff', 'resume')).text).toContain('is tracked by git, last committed by Someone Else, 2026-11-20')
    await settle(w)
    expect(w.seen.asks).toEqual([expect.stringContaining('last committed by Someone Else, 2026-11-20')])
    expect(w.seen.submits.length).toBe(1)
  })

  for (const answer of ['Do not resume', 'dismiss']) {
    test(`is not resumed when the answer is "${answer}"`, async ($, on) => {
      const w = world(on, { ...TRACKED, askAnswer: answer })
      handoffs(w, [{ name: 'HANDOFF_cloned_2026-11-30.md', status: 'in-progress', ageMs: 10 }])
      await startSession($)
      await typeCommand($, 'compact-handoff', 'resume')
      await settle(w)
      expect(w.seen.submits).toEqual([])
      expect(w.seen.toasts).toEqual([`compact-handoff: not resumed from ${DIR}/HANDOFF_cloned_2026-11-30.md; nothing was sent.`])
    })
  }

  test('is never named by the start-of-session offer', async ($, on) => {
    const w = world(on, TRACKED)
    handoffs(w, [{ name: 'HANDOFF_cloned_2026-11-30.md', status: 'in-progress', ageMs: 10 }])
    await startSession($)
    await settle(w)
    expect(w.seen.toasts).toEqual([])
  })
})

describe('a folder git cannot answer for', () => {
  // A missing git rejects; a folder git refuses to read ("dubious ownership")
  // exits 128. Neither says the file is not tracked.
  for (const git of ['missing', 'dubious'] as const) {
    test(`asks before resuming when git is ${git}, and sends nothing on "Do not resume"`, async ($, on) => {
      const w = world(on, { git, askAnswer: 'Do not resume' })
      handoffs(w, [{ name: 'HANDOFF_unpacked_2026-11-30.md', status: 'in-progress', ageMs: 10 }])
      await startSession($)
      expect((await typeCommand($, 'compact-handoff', 'resume')).text).toContain(`${DIR}/HANDOFF_unpacked_2026-11-30.md could not be checked with git`)
      await settle(w)
      expect(w.seen.asks).toEqual([expect.stringContaining(git === 'missing' ? 'git could not be run' : 'git exited with 128: fatal: detected dubious ownership')])
      expect(w.seen.submits).toEqual([])
    })

    test(`never offers a handoff at session start when git is ${git}`, async ($, on) => {
      const w = world(on, { git })
      handoffs(w, [{ name: 'HANDOFF_unpacked_2026-11-30.md', status: 'in-progress', ageMs: 10 }])
      await startSession($)
      await settle(w)
      expect(w.seen.toasts).toEqual([])
    })
  }
})

describe('the start-of-session offer', () => {
  test('names the newest recent handoff with work left, once', async ($, on) => {
    const w = world(on)
    handoffs(w, [{ name: 'HANDOFF_recent_2026-11-30.md', status: 'in-progress', ageMs: 2 * HOUR_MS }])
    await startSession($)
    await settle(w)
    expect(w.seen.toasts).toEqual([`compact-handoff: a handoff from about 2 hour(s) ago is waiting: ${DIR}/HANDOFF_recent_2026-11-30.md. /compact-handoff resume picks it up.`])
  })

  test('stays quiet for a handoff over 24 hours old, one already resumed, and a resumed conversation', async ($, on) => {
    const w = world(on)
    handoffs(w, [{ name: 'HANDOFF_old_2026-11-28.md', status: 'in-progress', ageMs: 25 * HOUR_MS }])
    await startSession($)
    await settle(w)
    expect(w.seen.toasts).toEqual([])
  })

  test('stays quiet once the file was resumed', async ($, on) => {
    const w = world(on)
    handoffs(w, [{ name: 'HANDOFF_recent_2026-11-30.md', status: 'in-progress', ageMs: 10 }])
    w.files.set(`${CWD}/${DIR}/compact-handoff.log.jsonl`, { text: `${JSON.stringify({ time: 't', outcome: 'resumed', files: [{ path: `${DIR}/HANDOFF_recent_2026-11-30.md`, bytes: 1 }] })}\n`, mtimeMs: NOW_MS })
    await startSession($)
    await settle(w)
    expect(w.seen.toasts).toEqual([])
  })

  test('is made again after /clear, which starts a fresh conversation without a session start', async ($, on) => {
    const w = world(on)
    handoffs(w, [{ name: 'HANDOFF_recent_2026-11-30.md', status: 'in-progress', ageMs: 10 }])
    await startSession($)
    await settle(w)
    await $.session.end({ reason: 'clear', sessionId: 'session-1', resume: { sessionId: 'session-1' } as never })
    await settle(w)
    expect(w.seen.toasts.filter((t) => t.includes('is waiting')).length).toBe(2)
  })

  test('stays quiet when the conversation was resumed, not new', async ($, on) => {
    const w = world(on, { messageCount: 4 })
    handoffs(w, [{ name: 'HANDOFF_recent_2026-11-30.md', status: 'in-progress', ageMs: 10 }])
    await startSession($)
    await settle(w)
    expect(w.seen.toasts).toEqual([])
  })
})
