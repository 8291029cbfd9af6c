// No secret kept: every command, path and reason recorded as a fact is masked
// by the engine's own rules (`$.session.redact`, answered beneath by world.ts
// as the engine masks) before it is kept in state, put in the stub or written
// to the swap log, which sits in the project folder beside committed handoffs.
import { describe, expect } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { CWD, HANDOFF, world, swapLogEntries, swapLogText, type World } from '../support/world.js'
import { ANSWER_STAND_IN } from '../support/answer-stand-in.js'
import { endTurn, readFile, runCommand, skillWrite, startTurn, typeCommand } from '../support/engine-calls.js'
import { readyAnswer } from '../support/texts.js'
import { finishSkill, skillWritesHandoff, startSession, typeAndLaunch } from '../support/flow.js'
import { UNMASKED_TEXT } from '../../hooks/text/mask-steps.js'

const SECRETS = ['sk-live-4f9a8b7c6d5e', 'ghp_abc123secret', 'hunter2secret', 's3cretpw', 'wJalrXUtnFEMIK7MDENG']

/** Commands holding each credential shape the engine masks, and how each reads masked. */
const COMMANDS: [string, string][] = [
  ['curl -H "Authorization: Bearer sk-live-4f9a8b7c6d5e" https://api.example.com/v1', 'curl -H "Authorization: Bearer [REDACTED]" https://api.example.com/v1'],
  ['export GITHUB_TOKEN=ghp_abc123secret', 'export GITHUB_TOKEN=[REDACTED]'],
  ['mysql --password=hunter2secret -u root', 'mysql --password=[REDACTED] -u root'],
  ['git clone https://alice:s3cretpw@git.example.com/repo.git', 'git clone https://[REDACTED]@git.example.com/repo.git'],
  ['AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENG aws s3 ls', 'AWS_SECRET_ACCESS_KEY=[REDACTED] aws s3 ls'],
]

function logText(w: World): string {
  return swapLogText(w)
}

function expectNoSecret(text: string, where: string) {
  for (const secret of SECRETS) expect(text, `${where} holds ${secret}`).not.toContain(secret)
}

describe('commands holding a credential', () => {
  test('reach the stub masked, each still named, never the credential', async ($, on) => {
    const w = world(on)
    await startSession($)
    for (const [command] of COMMANDS) await runCommand($, command)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    const stub = w.seen.compactions[0]?.instructions ?? ''
    for (const [, masked] of COMMANDS) expect(stub).toContain(`- ${masked}  → exit 0`)
    expectNoSecret(stub, 'the stub')
  })

  // A 150,000-character call crosses the kit's worker several times: slow on a loaded machine.
  test('are masked whole before they are clipped: a clip never cuts a credential short of its mask', { timeoutMs: 30_000 }, async ($, on) => {
    const w = world(on)
    await startSession($)
    // The clip at 200 characters falls inside the password: clipped first, the URL's "@" is gone and nothing masks it.
    await runCommand($, `${'x'.repeat(181)} https://alice:s3cretpw@git.example.com/repo.git`)
    // Longer than the engine masks at once: its head is masked, then clipped.
    await runCommand($, `curl -H "Authorization: Bearer sk-live-4f9a8b7c6d5e" ${'y'.repeat(150_000)}`)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    const stub = w.seen.compactions[0]?.instructions ?? ''
    expect(stub).toContain(`- curl -H "Authorization: Bearer [REDACTED]" ${'y'.repeat(20)}`)
    expect(stub).toContain(`- ${'x'.repeat(181)} https://[REDACTED] […]`)
    expectNoSecret(stub, 'the stub')
    expect(stub).not.toContain('alice:s3cr')
    expect(stub).not.toContain(UNMASKED_TEXT)
  })

  test('count as run again when the next context repeats them, compared and logged masked', { plugins: [ANSWER_STAND_IN] }, async ($, on) => {
    const w = world(on)
    await startSession($)
    await runCommand($, COMMANDS[0]![0])
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w, readyAnswer([HANDOFF], 'Go on.'))
    await startTurn($, 'Go on.', 't-next')
    await readFile($, HANDOFF)
    await runCommand($, COMMANDS[0]![0])
    await endTurn($, 'done', 'answer', undefined, 't-next')
    const report = (await typeCommand($, 'compact-handoff', 'status')).text ?? ''
    expect(report).toContain('no file re-read, 1 command re-run.')
    expect(swapLogEntries(w).at(-1)).toMatchObject({ outcome: 'meter', repeatedCommands: [COMMANDS[0]![1]] })
    expect(w.seen.toasts, 'the handoff read compares masked too').toEqual([])
    expectNoSecret(logText(w), 'the swap log')
  })
})

