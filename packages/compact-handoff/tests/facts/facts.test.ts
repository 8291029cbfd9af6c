// The work's facts recorded by code: from main-loop tool calls only, carried in
// the stub with the files the handoff never mentions, and the meter that counts
// what the next context re-does.
import { describe, expect } from 'claude-code/testing'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { CWD, HANDOFF, world, swapLogEntries } from '../support/world.js'
import { ANSWER_STAND_IN } from '../support/answer-stand-in.js'
import { endTurn, readFile, runCommand, skillWrite, startTurn, typeCommand } from '../support/engine-calls.js'
import { readyAnswer } from '../support/texts.js'
import { skillWritesHandoff, startSession, typeAndLaunch } from '../support/flow.js'
import { TOASTS } from '../../hooks/text/toasts.js'

describe('the facts in the stub', () => {
  test('name the files changed and read and the commands with their exit status, newest first', async ($, on) => {
    const w = world(on)
    await startSession($)
    await readFile($, 'src/parser.ts')
    await skillWrite($, 'src/parser.ts', 'code')
    await runCommand($, 'pnpm test parser')
    await runCommand($, 'fail-the-linter')
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    const stub = w.seen.compactions[0]?.instructions ?? ''
    expect(stub).toContain('Files changed: src/parser.ts')
    expect(stub).toContain('Files read: src/parser.ts')
    expect(stub).toContain('Last commands, newest first:\n- fail-the-linter  → exit 1\n- pnpm test parser  → exit 0')
  })

  test('name the files changed this session that the handoff never mentions', async ($, on) => {
    const w = world(on)
    await startSession($)
    await skillWrite($, 'src/parser.ts', 'code')
    await skillWrite($, 'src/cache.ts', 'code')
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    expect(w.seen.compactions[0]?.instructions).toContain('Changed this session, not in the handoff: src/cache.ts\n')
  })

  test("leave out a subagent's calls and refused or failed ones", async ($, on) => {
    const w = world(on, { refusedPaths: [`${CWD}/src/refused.ts`], failedPaths: [`${CWD}/src/missing.ts`] })
    await startSession($)
    await readFile($, 'src/by-agent.ts', 'agent-1')
    await skillWrite($, 'src/by-agent.ts', 'x', 'agent-1')
    await skillWrite($, 'src/refused.ts', 'x')
    await readFile($, 'src/missing.ts')
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    const stub = w.seen.compactions[0]?.instructions ?? ''
    expect(stub).not.toContain('by-agent')
    expect(stub).not.toContain('refused.ts')
    expect(stub).not.toContain('missing.ts')
  })

  test('count each command once, however often the facts are read from one conversation', async ($, on) => {
    const w = world(on)
    await startSession($)
    await runCommand($, 'pnpm build')
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    await runCommand($, 'pnpm test')
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    expect(w.seen.compactions[1]?.instructions).toContain('Last commands, newest first:\n- pnpm test  → exit 0\n- pnpm build  → exit 0\n\n')
  })

  test('keep only the newest 40 changed files and 20 commands', async ($, on) => {
    const w = world(on)
    await startSession($)
    for (let i = 0; i < 45; i++) await skillWrite($, `src/f${i}.ts`, 'x')
    for (let i = 0; i < 25; i++) await runCommand($, `step ${i}`)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w)
    const stub = w.seen.compactions[0]?.instructions ?? ''
    // The 40 newest changes include the handoff itself, written last and named above the facts.
    expect(stub).toContain('Files changed: src/f44.ts, src/f43.ts')
    expect(stub).toContain(', src/f6.ts\n')
    expect(stub).not.toContain('src/f5.ts')
    expect(stub).toContain('- step 24  → exit 0')
    expect(stub).toContain('- step 5  → exit 0')
    expect(stub).not.toContain('- step 4  →')
  })
})

describe('the rediscovery meter', () => {
  test('logs what the context re-read and re-ran after the swap when the status report is asked for', { plugins: [ANSWER_STAND_IN] }, async ($, on) => {
    const w = world(on)
    await startSession($)
    await readFile($, 'src/parser.ts')
    await readFile($, 'README.md')
    await runCommand($, 'pnpm test')
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w, readyAnswer([HANDOFF], 'Go on.'))
    // The next context: reads the handoff, re-reads one file, re-runs the command.
    await startTurn($, 'Go on.', 't-next')
    await readFile($, HANDOFF)
    await readFile($, 'src/parser.ts')
    await readFile($, 'src/new.ts')
    await runCommand($, 'pnpm test')
    await endTurn($, 'done', 'answer', undefined, 't-next')
    const report = (await typeCommand($, 'compact-handoff', 'status')).text ?? ''
    // The handoff's path keeps its end (its file name) within the report's row.
    expect(report).toContain(`Since “…${HANDOFF.slice(-30)}”: 1 file re-read, 1 command re-run.`)
    expect(swapLogEntries(w).at(-1)).toMatchObject({ outcome: 'meter', files: [HANDOFF], reReads: ['src/parser.ts'], repeatedCommands: ['pnpm test'] })
    expect(w.seen.toasts, 'the handoff was read').toEqual([])
  })

  test('closes by itself after ten turns', { plugins: [ANSWER_STAND_IN] }, async ($, on) => {
    const w = world(on)
    await startSession($)
    await readFile($, 'a.ts')
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w, readyAnswer([HANDOFF], 'Go on.'))
    await readFile($, HANDOFF)
    await readFile($, 'a.ts')
    for (let i = 0; i < 9; i++) await endTurn($, 'x', 'answer', undefined, `t${i}`)
    expect(swapLogEntries(w).filter((e) => e.outcome === 'meter')).toEqual([])
    await endTurn($, 'x', 'answer', undefined, 't9')
    expect(swapLogEntries(w).filter((e) => e.outcome === 'meter')).toEqual([expect.objectContaining({ reReads: ['a.ts'], repeatedCommands: [] })])
  })

  test('says so when the first turn after the swap did not read the handoff', { plugins: [ANSWER_STAND_IN] }, async ($, on) => {
    const w = world(on)
    await startSession($)
    await typeAndLaunch($, w, 'compact-handoff', '')
    await skillWritesHandoff($, w, readyAnswer([HANDOFF], 'Go on.'))
    await endTurn($, 'I did something else', 'answer', undefined, 't-next')
    expect(w.seen.toasts.at(-1)).toBe(TOASTS.unreadHandoff(HANDOFF).text)
    expect(w.seen.toasts.at(-1)).toMatch(/^Claude did not read the handoff after the swap; ask it to read /)
    expect(swapLogEntries(w).at(-1)).toMatchObject({ outcome: 'handoff-unread', files: [HANDOFF] })
  })
})
