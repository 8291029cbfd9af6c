// Applies option askAfterCompaction to the main loop's tool calls. register.ts
// hooks tool.call only when the option is on, so with it off no tool call
// waits on the question.
//
// The flag itself lives in $.state (the `ask` atom, declared here beside its
// only reads and writes: the engine lists a module's state access from the
// atoms each file declares), which survives a hot reload and starts over on
// /clear. This module keeps a hint beside it so that a tool
// call with nothing pending costs no engine call (each is a worker hop): once
// the state was read as clear, calls run until a compaction arms it again. A
// hint that says more than the state (after /clear) only costs one read.
import { atom, update, type EngineInterface } from 'claude-code'
import { ASK_HEADER, CONTINUE, RUN, STOP, askVerdictOf, questionOf, type ArmingTrigger, type AskVerdict } from './ask.js'

type $ = EngineInterface

/** Option askAfterCompaction's question, armed by a compaction that was not our swap. */
type AskFlag = { kind: 'none' } | { kind: 'pending'; trigger: ArmingTrigger }

const NO_ASK: AskFlag = { kind: 'none' }

const askAtom = atom({ plugin: 'compact-handoff', key: 'ask' } as const, NO_ASK)

/** Clears the flag and returns it as it was: the caller that gets 'pending'
 * back is the one call that asks, however many race for it. */
async function takeAsk($: $): Promise<AskFlag> {
  let before: AskFlag = NO_ASK
  await update($, askAtom, (flag) => {
    before = flag
    return NO_ASK
  })
  return before
}

type Gate =
  /** The state may hold a question (a compaction armed it, or this copy just
   * loaded and has not read it): the next call reads and clears the state. */
  | { kind: 'armed' }
  /** Nothing pending: calls run without an engine call. */
  | { kind: 'open' }
  /** The question is on screen: calls that arrive meanwhile wait for its answer. */
  | { kind: 'asking'; verdict: Promise<AskVerdict> }
  /** The person said stop: every main-loop call is refused until the turn ends. */
  | { kind: 'stopped'; verdict: AskVerdict }

let gate: Gate = { kind: 'armed' }

/** At register (a reload runs it again): with the option off nothing arms the
 * question, so the gate stays open and a swap spends no engine call taking
 * back a question that cannot be there. */
export function startAskGate(isAskOn: boolean): void {
  gate = isAskOn ? { kind: 'armed' } : { kind: 'open' }
}

/** After a compaction that was not our swap replaced the main loop's conversation. */
export async function armAfterCompaction($: $, trigger: ArmingTrigger): Promise<void> {
  gate = { kind: 'armed' }
  await update($, askAtom, (): AskFlag => ({ kind: 'pending', trigger }))
}

/** Our swap replaced the conversation with its stub, which is no summary to
 * ask about: a question still armed is taken back. The hint opens before the
 * first await, so a tool call of the turn the swap starts never asks, however
 * soon it comes. Never throws: the swap must not depend on it. */
export async function disarmAfterSwap($: $): Promise<void> {
  if (gate.kind !== 'armed') return
  gate = { kind: 'open' }
  // A flag that cannot be taken stays in the state, where only a reload of this mod reads it again.
  await takeAsk($).catch(() => undefined)
}

/** Asks, if the state says a question is pending; takes it either way. A state
 * that cannot be read lets the call run: the option must never wedge the tools. */
async function askIfPending($: $): Promise<AskVerdict> {
  const flag = await takeAsk($).catch(() => NO_ASK)
  if (flag.kind !== 'pending') return RUN
  // Dismissed, or no one to ask (-p): the ask rejects, which is not a yes.
  return askVerdictOf(await $.ui.ask(questionOf(flag.trigger), { options: [CONTINUE, STOP], header: ASK_HEADER }).catch(() => undefined))
}

/** What a main-loop tool call does: run, or be refused with the verdict's text. */
export async function verdictForToolCall($: $): Promise<AskVerdict> {
  switch (gate.kind) {
    case 'open':
      return RUN
    case 'stopped':
    case 'asking':
      return gate.verdict
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
export function askTurnEnded(): void {
  if (gate.kind === 'stopped') gate = { kind: 'open' }
}
