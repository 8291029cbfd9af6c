// A session with no person at the prompt (`claude -p`, the SDK): the engine
// refuses a plugin's compaction there, so no run may start: the command says
// so at once and the auto handoff stays off.
import { describe, expect, type Engine } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { world, type World } from '../support/world.js'
import { endTurn, typeCommand } from '../support/engine-calls.js'
import { startSession } from '../support/flow.js'

async function settle(w: World) {
  await w.clock.settle()
  await w.clock.advance(1_000)
  await w.clock.settle()
}

async function turnEnds($: Engine, w: World) {
  await endTurn($, 'an ordinary answer', 'answer', undefined, 't-ordinary')
  await settle(w)
}

describe('a session that is not interactive', () => {
  for (const command of ['compact-handoff', 'compact-handoffplan'] as const) {
    for (const args of ['', 'review the parser']) {
      test(`/${command} ${args} says at once that the swap needs an interactive session, and starts nothing`, async ($, on) => {
        const w = world(on)
        await startSession($, { isInteractive: false })
        const answer = await $.command.run({ command, args, origin: { kind: 'sdk' }, presentation: { isFullscreen: false, columns: 80 } })
        expect(answer.text).toMatch(/^The swap needs an interactive Claude Code session: in a -p or SDK session the engine refuses a plugin's compaction, so no handoff was written/)
        expect(answer.exitCode).toBe(1)
        await settle(w)
        expect(w.seen.commandRuns, 'no handoff turn').toEqual([])
        expect(w.seen.submits).toEqual([])
        expect((await typeCommand($, 'compact-handoff', 'status')).text).toContain('No handoff run under way')
      })
    }
  }

  test('a command sent by a -p or SDK session is refused even while the state still says interactive (the flag comes back a moment after /clear)', async ($, on) => {
    const w = world(on)
    await startSession($, { isInteractive: true })
    const answer = await $.command.run({ command: 'compact-handoff', args: '', origin: { kind: 'sdk' }, presentation: { isFullscreen: false, columns: 80 } })
    expect(answer.text).toMatch(/^The swap needs an interactive Claude Code session/)
    expect(answer.exitCode).toBe(1)
    await settle(w)
    expect(w.seen.commandRuns, 'no handoff turn').toEqual([])
  })

  test('never starts the auto handoff; an interactive start after it (a reload) turns it back on', { options: { autoHandoffPercent: 80 } }, async ($, on) => {
    const w = world(on, { contextPercent: 90 })
    await startSession($, { isInteractive: false })
    await turnEnds($, w)
    expect(w.seen.commandRuns).toEqual([])
    expect(w.seen.toasts.filter((t) => t.includes('started on its own'))).toEqual([])
    await startSession($, { isInteractive: true })
    await turnEnds($, w)
    expect(w.seen.commandRuns.map((r) => r.command)).toEqual(['compact-handoff-skills:handoff'])
  })
})
