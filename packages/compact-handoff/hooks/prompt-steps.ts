// prompt.submit: records the person's own words for every stub, and holds what
// they type while a run is under way. Measured live (2.1.332): a prompt typed
// during the skill's turn is sent to the model about 50 ms after the skill's
// answer, before turn.complete has settled, and the swap then erases both it
// and its reply, so it has to be caught here.
import type { EngineInterface } from 'claude-code'
import { isHoldingPrompts, withHeld } from './run.js'
import { isUsersOwnPrompt, withUserMessage, type PromptFacts } from './user-words.js'
import { readPhase, updatePhase, updateWords } from './state.js'

type $ = EngineInterface

const HOLD_TOAST_MS = 6_000

/** The engine leaves a dropped prompt's text in the prompt box (seen live in
 * 2.1.332: "Prompt dropped by a hook", the text still in the box), where Enter
 * would send it a second time after the swap has delivered it. Cleared once the
 * drop has landed, and only while the box holds exactly that text, so nothing
 * typed since is lost. */
async function clearHeldDraft($: $, text: string): Promise<void> {
  const box = await $.prompt.read()
  if (box.text.trim() !== '' && box.text.trim() === text.trim()) await $.prompt.fill({ text: '', mode: 'replace' })
}

/** What to do with a submitted prompt: hold it (drop it now, deliver it after
 * the swap) or let it through, recorded when it is the person's own. */
export async function takePrompt($: $, prompt: PromptFacts & { text: string }): Promise<'hold' | 'pass'> {
  if (!isUsersOwnPrompt(prompt)) return 'pass'
  const phase = await readPhase($)
  if (isHoldingPrompts(phase) && phase.kind !== 'idle') {
    const id = phase.run.id
    await updatePhase($, (p) => (p.kind !== 'idle' && p.run.id === id ? withHeld(p, prompt.text) : p))
    $.ui.toast('compact-handoff: a handoff swap is under way; your message is held and will be delivered right after it.', { timeoutMs: HOLD_TOAST_MS })
    $.clock.after(0, () => void clearHeldDraft($, prompt.text).catch(() => undefined))
    return 'hold'
  }
  await updateWords($, (words) => withUserMessage(words, prompt.text))
  return 'pass'
}
