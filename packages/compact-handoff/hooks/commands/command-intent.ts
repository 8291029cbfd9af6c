// What the person asked for with /compact-handoff or /compact-handoffplan.
import type { Mode } from '../protocol/protocol.js'

export const HANDOFF_COMMAND = 'compact-handoff'
export const PLAN_COMMAND = 'compact-handoffplan'

export type Intent =
  | { kind: 'start'; mode: Mode; focus: string; apply: 'now' | 'review' }
  | { kind: 'apply' }
  | { kind: 'cancel' }
  | { kind: 'status' }
  /** Pick up a handoff in this session: the one named, or the newest with work left. */
  | { kind: 'resume'; path: string }

export function intentOf(command: string, args: string): Intent {
  const focus = args.trim().replace(/\s+/g, ' ')
  // Either command takes the control words: "/compact-handoffplan cancel" means cancel.
  if (focus === 'cancel') return { kind: 'cancel' }
  if (focus === 'status') return { kind: 'status' }
  if (focus === 'apply') return { kind: 'apply' }
  const resume = /^resume(?: |$)/.exec(focus)
  if (resume) return { kind: 'resume', path: focus.slice(resume[0].length) }
  const mode = command === PLAN_COMMAND ? 'plan' : 'handoff'
  const review = /^review(?:\s+|$)/.exec(focus)
  if (review) return { kind: 'start', mode, focus: focus.slice(review[0].length), apply: 'review' }
  return { kind: 'start', mode, focus, apply: 'now' }
}

/** What a command says when its own hook failed: nothing changed, and where to look. */
export function commandFailureTextOf(message: string | undefined): string {
  return `the command failed${message ? ` (${message})` : ''}. The conversation is unchanged; /compact-handoff status shows any run, /compact-handoff cancel drops it.`
}

/** A start in a session with no person at the prompt, said before any handoff
 * turn: the engine refuses a plugin's compaction in `-p` and SDK sessions. (The
 * engine prints a command's answer after the plugin's name.) */
export const NOT_INTERACTIVE_TEXT =
  'The swap needs an interactive Claude Code session: in a -p or SDK session the engine refuses a plugin\'s compaction, so no handoff was written and nothing changed. Run it in an interactive `claude` session; the handoff skill alone can still write a handoff file here.'
