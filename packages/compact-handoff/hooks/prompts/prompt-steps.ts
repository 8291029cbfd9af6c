// prompt.submit: records the person's own words for every stub, and holds what
// they type while a run is under way. Measured live (2.1.332): a prompt typed
// during the skill's turn is sent to the model about 50 ms after the skill's
// answer, before turn.complete has settled, and the swap then erases both it
// and its reply, so it has to be caught here.
import type { EngineInterface } from 'claude-code'
import { isTypedByUser, withUserMessage, type PromptInput } from '../words/user-words.js'
import { changeHeldWords, readHeldWords, updateWords } from '../words/words-state.js'
import { isRunPossible } from '../run/run-state.js'
import { dispatch } from '../run/run-steps.js'
import { PLAN_COMMAND, HANDOFF_COMMAND } from '../commands/command-intent.js'
import { GO_COMMAND } from '../run/run.js'

type $ = EngineInterface

const OUR_COMMANDS: ReadonlySet<string> = new Set([HANDOFF_COMMAND, PLAN_COMMAND, GO_COMMAND])

type Submitted = PromptInput & { text: string; command?: { name: string }; attachments?: readonly { type: string }[] }

/** `recorded` never rejects: a recording that failed must not cost the person the prompt. */
export type Taken = { kind: 'hold' } | { kind: 'pass'; recorded: Promise<void> }

const NOTHING_TO_RECORD: Taken = { kind: 'pass', recorded: Promise.resolve() }

/** Hold the prompt (drop it now, deliver it after the swap) or let it
 * through, recorded when it is the person's own words. Whether a run holds it
 * is decided from the phase the hold meets, so a prompt typed at any moment of
 * a swap is held or passed, never lost. The person waits on this: with no run
 * nothing is read first, and the words are written beside the prompt. */
export async function takePrompt($: $, prompt: Submitted): Promise<Taken> {
  if (!isTypedByUser(prompt)) return NOTHING_TO_RECORD
  const command = prompt.command?.name
  // Our own commands must always run: cancel is how a person stops a run.
  if (command !== undefined && OUR_COMMANDS.has(command)) return NOTHING_TO_RECORD
  const record = (words: Promise<void>): Taken => ({ kind: 'pass', recorded: words.catch(() => undefined) })
  if (!isRunPossible()) return command === undefined ? record(updateWords($, (w) => withUserMessage(w, prompt.text))) : NOTHING_TO_RECORD
  const attachments = prompt.attachments?.map((a) => a.type)
  // The words are read beside the hold, in the same hop, and written only once the prompt is known to pass.
  const [{ step }, words] = await Promise.all([
    dispatch($, { kind: 'hold', text: prompt.text, isCommand: command !== undefined, ...(attachments !== undefined ? { attachments } : {}) }),
    command === undefined ? readHeldWords($) : undefined,
  ])
  if (step.isTaken) return { kind: 'hold' }
  return words === undefined ? NOTHING_TO_RECORD : record(changeHeldWords($, words, (w) => withUserMessage(w, prompt.text)))
}
