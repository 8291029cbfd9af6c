/**
 * What each of one mod's hooks costs a dispatch, read from outside the mods: the engine's
 * debug log names every hook as it settles, with its time, `next()` (the hooks beneath and
 * the engine's own step) included. Two mods that hook the same events above the same
 * built-ins differ by what their hooks do themselves, the hop to the mods' worker included.
 */
import { escapeRe } from '../escape-re.js'

/** Each event's settle times, in the order the log holds them. */
export type HookSettles = Record<string, number[]>

/** The settle times of the hooks of the mod named `plugin`, by event, from a debug log. */
export function hookSettlesOf(log: string, plugin: string): HookSettles {
  const line = new RegExp(`^\\S+Z \\[DEBUG\\] hooks module ${escapeRe(plugin)}@\\S+ (\\S+) settled in ([\\d.]+)ms`, 'gm')
  const settles: HookSettles = {}
  for (const [, event, ms] of log.matchAll(line)) (settles[event!] ??= []).push(Number(ms))
  return settles
}

/** `more`'s settle times added to `into`'s. */
export function addSettles(into: HookSettles, more: HookSettles): void {
  for (const [event, times] of Object.entries(more)) (into[event] ??= []).push(...times)
}
