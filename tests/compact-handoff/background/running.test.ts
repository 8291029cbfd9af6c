// What still runs when a conversation is replaced: the background shells and
// subagents named in every stub (each running, none with an exit status), the
// bounds of that section, and where the stub puts them.
import { describe, expect, test } from 'vitest'
import {
  MAX_RUNNING_AGENTS,
  MAX_RUNNING_SECTION_CHARS,
  MAX_RUNNING_SHELLS,
  backgroundTaskIdOf,
  runningAgentsOf,
  runningSectionOf,
  shellsAtTurnEndOf,
  shellsNotRecordedOf,
  withRunningSection,
  type Running,
  type RunningShell,
} from '../../../packages/compact-handoff/hooks/background/running.js'
import { NO_FACTS, factsSectionOf, withCommand } from '../../../packages/compact-handoff/hooks/facts/facts.js'
import { buildStub } from '../../../packages/compact-handoff/hooks/stub/swap-text.js'
import { recallLineOf } from '../../../packages/compact-handoff/hooks/recall/recall.js'
import { NO_WORDS } from '../../../packages/compact-handoff/hooks/words/user-words.js'
import { cpuMsOf } from '../../support/cpu-time.js'

const STARTED_MS = Date.UTC(2026, 10, 30, 12, 0, 5)
const SHELL: RunningShell = { id: 'b7k2', command: 'sleep 45; echo done', startedAtMs: STARTED_MS }
const TRANSCRIPT = '/home/me/.claude/projects/-srv-app/0f3c.jsonl'
const NOTHING_RUNNING: Running = { shells: [], agents: [] }

function agent(id: string, status: string, extra: Partial<{ startTime: number; parentId: string; spawnedBy: string; description: string }> = {}) {
  return { id, description: `review ${id}`, type: 'general-purpose', status, startTime: STARTED_MS, ...extra }
}

describe('a background command', () => {
  test("is known by the task id its result names, and a finished command's result names none", () => {
    expect(backgroundTaskIdOf({ stdout: '', stderr: '', interrupted: false, backgroundTaskId: 'b7k2' })).toBe('b7k2')
    expect(backgroundTaskIdOf({ stdout: 'done\n', stderr: '', interrupted: false })).toBeUndefined()
    expect(backgroundTaskIdOf('Exit code 1')).toBeUndefined()
    expect(backgroundTaskIdOf(undefined)).toBeUndefined()
    expect(backgroundTaskIdOf({ backgroundTaskId: '' })).toBeUndefined()
  })

  test('is a started command in the facts, never one with an exit status', () => {
    const facts = withCommand(withCommand(NO_FACTS, 'pnpm test', 0), SHELL.command, 0, SHELL.id)
    expect(facts.commands.at(-1)).toEqual({ line: SHELL.command, exitCode: null, shellId: 'b7k2' })
    const section = factsSectionOf(facts) ?? ''
    expect(section).toContain('- sleep 45; echo done  → started in the background as shell b7k2\n- pnpm test  → exit 0')
    expect(section).not.toContain('echo done  → exit')
  })
})

describe('the recorded shells', () => {
  test("a main-loop shell a turn's end lists first is recorded then, with its command; the newest kept", () => {
    const listed = Array.from({ length: MAX_RUNNING_SHELLS + 5 }, (_, i) => ({ id: `b${i}`, type: 'shell' }))
    const unknown = shellsNotRecordedOf([], [...listed, { id: 'agent-1', type: 'subagent' }])
    expect(unknown.map((t) => t.id), 'a subagent is not a shell').toEqual(listed.map((t) => t.id))
    const shells = shellsAtTurnEndOf([], listed, unknown.map((t) => ({ id: t.id, command: `job ${t.id}` })), STARTED_MS)
    expect(shells.length).toBe(MAX_RUNNING_SHELLS)
    expect(shells.at(-1)).toEqual({ id: `b${MAX_RUNNING_SHELLS + 4}`, command: `job b${MAX_RUNNING_SHELLS + 4}`, startedAtMs: STARTED_MS })
    expect(shells.some((s) => s.id === 'b0')).toBe(false)
  })

  test("a recorded shell keeps its start while listed and is dropped once a turn's end no longer lists it", () => {
    const shells = [SHELL, { ...SHELL, id: 'b8' }]
    const inFlight = [{ id: 'b8', type: 'shell' }, { id: 'agent-1', type: 'subagent' }]
    expect(shellsNotRecordedOf(shells, inFlight)).toEqual([])
    expect(shellsAtTurnEndOf(shells, inFlight, [{ id: 'b8', command: 'other words' }], STARTED_MS + 9_000)).toEqual([{ ...SHELL, id: 'b8' }])
    expect(shellsAtTurnEndOf(shells, [], [], STARTED_MS)).toEqual([])
  })
})

describe('the running subagents', () => {
  test("are the main loop's that have not ended, oldest first", () => {
    const listed = [
      agent('a-done', 'completed'),
      agent('a-late', 'running', { startTime: STARTED_MS + 1_000 }),
      agent('a-wait', 'waiting'),
      agent('a-idle', 'idle'),
      agent('a-child', 'running', { parentId: 'a-late' }),
      agent('a-plugin', 'running', { spawnedBy: 'other-mod' }),
      agent('a-new', 'pending', { startTime: STARTED_MS + 2_000 }),
    ]
    expect(runningAgentsOf(listed).map((a) => a.id)).toEqual(['a-wait', 'a-late', 'a-new'])
    expect(runningAgentsOf(listed)[0]).toEqual({ id: 'a-wait', task: 'review a-wait', type: 'general-purpose', startedAtMs: STARTED_MS })
  })

  test(`are at most ${MAX_RUNNING_AGENTS}, the newest`, () => {
    const listed = Array.from({ length: MAX_RUNNING_AGENTS + 3 }, (_, i) => agent(`a${i}`, 'running', { startTime: STARTED_MS + i }))
    const ids = runningAgentsOf(listed).map((a) => a.id)
    expect(ids.length).toBe(MAX_RUNNING_AGENTS)
    expect(ids[0]).toBe('a3')
  })
})

