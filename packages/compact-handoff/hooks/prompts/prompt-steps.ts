// prompt.submit: records the person's own words for every stub, and holds what
// they type while a run is under way. Measured live (2.1.332): a prompt typed
// during the skill's turn is sent to the model about 50 ms after the skill's
// answer, before turn.complete has settled, and the swap then erases both it
// and its reply, so it has to be caught here.
import type { EngineInterface } from 'claude-code'
import { isTypedByUser, type PromptInput } from '../words/user-words.js'
import { holdWords } from '../words/words-steps.js'
import { isRunPossible } from '../run/run-state.js'
import { dispatch } from '../run/run-steps.js'
import { PLAN_COMMAND, HANDOFF_COMMAND } from '../commands/command-intent.js'
import { GO_COMMAND } from '../run/run.js'

type $ = EngineInterface

const OUR_COMMANDS: ReadonlySet<string> = new Set([HANDOFF_COMMAND, PLAN_COMMAND, GO_COMMAND])

type Submitted = PromptInput & { text: string; command?: { name: string }; attachments?: readonly { type: string }[] }

/** Hold the prompt (drop it now, deliver it after the swap) or let it
 * through, its words held for the records when they are the person's own
 * (state/record-queue.ts). Whether a run holds it is decided from the phase the
 * hold meets, so a prompt typed at any moment of a swap is held or passed,
 * never lost. The person waits on this: with no run it makes no `$` call. */
export async function takePrompt($: $, prompt: Submitted): Promise<'hold' | 'pass'> {
  if (!isTypedByUser(prompt)) return 'pass'
  const command = prompt.command?.name
  // Our own commands must always run: cancel is how a person stops a run.
  if (command !== undefined && OUR_COMMANDS.has(command)) return 'pass'
  if (isRunPossible()) {
    const attachments = prompt.attachments?.map((a) => a.type)
    const { step } = await dispatch($, { kind: 'hold', text: prompt.text, isCommand: command !== undefined, ...(attachments !== undefined ? { attachments } : {}) })
    if (step.isTaken) return 'hold'
  }
  if (command === undefined) holdWords($, prompt.text)
  return 'pass'
}
