// What compact-handoff writes on the hooks every turn passes through: only what
// changed. Each state write is an engine hop a turn waits on (the typed prompt's
// before its request, a tool call's before the next request), so a write of an
// unchanged value is time the person feels for nothing.
import { describe, expect, type Engine } from 'claude-code/testing'
import type { On } from 'claude-code'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { HANDOFF, world } from '../support/world.js'
import { startSession } from '../support/flow.js'
import { endTurn, readFile, runCommand, runInBackground, skillWrite, startTurn, submitPrompt, turnStops } from '../support/engine-calls.js'

/** The keys of compact-handoff's state writes, in order, as they pass beneath the mod. */
function stateWrites(on: On): string[] {
  const keys: string[] = []
  on('state.set', (_$, e, next) => {
    if (e.plugin === 'compact-handoff') keys.push(e.key)
    return next(e)
  })
  return keys
}

/** The keys of compact-handoff's state reads, as they pass beneath the mod. */
function stateReads(on: On): string[] {
  const keys: string[] = []
  on('state.get', (_$, e, next) => {
    if (e.plugin === 'compact-handoff') keys.push(e.key)
    return next(e)
  })
  return keys
}

/** An ordinary main-loop turn, no run under way: its start, its end, the classic Stop. */
async function ordinaryTurn($: Engine, turnId: string): Promise<void> {
  await startTurn($, 'fix the parser', turnId)
  await endTurn($, 'Done.', 'answer', undefined, turnId)
  await turnStops($, [])
}

describe('every turn', () => {
  test('a typed prompt with no run under way writes the words alone', async ($, on) => {
    const writes = stateWrites(on)
    world(on)
    await startSession($)
    writes.length = 0
    await submitPrompt($, 'fix the parser')
    expect(writes, 'the run is read, not written: a prompt that passes leaves the phase as it was').toEqual(['words'])
  })

  test("an ordinary turn's start and end write nothing when nothing changed", async ($, on) => {
    const writes = stateWrites(on)
    world(on)
    await startSession($)
    await ordinaryTurn($, 't-1')
    writes.length = 0
    await ordinaryTurn($, 't-2')
    expect(writes, 'no run, no meter window, the figure and the nudge as they were').toEqual([])
  })

  test("a turn's end reads no shells once a read found none, and reads them again once one was started", async ($, on) => {
    const reads = stateReads(on)
    world(on)
    await startSession($)
    await ordinaryTurn($, 't-1')
    reads.length = 0
    await ordinaryTurn($, 't-2')
    expect(reads.filter((key) => key === 'shells'), 'none recorded: nothing to drop, nothing read').toEqual([])
    await runInBackground($, 'pnpm dev')
    reads.length = 0
    await turnStops($, [])
    expect(reads, 'a shell was recorded: its end is looked for').toContain('shells')
  })

  test('with no run under way, a typed prompt, a Write of a handoff and a turn read no phase once one read found none', async ($, on) => {
    const reads = stateReads(on)
    world(on)
    await startSession($)
    await ordinaryTurn($, 't-1')
    reads.length = 0
    await submitPrompt($, 'fix the parser')
    await skillWrite($, HANDOFF, '# Handoff')
    await ordinaryTurn($, 't-2')
    expect(reads.filter((key) => key === 'run'), 'nothing for them to move: the phase is not read').toEqual([])
  })

  test('a Read of the file read last writes nothing; a new file, a command and a change each write once', async ($, on) => {
    const writes = stateWrites(on)
    world(on)
    await startSession($)
    await readFile($, 'src/parser.ts')
    writes.length = 0
    await readFile($, 'src/parser.ts')
    expect(writes, 'the same Read again records nothing new').toEqual([])
    await readFile($, 'src/lexer.ts')
    await runCommand($, 'pnpm test parser')
    await skillWrite($, 'src/parser.ts', 'code')
    expect(writes).toEqual(['work', 'work', 'work'])
  })
})