describe('a file path holding a credential', () => {
  test('reaches the stub masked', async ($, on) => {
    const w = world(on)
    await startSession($)
    await readFile($, 'cache/--password=hunter2secret.txt')
    await skillWrite($, 'out/export API_TOKEN=ghp_abc123secret.txt', 'x')
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    const stub = w.seen.compactions[0]?.instructions ?? ''
    expect(stub).toContain('Files read: cache/--password=[REDACTED]')
    expect(stub).toContain('out/export API_TOKEN=[REDACTED]')
    expectNoSecret(stub, 'the stub')
  })
})

describe('the swap log', () => {
  test("masks an abort's reason, which quotes the skill's own words", async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await finishSkill($, w, 'COMPACT-HANDOFF-FAILED: could not run export GITHUB_TOKEN=ghp_abc123secret')
    expect(swapLogEntries(w).at(-1)).toMatchObject({ outcome: 'aborted', reason: 'the handoff skill reported failure: could not run export GITHUB_TOKEN=[REDACTED]' })
    expectNoSecret(logText(w), 'the swap log')
  })
})

describe('a text the engine cannot mask', () => {
  test('is never kept: the stub says the command was not recorded', async ($, on) => {
    const w = world(on, { refuseRedact: true })
    await startSession($)
    await runCommand($, COMMANDS[1]![0])
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    const stub = w.seen.compactions[0]?.instructions ?? ''
    expect(stub).toContain(`- ${UNMASKED_TEXT}  → exit 0`)
    expectNoSecret(stub, 'the stub')
  })

  test("is never logged: an abort's reason says it was not recorded", async ($, on) => {
    const w = world(on, { refuseRedact: true })
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await finishSkill($, w, 'COMPACT-HANDOFF-FAILED: could not run export GITHUB_TOKEN=ghp_abc123secret')
    expect(swapLogEntries(w).at(-1)).toMatchObject({ outcome: 'aborted', reason: UNMASKED_TEXT })
    expectNoSecret(logText(w), 'the swap log')
  })
})

describe('masking', () => {
  test("costs one engine call for the distinct texts of the main loop's new calls, where the facts are read; none for a subagent's or a refused one", async ($, on) => {
    const w = world(on, { refusedPaths: [`${CWD}/src/refused.ts`] })
    await startSession($)
    /** The redact calls the status report makes, which reads the facts. */
    const masksOfStatus = async (): Promise<number> => {
      const before = w.seen.redactions
      await typeCommand($, 'compact-handoff', 'status')
      return w.seen.redactions - before
    }
    const before = w.seen.redactions
    await runCommand($, 'ls')
    await readFile($, 'src/a.ts')
    await skillWrite($, 'src/b.ts', 'x')
    await readFile($, 'src/b.ts')
    await endTurn($, 'Done.', 'answer', undefined, 't-1')
    expect(w.seen.redactions - before, 'nothing masked on a turn').toBe(0)
    const withCalls = await masksOfStatus()
    const withNone = await masksOfStatus()
    expect(withCalls - withNone, 'three texts, the path written and read once, joined in one call').toBe(1)
    await readFile($, 'src/c.ts', 'agent-1')
    await skillWrite($, 'src/refused.ts', 'x')
    await endTurn($, 'Done.', 'answer', undefined, 't-2')
    expect(await masksOfStatus()).toBe(withNone)
  })
})
