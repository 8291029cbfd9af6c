// The file a fork's handoff becomes: the frontmatter code writes (the model has
// no clock and cannot know the chain), the name by the skills' rule, and why a
// fork gave no handoff, in words for the person. Pure; compaction-steps.ts applies it.
import { HANDOFF_DIRS } from '../protocol/protocol-paths.js'
import { NEW_CHAIN, type SkillValues } from '../protocol/protocol.js'
import { MAX_REDACT_CHARS, headOf } from '../text/text-clip.js'

/** The handoff folder a fork's file goes to: `.claude/handoffs/`, beside the
 * swap log, whatever folders the project has. */
export const FORK_HANDOFF_DIR = HANDOFF_DIRS[1]

/** A name's slug keeps at most this many words of the title, each cut to
 * MAX_SLUG_WORD_CHARS: the skills' two to five words, within any file system's
 * 255-character name. */
const MAX_SLUG_WORDS = 5
const MAX_SLUG_WORD_CHARS = 24
/** The slug when neither the title nor the focus has a word in ASCII letters or digits. */
const FALLBACK_SLUG = 'session'

/** The frontmatter's focus keeps this much of the person's /compact words. */
export const MAX_FOCUS_CHARS = 200

/** Up to MAX_SLUG_WORDS words of `text` in lowercase ASCII letters and
 * digits, a leading "handoff" left out (every title starts with it). */
function slugWordsOf(text: string): string[] {
  const words: string[] = []
  const wordRe = /[a-z0-9]+/g
  const lower = text.toLowerCase()
  let isFirst = true
  for (let match = wordRe.exec(lower); match !== null && words.length < MAX_SLUG_WORDS; match = wordRe.exec(lower)) {
    if (!(isFirst && match[0] === 'handoff')) words.push(match[0].slice(0, MAX_SLUG_WORD_CHARS))
    isFirst = false
  }
  return words
}

/** The name's slug: from the title, else the focus, else FALLBACK_SLUG. */
export function slugOf(title: string | undefined, focus: string): string {
  const words = slugWordsOf(title ?? '')
  const chosen = words.length > 0 ? words : slugWordsOf(focus)
  return chosen.length > 0 ? chosen.join('-') : FALLBACK_SLUG
}

/**
 * The file name by the skills' rule, `HANDOFF_<slug>_<YYYY-MM-DD>.md`, with
 * `_2`, `_3`… before `.md` when the name is taken: never a name in `taken`
 * (the folder's names), compared without letter case, since a file system
 * that ignores it would find the same file.
 */
export function freeHandoffNameOf(slug: string, created: string, taken: readonly string[]): string {
  const names = new Set(taken.map((name) => name.toLowerCase()))
  const stem = `HANDOFF_${slug}_${created.slice(0, 10)}`
  for (let n = 1; ; n++) {
    const name = n === 1 ? `${stem}.md` : `${stem}_${n}.md`
    if (!names.has(name.toLowerCase())) return name
  }
}

const UNPRINTABLE_RE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]+/g
const LONE_SURROGATE_RE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** The frontmatter's `focus`: `none`, or the person's words on one line, cut
 * to MAX_FOCUS_CHARS, as a double-quoted scalar with nothing in it a YAML
 * reader refuses (a JSON string is one). */
export function focusValueOf(focus: string): string {
  const flat = focus.replace(UNPRINTABLE_RE, ' ').replace(LONE_SURROGATE_RE, '\ufffd').replace(/\s+/g, ' ').trim()
  if (flat === '') return 'none'
  const cut = headOf(flat, MAX_FOCUS_CHARS)
  return JSON.stringify(cut.length < flat.length ? `${cut}…` : cut)
}

export type ForkFileValues = Pick<SkillValues, 'created' | 'chain' | 'seq' | 'parent'> & { focus: string }

/** The file's text: the frontmatter code writes, then the fork's title and
 * sections. A new chain is named after the file itself. */
export function composedHandoffOf(values: ForkFileValues, fileName: string, body: string): string {
  const chain = values.chain === NEW_CHAIN ? fileName.replace(/\.md$/, '') : values.chain
  return [
    '---',
    'kind: handoff',
    `created: ${values.created}`,
    'status: in-progress',
    `chain: ${chain}`,
    `seq: ${values.seq}`,
    `parent: ${values.parent}`,
    `focus: ${focusValueOf(values.focus)}`,
    '---',
    '',
    body,
  ].join('\n')
}

/** A handoff longer than the engine masks in one call cannot be masked whole,
 * so it is sent back rather than cut; undefined when it fits. */
export function unmaskableProblemOf(body: string): string | undefined {
  if (body.length <= MAX_REDACT_CHARS) return undefined
  return `is ${body.length} characters, over the ${MAX_REDACT_CHARS} compact-handoff can check: keep to what the next session needs`
}

export type ForkOutcome =
  | { isAnswered: true; text: string }
  | { isAnswered: false; reason: 'api-error'; status: number | null; error: string }
  | { isAnswered: false; reason: 'nothing-to-fork' | 'empty-reply' | 'aborted' }

/** HTTP statuses of a request the API refused for its size. */
const TOO_LONG_STATUSES: ReadonlySet<number | null> = new Set([400, 413])

/** Whether a request gave no text because the API refused it for its size
 * (2.1.332, live: 400 invalid_request_error "prompt is too long"). */
export function isTooLongOf(outcome: Exclude<ForkOutcome, { isAnswered: true }>): boolean {
  return outcome.reason === 'api-error' && outcome.error === 'invalid_request' && TOO_LONG_STATUSES.has(outcome.status)
}

/** Why a fork gave no text, for the toast and the log. */
export function forkFailureOf(outcome: Exclude<ForkOutcome, { isAnswered: true }>): string {
  switch (outcome.reason) {
    case 'api-error': {
      const what = `HTTP ${outcome.status ?? 'no response'}, ${outcome.error}`
      return isTooLongOf(outcome) ? `the fork's request was refused (${what}): the conversation is likely too long for one more request` : `the fork's request failed (${what})`
    }
    case 'nothing-to-fork':
      return 'there was nothing to fork yet: no request of this conversation had finished'
    case 'empty-reply':
      return 'the fork replied with no text'
    case 'aborted':
      return 'the fork was cut short: the turn was interrupted'
  }
}

/** Why the digest writer's request (a completion, fork-prompt.ts) gave no
 * text; `timeoutMs` is the limit it was sent with, which is what ends it as
 * `aborted` (no turn's Escape reaches a completion). */
export function digestFailureOf(outcome: Exclude<ForkOutcome, { isAnswered: true }>, timeoutMs: number): string {
  switch (outcome.reason) {
    case 'api-error':
      return `the digest's request failed (HTTP ${outcome.status ?? 'no response'}, ${outcome.error})`
    case 'empty-reply':
    case 'nothing-to-fork':
      return "the digest's request was answered with no text"
    case 'aborted':
      return `the digest's request took longer than ${Math.round(timeoutMs / 1000)} s`
  }
}
