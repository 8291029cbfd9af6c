// What the person typed during a run: kept in the mod's store from the moment
// it is held (so a killed session leaves it), and given back when the run ends
// without its swap: into the prompt box, sent as typed, or left in the store
// for the next session in the folder (held-messages.ts decides the entries).
import type { EngineInterface, Timer } from 'claude-code'
import { TOASTS } from '../text/toasts.js'
import { showToast } from '../text/toast-steps.js'
import type { Phase, Run } from './run.js'
import type { GiveBack } from './run-machine.js'
import { readPhase } from './run-state.js'
import { HEARTBEAT_MS, byHeldAt, heldBeatKeyOf, heldBeatKeyOfEntryKey, heldBeatOf, heldCharsOf, heldEntryOf, heldFolderPrefixOf, heldKeyOf, heldKeysToDrop, isHeldKey, isInBox, orphanedInMsOf, restoredToastOf, type HeldEntry } from './held-messages.js'
import { messageOf } from '../text/text-clip.js'

type $ = EngineInterface

const RESTORE_TOAST_MS = 10_000
const NOT_KEPT_TOAST_MS = 10_000
/** How long after a hold the box is watched for the dropped text, and how often (clearHeldDraft). */
export const DRAFT_WATCH_MS = 5_000
const DRAFT_RECHECK_MS = 200
/** Past the moment another session's entry would be orphaned, when this
 * session looks again: its owner's beat may be on its way. */
const RECHECK_SLACK_MS = 1_000

/** After the draft in the prompt box, so nothing typed there is overwritten,
 * each once (the engine may have put a dropped prompt back). Whether the box holds them all. */
export async function giveToBox($: $, messages: readonly string[]): Promise<boolean> {
  const box = await $.prompt.read().catch(() => ({ text: '' }))
  const missing = messages.filter((m) => !isInBox(box.text, m))
  if (missing.length === 0) return true
  const text = missing.join('\n\n')
  const filled = await $.prompt.fill({ text: box.text.trim() === '' ? text : `\n\n${text}`, mode: 'append' }).catch(() => undefined)
  return filled?.isFilled === true
}

// Every change of this session's entry waits for the one before it, so an
// older list never lands after a newer one.
let heldTurn: Promise<unknown> = Promise.resolve()

function afterEarlierHeld<T>(change: () => Promise<T>): Promise<T> {
  const done = heldTurn.then(change, change)
  heldTurn = done.catch(() => undefined)
  return done
}

// The key each folder's entry was kept under: /clear and /resume give the
// process another session id before the messages are given back.
const keptUnder = new Map<string, string>()

// This session's heartbeat while it holds messages (a hot reload stops `every`
// timers and empties this; session.start beats again).
let beat: { timer: Timer; key?: string } | undefined

/** No write now: the entry's own `heldAt`, just set, is the first sign of life. */
function startBeat($: $): void {
  if (beat === undefined) beat = { timer: $.clock.every(HEARTBEAT_MS, () => void beatOnce($).catch(() => undefined)) }
}

/** One beat, in turn with the entry's changes, under the session id the
 * engine names now; once the run holds nothing, the beat stops and its key goes. */
async function beatOnce($: $): Promise<void> {
  await afterEarlierHeld(async () => {
    if (heldNow(await readPhase($)).length === 0) return stopBeat($)
    const [key, nowMs] = await Promise.all([$.session.id().then(heldBeatKeyOf), $.clock.now()])
    if (beat === undefined) return
    if (beat.key !== undefined && beat.key !== key) await $.store.delete(beat.key)
    beat.key = key
    await $.store.set(key, nowMs)
  })
}

async function stopBeat($: $): Promise<void> {
  if (beat === undefined) return
  const { timer, key } = beat
  beat = undefined
  timer.cancel()
  if (key !== undefined) await $.store.delete(key)
}

/** At session.start: a run that still holds messages (a hot reload keeps the
 * run's state, not its timers) beats again. Nothing held: no timer, no write. */
export async function resumeBeat($: $): Promise<void> {
  if (heldNow(await readPhase($)).length > 0) startBeat($)
}

/** What the run in `phase` holds: typed prompts, then commands. */
function heldNow(phase: Phase): string[] {
  return phase.kind === 'idle' ? [] : [...phase.run.held, ...phase.run.heldCommands]
}

