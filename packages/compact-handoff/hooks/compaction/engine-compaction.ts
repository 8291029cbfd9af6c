// What this mod does with a compaction the engine raises for the main loop:
// answer it with a handoff a fork writes, hand it to the engine's summariser
// with our instructions, veto a precompute, or let it pass. Pure: the steps
// (compaction-steps.ts) read the run and apply the route.
import type { CompactionHandoff } from '../options/options.js'

/** Who asked for a compaction this mod answers with a fork: the engine at its
 * threshold, or the person's /compact. */
export type ForkTrigger = 'auto' | 'manual'

export type CompactionRoute =
  /** Not ours to touch: a subagent's or a fork's own transcript, another
   * plugin's compaction (ours never reaches our own hooks), a trigger this
   * build does not know. */
  | { kind: 'pass' }
  /** A precompute ahead of a compaction a fork will answer: its summary would
   * never be used, so no summariser request is spent on it. */
  | { kind: 'veto'; skip: string }
  /** The engine summarises, with the outline, the person's words and the work's facts. */
  | { kind: 'summary' }
  /** A fork writes the handoff that replaces the conversation; the person's
   * /compact words are its focus. */
  | { kind: 'fork'; trigger: ForkTrigger; focus: string }
  /** The engine's automatic compaction while the run's skill is writing: its
   * turn did not fit the window (run-edge.ts). A digest replaces the
   * conversation before the turn, which goes on from it. */
  | { kind: 'run-edge' }
  /** The conversation is known not to fit one more request, so a fork would
   * be refused: a request carrying its digest writes the handoff. */
  | { kind: 'digest'; trigger: ForkTrigger; focus: string }

/** What a route is decided from, as `session.compact`'s input holds it. */
export type CompactionInput = { trigger?: string; agentId?: string; instructions?: string }

export const PRECOMPUTE_SKIP =
  'compact-handoff answers the coming compaction with a handoff a fork writes: a summary computed now would never be used'

/**
 * The route for a compaction raised by the engine, while this mod's own run
 * is at `runKind` ('idle' when none). A run under way ends in its own swap, and
 * a fork's handoff written now would race it, so the engine summarises then;
 * but an automatic one while the skill writes is that turn meeting the
 * window's edge, answered with a digest whatever the option (the run is this
 * mod's own, and a summary would erase the skill's invocation).
 * A precompute prepares any coming compaction, so it is vetoed whenever a fork
 * answers the automatic one (option not off); under off the answer mod decides.
 * Where the conversation is known not to fit one more request, /compact too
 * is answered from its digest (option not off): a summary with our
 * instructions is one more request of the whole conversation.
 */
export function compactionRouteOf(input: CompactionInput, option: CompactionHandoff, runKind: string, isKnownNotToFit = false): CompactionRoute {
  if (input.agentId !== undefined) return { kind: 'pass' }
  if (input.trigger === 'precompute') return option === 'off' ? { kind: 'pass' } : { kind: 'veto', skip: PRECOMPUTE_SKIP }
  if (input.trigger !== 'auto' && input.trigger !== 'manual') return { kind: 'pass' }
  if (input.trigger === 'auto' && runKind === 'writing') return { kind: 'run-edge' }
  if (isKnownNotToFit && option !== 'off' && runKind === 'idle') return { kind: 'digest', trigger: input.trigger, focus: focusOf(input) }
  const isForked = input.trigger === 'auto' ? option !== 'off' : option === 'all'
  if (!isForked || runKind !== 'idle') return { kind: 'summary' }
  return { kind: 'fork', trigger: input.trigger, focus: focusOf(input) }
}

/** The person's /compact words; an automatic compaction has none. */
function focusOf(input: CompactionInput): string {
  return input.trigger === 'manual' ? (input.instructions ?? '').trim() : ''
}

/** Where the main loop stood when the engine compacted, read from the last
 * message of the transcript it hands over. */
export type TurnPosition =
  /** A prompt just typed, not yet answered: it stays the last user message. */
  | { kind: 'typed-prompt'; index: number }
  /** In the middle of a turn: the model had spoken, or tool results were on their way back. */
  | { kind: 'mid-turn' }
  /** Between turns: nothing is waiting. */
  | { kind: 'between-turns' }

type MessageInput = { role: 'user' | 'assistant'; toolResults?: readonly unknown[] }

/**
 * The engine compacts automatically before it sends a request: at a prompt
 * just typed (the prompt is the transcript's last message, and is gone unless
 * the hook keeps it), or inside a turn (the last message is the model's, or
 * the user message carrying tool results). A /compact runs between turns.
 */
export function turnPositionOf(messages: readonly MessageInput[], trigger: ForkTrigger): TurnPosition {
  const last = messages.at(-1)
  if (trigger !== 'auto' || last === undefined) return { kind: 'between-turns' }
  if (last.role === 'assistant' || (last.toolResults?.length ?? 0) > 0) return { kind: 'mid-turn' }
  return { kind: 'typed-prompt', index: messages.length - 1 }
}
