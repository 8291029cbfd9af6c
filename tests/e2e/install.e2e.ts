/**
 * The README's install path, end to end: add a copy of this repo as a folder marketplace,
 * install compact-handoff alone, start an interactive session with nothing else loaded,
 * and see that the plugin brought its two dependencies (the answer mod and the skill pack)
 * and that all three are live.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockApi, type MockApi } from '../harness/mock-api.js'
import { runClaude } from '../harness/claude-cli.js'
import { repoRoot } from '../harness/repo-root.js'
import { createRunDir, type RunDir } from '../harness/run-dir.js'
import { startSession, type Session } from '../harness/tmux-session.js'
import { trackRuns } from './lifecycle.js'

const MARKETPLACE = 'compact-handoff'
const MOD_IDS = [`compact-handoff@${MARKETPLACE}`, `compact-handoff-answer@${MARKETPLACE}`]
const SKILLS_ID = `compact-handoff-skills@${MARKETPLACE}`

describe('marketplace install of compact-handoff', () => {
  const { track } = trackRuns()
  let mock: MockApi
  let run: RunDir
  let session: Session

  beforeAll(async () => {
    run = createRunDir('install')
    track(run)
    mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl') })
    const t0 = Date.now()
    session = await startSession({ run, install: { marketplace: repoRoot(), plugins: ['compact-handoff'] }, mock })
    track(run, session)
    console.log(`e2e install: run dir ${run.dir}; marketplace add + install + launch ${Date.now() - t0} ms`)
  })
  afterAll(async () => {
    await mock?.close()
  })

  it('installs the plugin with both dependencies', async () => {
    const { stdout } = await runClaude(run, ['plugin', 'list'])
    for (const id of [...MOD_IDS, SKILLS_ID]) expect(stdout, `plugin list names ${id}`).toContain(id)
  })

  it('loads both mods in the interactive session', async () => {
    const ms = await session.waitForReady({ mods: MOD_IDS })
    console.log(`e2e install: ready after ${ms} ms`)
    expect(session.debugLog()).not.toMatch(/hooks module did not load/)
  })

  it('answers /compact-handoff status without a model request', async () => {
    const before = mock.requests.length
    await session.type('/compact-handoff status')
    await session.waitForScreen(/No handoff run under way/)
    expect(mock.requests.length).toBe(before)
  })

  it('offers the skill pack as /compact-handoff-skills:handoff', async () => {
    mock.script({ when: 'Base directory for this skill', text: 'SKILL-TURN-SEEN' })
    await session.type('/compact-handoff-skills:handoff e2e-focus')
    const req = await mock.waitForRequest((r) => r.lastUserText.includes('Base directory for this skill'))
    expect(req.lastUserText).toContain('e2e-focus')
    await session.waitForScreen(/SKILL-TURN-SEEN/)
  })
})