/** First drops the oldest entries of other sessions the budget has no room for. */
async function setEntry($: $, key: string, entry: HeldEntry): Promise<boolean> {
  const chars = heldCharsOf(key, entry)
  const others: { key: string; chars: number; heldAt: string }[] = []
  for (const other of await $.store.keys()) {
    if (other === key || !isHeldKey(other)) continue
    const found = heldEntryOf(await $.store.get(other))
    others.push({ key: other, chars: found === undefined ? 0 : heldCharsOf(other, found), heldAt: found?.heldAt ?? '' })
  }
  const toDrop = heldKeysToDrop(others, chars)
  if (toDrop === undefined) {
    $.ui.log(`the held messages are too long to keep in compact-handoff's store (${chars} characters): they stay only in this session`, { to: 'debug' })
    return false
  }
  for (const other of toDrop) await $.store.delete(other)
  await $.store.set(key, entry)
  return true
}

/** After a message is held: this session's entry is what its run holds now
 * (read inside the queue, so the newest list is the one set). One that cannot
 * be kept is said at once: the run still delivers it, but an exit or a crash
 * before then would lose it. */
export async function keepHeldNow($: $): Promise<void> {
  const isKept = await afterEarlierHeld(async () => {
    const phase = await readPhase($)
    const messages = heldNow(phase)
    if (phase.kind === 'idle' || messages.length === 0) return true
    const [sessionId, nowMs] = await Promise.all([$.session.id(), $.clock.now()])
    const key = await heldKeyOf(sessionId, phase.run.cwd)
    keptUnder.set(phase.run.cwd, key)
    const isSet = await setEntry($, key, { cwd: phase.run.cwd, messages, heldAt: new Date(nowMs).toISOString() })
    if (isSet) startBeat($)
    return isSet
  }).catch((error: unknown) => {
    $.ui.log(`could not keep the held messages in compact-handoff's store (${messageOf(error)})`, { to: 'debug' })
    return false
  })
  if (!isKept) showToast($, TOASTS.notKept(), NOT_KEPT_TOAST_MS)
}

/** Once what the run held was delivered or given back: its entry goes. */
export async function forgetHeld($: $, cwd: string): Promise<void> {
  await afterEarlierHeld(async () => {
    const keys = new Set([await heldKeyOf(await $.session.id(), cwd), ...(keptUnder.has(cwd) ? [keptUnder.get(cwd)!] : [])])
    keptUnder.delete(cwd)
    for (const key of keys) await $.store.delete(key)
    await stopBeat($)
  }).catch((error: unknown) => $.ui.log(`could not clear the held messages from compact-handoff's store (${messageOf(error)})`, { to: 'debug' }))
}

/** At a session's end with no prompt box: the entry, marked ended, stays for
 * the next session in the folder. Set while they were held already, so a
 * refused set here loses nothing that was kept then. */
async function keepHeld($: $, cwd: string, messages: readonly string[]): Promise<boolean> {
  const key = keptUnder.get(cwd) ?? (await heldKeyOf(await $.session.id().catch(() => 'unknown-session'), cwd))
  try {
    const endedAt = new Date(await $.clock.now()).toISOString()
    // `endedAt` is the session-end record: another session takes the entry at once.
    return await afterEarlierHeld(async () => {
      const isSet = await setEntry($, key, { cwd, messages: [...messages], heldAt: endedAt, endedAt })
      if (isSet) await stopBeat($)
      return isSet
    })
  } catch (error) {
    const kept = heldEntryOf(await $.store.get(key).catch(() => undefined))
    if (kept !== undefined && messages.every((m) => kept.messages.includes(m))) return true
    $.ui.log(`could not keep the held messages (${messageOf(error)}): ${messages.join(' / ')}`, { to: 'debug' })
    return false
  }
}

/** Where the held messages went: `note` for the person (it may quote them),
 * `logNote` for the swap log in the project (never their text). */
export type GivenBack = { note: string; logNote: string }

