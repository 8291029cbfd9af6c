// Applies option askAfterCompaction to the main loop's tool calls. register.ts
// hooks tool.call and turn.complete only when the option is on, so with it off
// no tool call reaches this mod at all.
//
// The flag itself lives in $.state (state.ts), which survives a hot reload
// and starts over on /clear. This module keeps a hint beside it so that a tool
// call with nothing pending costs no engine call (each is a worker hop): once
// the state was read as clear, calls run until a compaction arms it again. A
// hint that says more than the state (after /clear) only costs one read.
import type { EngineInterface } from 'claude-code'
import { ASK_HEADER, CONTINUE, RUN, STOP, questionOf, verdictOf, type ArmingTrigger, type Verdict } from './ask.js'
import { armAsk, takeAsk } from './state.js'

type $ = EngineInterface

type Gate =
  /** Just loaded: the state decides at the next call. */
  | { kind: 'unknown' }
  /** Nothing pending: calls run without an engine call. */
  | { kind: 'open' }
  /** A compaction armed the question: the next call reads and clears the state. */
  | { kind: 'armed' }
  /** The question is on screen: calls that arrive meanwhile wait for its answer. */
  | { kind: 'asking'; verdict: Promise<Verdict> }
  /** The person said stop: every main-loop call is refused until the turn ends. */
  | { kind: 'stopped'; verdict: Verdict }

let gate: Gate = { kind: 'unknown' }

/** After a compaction that was not ours replaced the main loop's conversation. */
export async function armAfterCompaction($: $, trigger: ArmingTrigger): Promise<void> {
  gate = { kind: 'armed' }
  await armAsk($, trigger)
}

/** compact-handoff swapped its stub in: the conversation is no longer a
 * summary, so a question still armed is taken back. Never throws: the swap
 * must not depend on it. */
export async function disarmAfterSwap($: $): Promise<void> {
  if (gate.kind !== 'unknown' && gate.kind !== 'armed') return
  try {
    await takeAsk($)
    if (gate.kind === 'unknown' || gate.kind === 'armed') gate = { kind: 'open' }
  } catch {
    // Left armed: the next tool call reads the state again.
  }
}

/** Asks, if the state says a question is pending; takes it either way. A state
 * that cannot be read lets the call run: the option must never wedge the tools. */
async function askIfPending($: $): Promise<Verdict> {
  let flag
  try {
    flag = await takeAsk($)
  } catch {
    return RUN
  }
  if (flag.kind !== 'pending') return RUN
  try {
    return verdictOf(await $.ui.ask(questionOf(flag.trigger), { options: [CONTINUE, STOP], header: ASK_HEADER }))
  } catch {
    // Dismissed, or no one to ask (-p): not a yes.
    return verdictOf(undefined)
  }
}

/** What a main-loop tool call does: run, or be refused with the verdict's text. */
export async function verdictForToolCall($: $): Promise<Verdict> {
  switch (gate.kind) {
    case 'open':
      return RUN
    case 'stopped':
      return gate.verdict
    case 'asking':
      return gate.verdict
    case 'unknown':
    case 'armed': {
      // Set before the first await, so a call arriving meanwhile waits on this one.
      const verdict = askIfPending($)
      const asking: Gate = { kind: 'asking', verdict }
      gate = asking
      const settled = await verdict
      // A compaction that armed a new question meanwhile keeps its own gate.
      if (gate === asking) gate = settled.kind === 'run' ? { kind: 'open' } : { kind: 'stopped', verdict: settled }
      return settled
    }
  }
}

/** A main-loop turn ended: a stop applied to that turn only. */
export function turnEnded(): void {
  if (gate.kind === 'stopped') gate = { kind: 'open' }
}
