// The text the recall tool answers with, from what the search found and each
// hit's texts once masked: newest first, each entry named (a tool result by its
// call and how it ended, a message by who wrote it), its window verbatim in a
// fence, then how many more matched. Bounded: MAX_ENTRIES windows of
// WINDOW_CHARS and their lines, far under what a Read returns.
//
// Masked first, cut after: the excerpt and the call's text go to the engine's
// masking whole, and the window and the call's line are cut from what it gave
// back. Cut first, a PEM block whose END line lies past the cut, a bearer
// token whose header does, or a URL whose `@` does, escapes the engine's
// patterns (each seen live, 2.1.332).
import { queryTextOf } from './recall.js'
import { MAX_ENTRIES, WINDOW_CHARS, type Hit, type RecallFound } from './recall-search.js'
import { callLineOf } from './transcript-entries.js'
import { isLowSurrogate, longestBacktickRunOf } from '../text/text-clip.js'

/** How much of the transcript was searched: all of it, only its newest part
 * (a transcript past the size one search reads), or its start up to where the
 * time bound stopped the reading. */
export type Coverage = { kind: 'whole' } | { kind: 'newest' | 'stopped'; searchedBytes: number; totalBytes: number }

/** A hit's texts once masked, each whole: its call's text (a tool result's;
 * a message's writer as it is) and its excerpt. Undefined for a hit the
 * engine could not mask: nothing of it is shown. */
export type MaskedHit = { label: string; excerpt: string } | undefined

function nameOf(hit: Hit, label: string): string {
  if (hit.kind === 'message') return `Message by ${label}`
  return `Tool result of ${callLineOf(label)}${hit.status !== undefined ? `  → ${hit.status}` : ''}`
}

function atTextOf(at: string | undefined): string {
  if (at === undefined) return ''
  const iso = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(at)
  return iso ? ` (${iso[1]} ${iso[2]} UTC)` : ''
}

/** Where the window starts in the masked excerpt: centred on the needle the
 * search centred it on, found again there (masking shifts what follows a
 * credential); where masking took the needle, where the search put it, moved
 * in proportion. */
function windowStartOf(hit: Hit, masked: string): number {
  const { focus } = hit
  const at = focus === undefined ? -1 : masked.toLowerCase().indexOf(focus)
  if (focus !== undefined && at >= 0) return at + Math.floor(focus.length / 2) - WINDOW_CHARS / 2
  const scale = hit.excerpt.length === 0 ? 1 : masked.length / hit.excerpt.length
  return Math.round(hit.windowStart * scale)
}

/** The window of a masked excerpt, never half a character at either edge. */
function windowOf(hit: Hit, masked: string): { text: string; from: number } {
  let from = Math.max(0, Math.min(windowStartOf(hit, masked), masked.length - WINDOW_CHARS))
  if (from > 0 && isLowSurrogate(masked.charCodeAt(from))) from++
  let to = Math.min(masked.length, from + WINDOW_CHARS)
  if (to < masked.length && isLowSurrogate(masked.charCodeAt(to))) to--
  return { text: masked.slice(from, to), from }
}

/** One entry of the answer, from its hit and its masked texts. */
function entryTextOf(hit: Hit, masked: MaskedHit, n: number): string {
  if (masked === undefined) return `[${n}] An entry that could not be masked, not shown.`
  const name = nameOf(hit, masked.label)
  const window = windowOf(hit, masked.excerpt)
  const shownFrom = hit.excerptStart + window.from
  // Whole once masked: masking shortens an entry, so its masked length is not its length.
  const isWhole = hit.excerptStart === 0 && hit.excerpt.length === hit.textLength && window.text.length === masked.excerpt.length
  const part = isWhole ? '' : `, characters ${shownFrom + 1}-${shownFrom + window.text.length} of ${hit.textLength}`
  // Longer than any run of backticks in the window, so it shows whole.
  const fence = '`'.repeat(Math.max(3, longestBacktickRunOf(window.text) + 1))
  return [`[${n}] ${name}${atTextOf(hit.at)}${part}:`, fence, window.text, fence].join('\n')
}

function coverageTextOf(coverage: Coverage): string | undefined {
  if (coverage.kind === 'whole') return undefined
  const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1)
  if (coverage.kind === 'newest') return `Only the newest ${mb(coverage.searchedBytes)} MB of the ${mb(coverage.totalBytes)} MB transcript were searched (the most one search reads); older entries were not.`
  return `The search stopped after ${mb(coverage.searchedBytes)} MB of the ${mb(coverage.totalBytes)} MB transcript (the time one search may take); newer entries were not searched.`
}

/** The answer for `found`, each hit's texts masked (`masked[i]` for `found.hits[i]`). */
export function recallAnswerTextOf(found: RecallFound, masked: readonly MaskedHit[], coverage: Coverage = { kind: 'whole' }): string {
  const query = queryTextOf(found.query)
  const where = "what compact-handoff's handoffs and compactions took out of this session's conversation"
  const covered = coverageTextOf(coverage)
  if (found.boundaries === 0 && !found.isCut) {
    return "Nothing of this session's conversation has been replaced yet, so recall has nothing to search: what you are looking for is still in the conversation above."
  }
  if (found.hits.length === 0) {
    const nothing = `recall found nothing for ${query} in ${where} (${found.searched} messages and tool results searched). Try another word you expect, or part of one: a file name, an error code, a number.`
    return covered === undefined ? nothing : `${nothing}\n${covered}`
  }
  const total = found.hits.length + found.more
  const shown = found.more === 0 ? (total === 1 ? 'It is below' : 'All are below, newest first') : `The newest ${found.hits.length} are below, newest first`
  const lines = [
    `recall found ${total} ${total === 1 ? 'entry' : 'entries'} for ${query} in ${where}. ${shown}, verbatim with credentials masked, each cut to at most ${WINDOW_CHARS} characters around the match.`,
    '',
  ]
  found.hits.slice(0, MAX_ENTRIES).forEach((hit, i) => lines.push(entryTextOf(hit, masked[i], i + 1), ''))
  if (found.more > 0) lines.push(`${found.more} older ${found.more === 1 ? 'entry' : 'entries'} matched too and are not shown: call recall again with more words, or an exact string in double quotes, to narrow it.`)
  if (found.skipped > 0) lines.push(`${found.skipped} transcript line(s) longer than the search reads were skipped.`)
  if (covered !== undefined) lines.push(covered)
  return lines.join('\n').trimEnd()
}
