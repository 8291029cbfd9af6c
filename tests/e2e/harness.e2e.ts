/**
 * Proves the harness itself against the real binary, with a throwaway mod written into the
 * run dir: the session starts, a typed prompt reaches the mock and its scripted answer is
 * drawn, a scripted Write tool_use creates a file, and a mod's toast reaches the debug log.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockApi, type MockApi } from '../harness/mock-api.js'
import { createRunDir, type RunDir } from '../harness/run-dir.js'
import { writeMod } from '../harness/staging.js'
import { startSession, type Session } from '../harness/tmux-session.js'
import { trackRuns } from './lifecycle.js'

const PROBE_MOD = `import type { Register } from 'claude-code'

export const register: Register = (on) => {
  on('session.start', async ($, e, next) => {
    const r = await next(e)
    await $.command.register({ name: 'e2e-ping', description: 'answers pong without a model request' })
    $.ui.toast('e2e-probe loaded')
    return r
  })
  on('command.run', { command: 'e2e-ping' }, async ($, e) => {
    $.ui.toast('pong ' + e.args)
    return { text: 'pong ' + e.args }
  })
}
`

describe('harness against the real claude binary', () => {
  const { track } = trackRuns()
  let mock: MockApi
  let run: RunDir
  let session: Session

  beforeAll(async () => {
    run = createRunDir('harness')
    track(run)
    mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl') })
    const probe = writeMod(run, 'e2e-probe', { 'hooks/register.ts': PROBE_MOD })
    session = await startSession({ run, plugins: [probe], mock })
    track(run, session)
    console.log(`e2e harness: run dir ${run.dir}`)
  })
  afterAll(async () => {
    await mock?.close()
  })

  it('starts to a prompt box with the mod settled', async () => {
    const ms = await session.waitForReady()
    console.log(`e2e harness: ready after ${ms} ms`)
    expect(session.modIds).toEqual(['e2e-probe@inline'])
  })

  it("records a mod's toast in the debug log", async () => {
    const toast = await session.waitForToast(/e2e-probe loaded/)
    expect(toast).toEqual({ mod: 'e2e-probe', text: 'e2e-probe loaded' })
  })

  it('sends a typed prompt to the mock and draws the scripted answer', async () => {
    mock.script({ when: 'say hello', text: 'HELLO-FROM-MOCK' })
    const t0 = Date.now()
    await session.type('please say hello')
    await session.waitForScreen(/HELLO-FROM-MOCK/)
    console.log(`e2e harness: prompt to answer on screen ${Date.now() - t0} ms`)
    const req = await mock.waitForRequest((r) => r.lastUserText.includes('please say hello'))
    expect(req.kind).toBe('main')
    expect(req.path).toBe('/v1/messages?beta=true')
  })

  it('runs a scripted Write tool_use inside proj/', async () => {
    const target = join(run.proj, 'e2e-written.txt')
    mock.script(
      { when: 'write the file', toolUses: [{ name: 'Write', input: { file_path: target, content: 'written by e2e\n' } }] },
      { text: 'WRITE-DONE' },
    )
    await session.type('now write the file')
    await session.waitForScreen(/WRITE-DONE/)
    expect(existsSync(target), 'the Write tool ran in the session').toBe(true)
    expect(readFileSync(target, 'utf8')).toBe('written by e2e\n')
    const toolResultSent = mock.requests.some((r) =>
      JSON.stringify(r.body?.messages?.at(-1) ?? '').includes('"tool_result"'),
    )
    expect(toolResultSent, 'the tool_result went back to the mock').toBe(true)
  })

  it("answers a mod's slash command without a model request", async () => {
    const before = mock.requests.length
    const mark = session.logMark()
    await session.type('/e2e-ping abc')
    await session.waitForScreen(/pong abc/)
    await session.waitForToast(/^pong abc$/, { mod: 'e2e-probe', since: mark })
    expect(mock.requests.length).toBe(before)
  })

  it("answers the engine's summariser request and the summary leads the next request", async () => {
    await session.type('/compact keep the e2e note')
    const summariser = await mock.waitForRequest((r) => r.kind === 'summary', 30_000)
    expect(summariser.lastUserText).toContain('keep the e2e note')
    mock.script({ when: 'after the compaction', text: 'POST-COMPACT-ANSWER' })
    await session.type('after the compaction')
    await session.waitForScreen(/POST-COMPACT-ANSWER/, 30_000)
    const next = await mock.waitForRequest((r) => r.lastUserText.includes('after the compaction'))
    const firstUser = JSON.stringify(next.body?.messages?.find((m) => m.role === 'user')?.content ?? '')
    expect(firstUser).toContain('Mock summary of the conversation.')
  })
})
