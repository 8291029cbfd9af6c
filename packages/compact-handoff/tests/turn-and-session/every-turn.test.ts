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
import { endTurn, readFile, runCommand, runInBackground, skillEdit, skillWrite, startTurn, submitPrompt, turnStops } from '../support/engine-calls.js'

/** The keys of compact-handoff's state writes, in order, as they pass beneath the mod. */
function stateWrites(on: On): string[] {
  const keys: string[] = []
  on('state.set', (_$, e, next) => {
    if (e.plugin === 'compact-handoff') keys.push(e.key)
    return next(e)
  })
  return keys
}

/** compact-handoff's own `$` calls, each as its event and, for state, its key,
 * as they pass beneath the mod (an event the mod raised names it as its origin). */
function engineCalls(on: On): string[] {
  const calls: string[] = []
  on('*', (_$, e, next) => {
    if (next.origin.plugin === 'compact-handoff') calls.push(next.event === 'state.get' || next.event === 'state.set' ? `${next.event}:${(e as { key: string }).key}` : next.event)
    return next(e)
  })
  return calls
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

/** Holds each of the mod's state reads and writes beneath it while armed (the
 * engine calls every record of a tool call ends with: facts/, carried/,
 * background/; the world beneath answers the rest, and one event takes one
 * hook), until the test lets them go: a call the mod awaits holds its hook up
 * with it. `writes`: the keys of the state writes, as stateWrites lists them. */
function heldCalls(on: On) {
  let isArmed = false
  let waiting: { name: string; go: () => void }[] = []
  const writes: string[] = []
  const hold = async (name: string): Promise<void> => {
    if (isArmed) await new Promise<void>((go) => waiting.push({ name, go }))
  }
  on('state.get', async (_$, e, next) => {
    await hold('state.get')
    return next(e)
  })
  on('state.set', async (_$, e, next) => {
    await hold('state.set')
    if (e.plugin === 'compact-handoff') writes.push(e.key)
    return next(e)
  })
  return {
    writes,
    arm: () => void (isArmed = true),
    held: () => waiting.map((call) => call.name),
    /** Lets every held call go, and holds no more. */
    disarm: () => {
      isArmed = false
      for (const call of waiting) call.go()
      waiting = []
    },
    /** Lets the calls held now go; calls they lead to are held again. */
    letGo: () => {
      const going = waiting
      waiting = []
      for (const call of going) call.go()
    },
  }
}

/** The engine round trips `toolCall`'s hooks wait on before its outcome comes back:
 * each round, every call held beneath is let go, until the tool call settles. */
async function roundTripsBefore(settle: () => Promise<void>, held: ReturnType<typeof heldCalls>, toolCall: Promise<unknown>): Promise<number> {
  let isSettled = false
  void toolCall.then(() => (isSettled = true))
  let trips = 0
  await settle()
  while (!isSettled && held.held().length > 0) {
    held.letGo()
    trips++
    await settle()
  }
  expect(isSettled, 'the tool call settled').toBe(true)
  return trips
}

/** An ordinary main-loop turn, no run under way: its start, its end, the classic Stop. */
async function ordinaryTurn($: Engine, turnId: string): Promise<void> {
  await startTurn($, 'fix the parser', turnId)
  await endTurn($, 'Done.', 'answer', undefined, turnId)
  await turnStops($, [])
}

/** An ordinary main-loop turn that works: a typed prompt, a Read, a command,
 * a Write and an Edit of one file, no run under way. */
async function workingTurn($: Engine, w: ReturnType<typeof world>, turnId: string): Promise<void> {
  w.writeFile(`src/parser-${turnId}.ts`, 'let x = 1')
  await submitPrompt($, `fix the parser (${turnId})`)
  await startTurn($, 'fix the parser', turnId)
  await readFile($, `src/lexer-${turnId}.ts`)
  await runCommand($, `pnpm test ${turnId}`)
  await skillWrite($, `src/parser-${turnId}.ts`, 'let x = 1')
  await skillEdit($, `src/parser-${turnId}.ts`, 'x = 1', 'x = 2')
  await endTurn($, 'Done.', 'answer', undefined, turnId)
  await turnStops($, [])
}

describe('every turn', () => {
  test("an ordinary working turn's engine calls: the words read and written once, at the turn's end, and the usage", async ($, on) => {
    const calls = engineCalls(on)
    const w = world(on)
    await startSession($)
    await workingTurn($, w, 't-1')
    await w.clock.settle()
    calls.length = 0
    await workingTurn($, w, 't-2')
    await w.clock.settle()
    // The words read and written once, then the usage the turn's end reads;
    // the calls' facts are read from the conversation where they are read,
    // not on a turn; no meter window, no nudge due and no figure told or to
    // tell: nothing more.
    expect([...calls].sort(), 'the calls of one ordinary turn').toEqual(['state.get:words', 'state.set:words', 'session.usage'].sort())
  })

  test("with the auto handoff on, a turn's end below its threshold reads the usage alone", { options: { autoHandoffPercent: 80 } }, async ($, on) => {
    const calls = engineCalls(on)
    world(on, { contextPercent: 30 })
    await startSession($)
    await ordinaryTurn($, 't-1')
    calls.length = 0
    await ordinaryTurn($, 't-2')
    expect(calls, 'no subagent list, no read of whether a person is at the prompt').toEqual(['session.usage'])
  })

  test('a typed prompt with no run under way writes the words alone, once its turn ends', async ($, on) => {
    const writes = stateWrites(on)
    world(on)
    await startSession($)
    writes.length = 0
    await submitPrompt($, 'fix the parser')
    await ordinaryTurn($, 't-1')
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
    await turnStops($, ['b1'])
    expect(reads, 'a shell listed: the recorded ones are read').toContain('shells')
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

  test("a turn's calls write nothing: their facts are read from the conversation where the facts are read", async ($, on) => {
    const writes = stateWrites(on)
    const w = world(on)
    await startSession($)
    await ordinaryTurn($, 't-1')
    writes.length = 0
    await readFile($, 'src/lexer.ts')
    await runCommand($, 'pnpm test parser')
    await skillWrite($, 'src/parser.ts', 'code')
    await skillEdit($, 'src/parser.ts', 'code', 'more code')
    await w.clock.settle()
    await ordinaryTurn($, 't-2')
    expect(writes).toEqual([])
  })

  test('a typed prompt with no run under way goes on before its words are written; they are written after', async ($, on) => {
    const held = heldCalls(on)
    const { writes } = held
    const w = world(on)
    await startSession($)
    await ordinaryTurn($, 't-1')
    await w.clock.settle()
    writes.length = 0
    held.arm()
    expect(await roundTripsBefore(() => w.clock.settle(), held, submitPrompt($, 'fix the lexer too')), 'a typed prompt').toBe(0)
    held.disarm()
    await ordinaryTurn($, 't-2')
    expect(writes, 'the words still written').toEqual(['words'])
  })

  test("a tool call's outcome comes back before any engine call; the rare records are written after", async ($, on) => {
    const held = heldCalls(on)
    const { writes } = held
    const w = world(on)
    await startSession($)
    await ordinaryTurn($, 't-1')
    await readFile($, 'src/parser.ts')
    await w.clock.settle()
    writes.length = 0
    held.arm()
    const settle = () => w.clock.settle()
    expect(await roundTripsBefore(settle, held, readFile($, 'src/lexer.ts')), 'a new Read').toBe(0)
    expect(await roundTripsBefore(settle, held, runCommand($, 'pnpm test parser')), 'a command').toBe(0)
    expect(await roundTripsBefore(settle, held, runInBackground($, 'pnpm dev')), 'a command moved to the background').toBe(0)
    expect(await roundTripsBefore(settle, held, skillWrite($, 'src/parser.ts', 'code')), 'a Write').toBe(0)
    expect(await roundTripsBefore(settle, held, $.tool.call({ tool: 'ToolSearch', query: 'select:WebFetch' })), 'a ToolSearch').toBe(0)
    held.disarm()
    await w.clock.settle()
    expect(writes, 'the rare records written at once').toEqual(['loadedTools'])
    await endTurn($, 'Done.', 'answer', undefined, 't-2')
    expect(writes, 'the facts are read from the conversation, not written on a turn').toEqual(['loadedTools'])
    await turnStops($, ['b1'])
    // Its command is found among the conversation's calls: they are folded into the facts first.
    expect(writes, "the shell recorded once a turn's end lists it").toEqual(['loadedTools', 'work', 'shells'])
  })
})
