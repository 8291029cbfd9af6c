// What the person typed during a run, given back when the run ends without its
// swap: into the prompt box (always appended after what is there), sent as
// typed, or kept in the mod's store for the next session in the folder
// (held-messages.ts decides the store's list).
import type { EngineInterface } from 'claude-code'
import type { Run } from '../run/run.js'
import type { GiveBack } from '../run/run-machine.js'
import { readPhase } from '../state.js'
import { KEPT_KEY, keptListOf, restoredToastOf, takeKept, withKept } from './held-messages.js'

type $ = EngineInterface

const RESTORE_TOAST_MS = 10_000

/** Puts `text` after the draft in the prompt box, a blank line between them,
 * so nothing typed there is overwritten. Whether the box took it. */
export async function appendToBox($: $, text: string): Promise<boolean> {
  const box = await $.prompt.read().catch(() => ({ text: '' }))
  const filled = await $.prompt.fill({ text: box.text.trim() === '' ? text : `\n\n${text}`, mode: 'append' }).catch(() => undefined)
  return filled?.isFilled === true
}

/** The person's messages verbatim, as typed, in the mod's store under the
 * user's own Claude Code folder (beside the transcripts that hold them
 * already), never in the project: they go back into the person's prompt box. */
async function keepHeld($: $, cwd: string, messages: readonly string[]): Promise<boolean> {
  try {
    const endedAt = new Date(await $.clock.now()).toISOString()
    await $.store.set(KEPT_KEY, withKept(keptListOf(await $.store.get(KEPT_KEY)), cwd, messages, endedAt))
    return true
  } catch (error) {
    $.ui.log(`could not keep the held messages (${error instanceof Error ? error.message : String(error)}): ${messages.join(' / ')}`, { to: 'debug' })
    return false
  }
}

/** Where the held messages went: `note` for the person (it may quote them),
 * `logNote` for the swap log in the project (never their text). */
export type GivenBack = { note: string; logNote: string }

/** Gives what a dropped run held back to the person, never silently lost, by
 * `to` (run-machine.ts GiveBack), and says where. */
export async function giveBackHeld($: $, run: Run, to: GiveBack): Promise<GivenBack> {
  const all = [...run.held, ...run.heldCommands]
  const n = all.length
  if (n === 0) return { note: '', logNote: '' }
  const said = (note: string, where: string): GivenBack => ({ note, logNote: `; ${n} held message(s) ${where}` })
  if (to !== 'keep' && (await appendToBox($, all.join('\n\n')))) return said(` Your ${n} held message(s) are back in the prompt box.`, 'given back in the prompt box')
  if (to === 'box') {
    let sent = 0
    for (const text of run.held) if (await $.prompt.submit({ text, asUser: true }).then(() => true, () => false)) sent++
    return sent === n
      ? said(` Your ${n} held message(s) were sent as you wrote them.`, 'sent as typed')
      : said(` ${n - sent} of your held message(s) could not be put back: ${all.join(' / ')}`, `not given back (${n - sent})`)
  }
  return (await keepHeld($, run.cwd, all))
    ? said(` Your ${n} held message(s) are kept for the next session in ${run.cwd}, which puts them back in its prompt box.`, "kept in compact-handoff's store for the next session in this folder")
    : said(` Your ${n} held message(s) could not be kept.`, 'could not be kept')
}

/** At the start of an interactive session: what an earlier session in this
 * folder held when it ended goes back in the prompt box, and leaves the store
 * only once the box took it. */
export async function restoreKept($: $): Promise<void> {
  const stored = keptListOf(await $.store.get(KEPT_KEY))
  if (stored.length === 0) return
  const { kept, rest } = takeKept(stored, await $.session.cwd())
  if (kept === undefined || !(await appendToBox($, kept.messages.join('\n\n')))) return
  await $.store.set(KEPT_KEY, rest)
  $.ui.toast(restoredToastOf(kept), { timeoutMs: RESTORE_TOAST_MS })
}

/** The engine leaves a dropped prompt's text in the prompt box (seen live in
 * 2.1.332: "Prompt dropped by a hook", the text still in the box), where Enter
 * would send it a second time after the swap has delivered it. Cleared once the
 * drop has landed, only while the box holds exactly that text, so nothing typed
 * since is lost, and only while the run still holds it: once the run gave it
 * back, the box's copy is the only one. */
export async function clearHeldDraft($: $, text: string): Promise<void> {
  const [box, phase] = await Promise.all([$.prompt.read(), readPhase($)])
  const isStillHeld = phase.kind !== 'idle' && [...phase.run.held, ...phase.run.heldCommands].includes(text)
  if (isStillHeld && box.text.trim() !== '' && box.text.trim() === text.trim()) await $.prompt.fill({ text: '', mode: 'replace' })
}