describe('runningSectionOf', () => {
  test('is absent when nothing runs', () => {
    expect(runningSectionOf(NOTHING_RUNNING)).toBeUndefined()
  })

  test('names each shell and subagent by id, as running, with what it was asked and when it started, newest first', () => {
    const later = { ...SHELL, id: 'b9', command: 'pnpm dev', startedAtMs: STARTED_MS + 60_000 }
    const section = runningSectionOf({ shells: [SHELL, later], agents: [{ id: 'a1', task: 'Review the parser', type: 'Explore', startedAtMs: STARTED_MS }] }) ?? ''
    expect(section.split('\n')).toEqual([
      expect.stringMatching(/^Still running in the background at this moment, newest first, recorded by code \(none has finished or has an exit status yet/),
      '- background shell b9, running, started 2026-11-30T12:01:05Z: pnpm dev',
      '- subagent a1 (Explore), running, started 2026-11-30T12:00:05Z: Review the parser',
      '- background shell b7k2, running, started 2026-11-30T12:00:05Z: sleep 45; echo done',
    ])
    expect(section).not.toMatch(/exit \d/)
  })

  test('puts a multi-line task on one clipped line, and says an unknown start time', () => {
    const task = `first line\nsecond line ${'x'.repeat(400)}`
    const section = runningSectionOf({ shells: [], agents: [{ id: 'a1', task, type: 'general-purpose', startedAtMs: 0 }] }) ?? ''
    const line = section.split('\n')[1] ?? ''
    expect(line).toMatch(/^- subagent a1 \(general-purpose\), running, start time unknown: first line second line x+ \[…\]$/)
    expect(line.length).toBeLessThan(300)
  })

  test(`never grows past ${MAX_RUNNING_SECTION_CHARS} characters, and says so`, () => {
    const shells = Array.from({ length: MAX_RUNNING_SHELLS }, (_, i) => ({ id: `b${i}`, command: `${'y'.repeat(300)} ${i}`, startedAtMs: STARTED_MS + 1_000 + i }))
    const agents = Array.from({ length: MAX_RUNNING_AGENTS }, (_, i) => ({ id: `a${i}`, task: 'z'.repeat(300), type: 'general-purpose', startedAtMs: STARTED_MS }))
    const section = runningSectionOf({ shells, agents }) ?? ''
    const lines = section.split('\n')
    const mark = lines.at(-1) ?? ''
    expect(section.length - mark.length).toBeLessThanOrEqual(MAX_RUNNING_SECTION_CHARS)
    expect(mark.length, 'the mark is bounded too').toBeLessThan(700)
    const shown = lines.filter((l) => /^- (background shell|subagent) /.test(l)).length
    const leftOut = MAX_RUNNING_SHELLS + MAX_RUNNING_AGENTS - shown
    // The ids left out are named, oldest last: the subagents started first, then the oldest shells.
    expect(mark).toMatch(new RegExp(`^- and ${leftOut} more still running, not shown: shell b\\d+, `))
    expect(mark).toMatch(/subagent a\d+/)
    expect(mark).toContain('shell b0')
    expect(section).toContain(`- background shell b${MAX_RUNNING_SHELLS - 1}, running`)
    expect(section).not.toContain('- background shell b0, running')
  })

  test('is linear in a task of 250,000 characters', () => {
    const task = `${' \t'.repeat(125_000)}x`
    const ms = cpuMsOf(() => runningSectionOf({ shells: [{ ...SHELL, command: task }], agents: [{ id: 'a', task, type: task, startedAtMs: 1 }] }))
    expect(ms, 'CPU ms, which other load does not stretch').toBeLessThan(1_000)
  })
})

describe('the stub and the resume prompt', () => {
  test('the stub carries what runs and the recall line before its closing line', () => {
    const stub = buildStub({ handoff: 'plans/handoffs/HANDOFF_x_2026-11-30.md' }, NO_WORDS, undefined, { running: { shells: [SHELL], agents: [] }, transcriptPath: TRANSCRIPT })
    const lines = stub.split('\n')
    expect(lines.at(-1)).toBe('Nothing else from before was kept. The next message says what to do.')
    expect(lines.at(-2)).toBe(recallLineOf(TRANSCRIPT))
    expect(stub).toContain(`\n\n${runningSectionOf({ shells: [SHELL], agents: [] })}\n\n`)
  })

  test('a stub with nothing running and no transcript is as before', () => {
    const files = { handoff: 'plans/handoffs/HANDOFF_x_2026-11-30.md' }
    expect(buildStub(files, NO_WORDS, undefined, { running: NOTHING_RUNNING, transcriptPath: '' })).toBe(buildStub(files, NO_WORDS))
  })

  test('the resume prompt gains the section only when something runs', () => {
    expect(withRunningSection('Resume the work.', NOTHING_RUNNING)).toBe('Resume the work.')
    expect(withRunningSection('Resume the work.', { shells: [SHELL], agents: [] })).toBe(`Resume the work.\n\n${runningSectionOf({ shells: [SHELL], agents: [] })}`)
  })
})
