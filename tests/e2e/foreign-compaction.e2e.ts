/**
 * Only compact-handoff's own compaction is answered, in a real session: another mod,
 * staged for the test, calls `$.session.compact` with instructions whose first line is
 * compact-handoff's marker. compact-handoff-answer leaves it to the engine: the mock
 * receives the engine's summariser request carrying those instructions, and the
 * conversation after it is the engine's summary, not the other mod's text.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockApi } from '../harness/mock-api.js'
import { createRunDir } from '../harness/run-dir.js'
import { writeMod } from '../harness/staging.js'
import { startSession } from '../harness/tmux-session.js'
import { MARKER } from '../../packages/compact-handoff/hooks/protocol/protocol.js'
import { trackRuns } from './lifecycle.js'
import { ANSWER_MOD, HANDOFF_MOD, PLUGIN_DIRS, messagesText, ordinaryTurn, type Flow } from './flow-support.js'

const OTHER_STUB = 'OTHER-MOD-STUB: the whole conversation is now this text.'

/** A mod that, on `/other-compact`, compacts from a timer (refused inside its command
 * hook) with instructions marked as compact-handoff's, and toasts what came back. */
const OTHER_MOD = `import type { Register } from 'claude-code'

export const register: Register = (on) => {
  on('session.start', async ($, e, next) => {
    const started = await next(e)
    await $.command.register({ name: 'other-compact', description: 'compacts with marked instructions' })
    return started
  })
  on('command.run', { command: 'other-compact' }, ($) => {
    $.clock.after(200, async () => {
      try {
        const result = await $.session.compact({ instructions: ${JSON.stringify(`${MARKER}\n${OTHER_STUB}`)} })
        $.ui.toast('other-compact: ' + ('skip' in result ? 'skipped' : 'compacted'))
      } catch (error) {
        $.ui.toast('other-compact refused: ' + String(error))
      }
    })
    return { text: 'scheduled' }
  })
}
`

describe("another plugin's marked compaction", () => {
  const { track } = trackRuns()
  let flow: Flow

  beforeAll(async () => {
    const run = createRunDir('foreign-compaction')
    track(run)
    const other = writeMod(run, 'other-compactor', { 'hooks/register.ts': OTHER_MOD })
    const mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl'), summary: 'ENGINE-SUMMARY-OF-THE-CONVERSATION' })
    const session = await startSession({ run, plugins: [PLUGIN_DIRS.handoff, PLUGIN_DIRS.answer, PLUGIN_DIRS.skills, other], mock })
    track(run, session)
    await session.waitForReady({ mods: [HANDOFF_MOD, ANSWER_MOD, 'other-compactor@inline'] })
    flow = { run, mock, session }
  })

  afterAll(async () => {
    await flow?.mock.close()
  })

  it('goes on to the engine, which summarises the conversation; the marked text never replaces it', async () => {
    const { mock, session } = flow
    await ordinaryTurn(flow, 'FOREIGN-ONE')
    const before = mock.requests.length
    await session.type('/other-compact')
    const summary = await mock.waitForRequest((r) => r.seq > before && r.kind === 'summary', 30_000)
    expect(summary.lastUserText, "the other mod's instructions reach the summariser as it wrote them").toContain(`${MARKER}\n${OTHER_STUB}`)
    expect(messagesText(summary), 'the summariser sees the conversation').toContain('REPLY-FOREIGN-ONE')
    await session.waitForToast(/other-compact: compacted/, { timeoutMs: 30_000 })

    const next = await ordinaryTurn(flow, 'FOREIGN-TWO')
    const text = messagesText(next)
    expect(text, "the engine's summary is the conversation now").toContain('ENGINE-SUMMARY-OF-THE-CONVERSATION')
    expect(text, "the other mod's text was not installed as the conversation").not.toContain(OTHER_STUB)
    expect(mock.requests.filter((r) => r.kind === 'summary'), 'one summariser request').toHaveLength(1)
  })
})
