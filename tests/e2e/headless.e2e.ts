/**
 * A headless session (`claude -p`), where the engine refuses a plugin's compaction:
 * `/compact-handoff` and `/compact-handoffplan` say at once that the swap needs an
 * interactive session, exit 1, and no handoff turn reaches the model.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { claudeBin } from '../harness/claude-cli.js'
import { sessionEnv } from '../harness/environment.js'
import { startMockApi, type MockApi } from '../harness/mock-api.js'
import { createRunDir, type RunDir } from '../harness/run-dir.js'
import { stageCopy } from '../harness/staging.js'
import { trackRuns } from './lifecycle.js'
import { PLUGIN_DIRS } from './flow-support.js'

type Ran = { code: number; stdout: string; stderr: string }

/** `claude -p <prompt>` with the staged plugins, whatever it exits with; with
 * `lines`, an SDK-style session fed those prompts as stream-json on stdin. */
function runHeadless(run: RunDir, mock: MockApi, prompt: string | readonly string[], pluginDirs: readonly string[]): Promise<Ran> {
  const streamed = typeof prompt !== 'string'
  const mode = streamed ? ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'] : ['-p', prompt]
  const args = [...mode, '--debug-file', join(run.dir, 'debug.log'), ...pluginDirs.flatMap((dir) => ['--plugin-dir', dir])]
  return new Promise((resolve) => {
    const child = execFile(claudeBin(), args, { cwd: run.proj, env: sessionEnv(run, mock.url), timeout: 60_000, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1
      resolve({ code, stdout, stderr })
    })
    if (streamed) for (const text of prompt) child.stdin?.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text }] } })}\n`)
    // Else -p waits 3 s for piped input before it runs the prompt.
    child.stdin?.end()
  })
}

describe('claude -p with compact-handoff', () => {
  const { track } = trackRuns()
  let run: RunDir
  let mock: MockApi
  let plugins: string[]

  beforeAll(async () => {
    run = createRunDir('headless')
    track(run)
    mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl') })
    // Copies: loading a mod makes the engine write into its folder.
    plugins = (['handoff', 'answer', 'skills'] as const).map((name) => stageCopy(PLUGIN_DIRS[name], join(run.plugins, name)))
  })
  afterAll(async () => {
    await mock?.close()
  })

  for (const command of ['/compact-handoff', '/compact-handoffplan review the parser']) {
    it(`${command} says at once that the swap needs an interactive session, and no handoff turn starts`, async () => {
      const before = mock.requests.length
      const ran = await runHeadless(run, mock, command, plugins)
      expect(ran.stdout, ran.stderr).toMatch(/compact-handoff: The swap needs an interactive Claude Code session: in a -p or SDK session the engine refuses a plugin's compaction, so no handoff was written and nothing changed\./)
      expect(ran.stdout, 'said once, after the plugin name the engine prints').not.toContain('compact-handoff: compact-handoff:')
      expect(ran.code, 'a refused command exits 1').toBe(1)
      expect(mock.requests.length, 'no model request').toBe(before)
    })
  }

  // /clear starts the session's state over with no session.start: the mod puts the flag back.
  it('an SDK session refuses /compact-handoff after a /clear too', async () => {
    const before = mock.requests.length
    const ran = await runHeadless(run, mock, ['/compact-handoff status', '/clear', '/compact-handoff'], plugins)
    expect(ran.stdout).toMatch(/compact-handoff: The swap needs an interactive Claude Code session/)
    expect(mock.requests.length, 'no model request').toBe(before)
  })

  it('/compact-handoff status still answers', async () => {
    const ran = await runHeadless(run, mock, '/compact-handoff status', plugins)
    expect(ran.stdout, ran.stderr).toContain('No handoff run under way')
    expect(ran.code).toBe(0)
  })
})
