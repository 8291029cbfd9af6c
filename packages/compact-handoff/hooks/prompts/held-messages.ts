// Messages typed during a run that cannot simply be held and delivered: those
// the session's end cut short with no prompt box to give them back to (an
// exit), kept in the mod's own store outside the project and put back in the
// prompt box at the next session in that folder; and a prompt with
// attachments, let through. Pure: no `$`.

/** The store key; one list for every project, since the store is the mod's own. */
export const KEPT_KEY = 'held-at-session-end'
/** Projects kept at most; the oldest goes first. The store holds 4 MiB in all. */
export const MAX_KEPT_PROJECTS = 20

export type Kept = { cwd: string; messages: string[]; endedAt: string }

function isKept(value: unknown): value is Kept {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Partial<Kept>
  return typeof v.cwd === 'string' && typeof v.endedAt === 'string' && Array.isArray(v.messages) && v.messages.every((m) => typeof m === 'string')
}

/** The list as stored; anything that is not an entry (a hand edit) is left out. */
export function keptListOf(stored: unknown): Kept[] {
  return Array.isArray(stored) ? stored.filter(isKept) : []
}

/** The list with `messages` added for `cwd`, after any kept there before (oldest
 * first), that project moved to the newest place, and the oldest projects gone. */
export function withKept(list: readonly Kept[], cwd: string, messages: readonly string[], endedAt: string): Kept[] {
  const before = list.find((k) => k.cwd === cwd)?.messages ?? []
  const rest = list.filter((k) => k.cwd !== cwd)
  return [...rest, { cwd, messages: [...before, ...messages], endedAt }].slice(-MAX_KEPT_PROJECTS)
}

/** What is kept for `cwd`, and the list without it. */
export function takeKept(list: readonly Kept[], cwd: string): { kept: Kept | undefined; rest: Kept[] } {
  return { kept: list.find((k) => k.cwd === cwd), rest: list.filter((k) => k.cwd !== cwd) }
}

export function restoredToastOf(kept: Kept): string {
  return `compact-handoff: ${kept.messages.length} message(s) you typed during a handoff run, held when the session here ended (${kept.endedAt}), are back in the prompt box.`
}

const ATTACHMENT_WORDS: Readonly<Record<string, string>> = { image: 'an image', audio: 'an audio clip', document: 'a document' }

/** Said when a prompt with attachments went through during a run instead of
 * being held (run-machine.ts 'hold'); `attachments` are the items' kinds. */
export function letThroughTextOf(attachments: readonly string[]): string {
  const what = attachments.length === 1 ? (ATTACHMENT_WORDS[attachments[0]!] ?? 'an attachment') : `${attachments.length} attachments (${attachments.join(', ')})`
  return (
    `compact-handoff: your message carries ${what}, which a plugin cannot hold and send again, so it went to Claude now instead of being held. ` +
    'A handoff swap is under way: if it replaces the conversation after Claude answers, the new context keeps your words but not the attachment or the answer; attach it again then if it is still needed.'
  )
}
