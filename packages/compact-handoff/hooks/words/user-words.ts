// The person's own words, recorded by code at prompt.submit rather than left to
// what the model remembers to write, and carried verbatim into every stub.
import { isHighSurrogate, isLowSurrogate } from '../text/text-clip.js'

/** One message is kept up to this many characters; the rest is cut, visibly. */
export const MAX_MESSAGE_CHARS = 2_000
/** All kept messages together; past it the oldest go first, but never the first. */
export const MAX_WORDS_CHARS = 12_000

export type UserWords = {
  /** Oldest first; messages[0] is the session's first request and is never dropped. */
  messages: string[]
  /** How many messages after the first were dropped to stay within the bound. */
  dropped: number
}

export const NO_WORDS: UserWords = { messages: [], dropped: 0 }

/** Where a submitted prompt came from, as prompt.submit reports it. */
export type PromptInput = { origin: { kind: string }; command?: unknown; isMeta?: true }

/** The prompt box, the SDK and remote control are the person typing; plugins,
 * task notifications and other sessions are not. */
const USERS_OWN_ORIGINS: ReadonlySet<string> = new Set(['composer', 'sdk', 'bridge'])

/** Typed by the person: their words, or a slash command they ran. */
export function isTypedByUser(prompt: PromptInput): boolean {
  return USERS_OWN_ORIGINS.has(prompt.origin.kind) && prompt.isMeta !== true
}

const CUT_MARK = ' […cut: the rest of this message was longer than 2,000 characters]'

/** `text` with every lone surrogate (half of a pair, from a broken paste)
 * replaced by U+FFFD: a string holding one has no UTF-8 form, so a request
 * carrying it cannot be sent as written. One pass. */
function wellFormedOf(text: string): string {
  const parts: string[] = []
  let from = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(i + 1))) i++
    else if (isHighSurrogate(code) || isLowSurrogate(code)) {
      parts.push(text.slice(from, i), '\ufffd')
      from = i + 1
    }
  }
  return from === 0 ? text : [...parts, text.slice(from)].join('')
}

/** The message as it is kept: whole up to MAX_MESSAGE_CHARS UTF-16 units,
 * else cut there, visibly, and never between the two halves of a pair. */
export function clippedMessageOf(text: string): string {
  if (text.length <= MAX_MESSAGE_CHARS) return wellFormedOf(text)
  const splitsPair = isHighSurrogate(text.charCodeAt(MAX_MESSAGE_CHARS - 1)) && isLowSurrogate(text.charCodeAt(MAX_MESSAGE_CHARS))
  return `${wellFormedOf(text.slice(0, splitsPair ? MAX_MESSAGE_CHARS - 1 : MAX_MESSAGE_CHARS))}${CUT_MARK}`
}

function totalChars(messages: readonly string[]): number {
  return messages.reduce((sum, m) => sum + m.length, 0)
}

export function withUserMessage(words: UserWords, text: string): UserWords {
  if (text.trim() === '') return words
  const messages = [...words.messages, clippedMessageOf(text)]
  // Count what must go first, then drop it in one splice: linear however many go.
  let total = totalChars(messages)
  let drop = 0
  while (total > MAX_WORDS_CHARS && messages.length - drop > 2) {
    total -= messages[1 + drop]!.length
    drop++
  }
  messages.splice(1, drop)
  return { messages, dropped: words.dropped + drop }
}

/** The stub's section of the person's words, or undefined when none were recorded. */
export function userWordsSectionOf(words: UserWords): string | undefined {
  if (words.messages.length === 0) return undefined
  const lines = [
    "The user's own messages in this session, verbatim and oldest first. They are the user's exact words and win over anything else in this context:",
  ]
  words.messages.forEach((message, i) => {
    lines.push(`[user message ${i + 1}]`, message)
    if (i === 0 && words.dropped > 0) lines.push(`[${words.dropped} earlier message(s) after this one were dropped here to stay within ${MAX_WORDS_CHARS} characters]`)
  })
  return lines.join('\n')
}

export function wordsSizeOf(words: UserWords): { count: number; chars: number } {
  return { count: words.messages.length, chars: totalChars(words.messages) }
}