/** Never silently lost: says where it went. */
export async function giveBackHeld($: $, run: Run, to: GiveBack): Promise<GivenBack> {
  const all = [...run.held, ...run.heldCommands]
  const n = all.length
  if (n === 0) return { note: '', logNote: '' }
  const said = (note: string, where: string): GivenBack => ({ note, logNote: `; ${n} held message(s) ${where}` })
  if (to !== 'keep' && (await giveToBox($, all))) {
    await forgetHeld($, run.cwd)
    return said(` Your ${n} held message(s) are back in the prompt box.`, 'given back in the prompt box')
  }
  if (to === 'box') {
    let sent = 0
    for (const text of run.held) if (await $.prompt.submit({ text, asUser: true }).then(() => true, () => false)) sent++
    if (sent === n) {
      await forgetHeld($, run.cwd)
      return said(` Your ${n} held message(s) were sent as you wrote them.`, 'sent as typed')
    }
    return said(` ${n - sent} of your held message(s) could not be put back: ${all.join(' / ')}`, `not given back (${n - sent})`)
  }
  return (await keepHeld($, run.cwd, all))
    ? said(` Your ${n} held message(s) are kept for the next session in ${run.cwd}, which puts them back in its prompt box.`, "kept in compact-handoff's store for the next session in this folder")
    : said(` Your ${n} held message(s) could not be kept.`, 'could not be kept')
}

// The one look again this session has scheduled at another session's entries
// (module memory: a hot reload's session.start looks at once anyway).
let recheck: Timer | undefined

/** At the start of an interactive session, and again while another session
 * here still holds messages: what other sessions in this folder held and
 * never delivered goes back in the prompt box, oldest first, and leaves the
 * store only once the box took it. Only an entry whose owner is known to be
 * gone (it ended, or its heartbeat stopped) is taken; a live owner's is looked
 * at again once it would be orphaned. This session's own entry is its run's. */
export async function restoreKept($: $): Promise<void> {
  await afterEarlierHeld(async () => {
    const [cwd, sessionId, keys, nowMs] = await Promise.all([$.session.cwd(), $.session.id(), $.store.keys(), $.clock.now()])
    const [prefix, ownKey] = await Promise.all([heldFolderPrefixOf(cwd), heldKeyOf(sessionId, cwd)])
    const found: { key: string; entry: HeldEntry }[] = []
    let waitMs: number | undefined
    for (const key of keys) {
      if (!key.startsWith(prefix) || key === ownKey) continue
      const entry = heldEntryOf(await $.store.get(key))
      // The digest names the folder; the entry's own path confirms it.
      if (entry === undefined || entry.cwd !== cwd) continue
      const beatMs = entry.endedAt === undefined ? heldBeatOf(await $.store.get(heldBeatKeyOfEntryKey(key))) : undefined
      const orphanedInMs = orphanedInMsOf(entry, beatMs, nowMs)
      if (orphanedInMs === 0) found.push({ key, entry })
      else waitMs = Math.min(waitMs ?? orphanedInMs, orphanedInMs)
    }
    if (waitMs !== undefined && recheck === undefined) {
      recheck = $.clock.after(waitMs + RECHECK_SLACK_MS, () => {
        recheck = undefined
        void restoreKept($).catch(() => undefined)
      })
    }
    const entries = found.map((f) => f.entry).sort(byHeldAt)
    if (entries.length === 0) return
    if (!(await giveToBox($, entries.flatMap((e) => e.messages)))) return
    for (const { key } of found) await Promise.all([$.store.delete(key), $.store.delete(heldBeatKeyOfEntryKey(key))])
    showToast($, TOASTS.restored(entries.reduce((sum, e) => sum + e.messages.length, 0), restoredToastOf(entries)), RESTORE_TOAST_MS)
  })
}

/** The engine leaves a dropped prompt's text in the prompt box (seen live in
 * 2.1.332), where Enter would send it a second time after the swap has
 * delivered it. It puts the text back once the prompt.submit chain has
 * answered, which under load lands after a first read of the box (issue 39),
 * so the box is read again for DRAFT_WATCH_MS and cleared once it holds
 * exactly that text (nothing typed since is lost), while the run still holds
 * it: once the run gave it back, the box's copy is the only one. */
export async function clearHeldDraft($: $, text: string, watchedMs = 0): Promise<void> {
  const [box, phase] = await Promise.all([$.prompt.read(), readPhase($)])
  if (!heldNow(phase).includes(text)) return
  // The box is emptied at Enter, so the text seen there is the drop landed: cleared, the watch ends.
  if (box.text.trim() !== '' && box.text.trim() === text.trim()) {
    await $.prompt.fill({ text: '', mode: 'replace' })
    return
  }
  if (watchedMs < DRAFT_WATCH_MS) $.clock.after(DRAFT_RECHECK_MS, () => void clearHeldDraft($, text, watchedMs + DRAFT_RECHECK_MS).catch(() => undefined))
}
