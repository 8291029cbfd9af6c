// The person's own words, recorded by code at prompt.submit rather than left to
// what the model remembers to write, and carried verbatim into every stub.

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
export type PromptFacts = { origin: { kind: string }; command?: unknown; isMeta?: true }

/** The prompt box, the SDK and remote control are the person typing; plugins,
 * task notifications and other sessions are not. */
const USERS_OWN_ORIGINS: ReadonlySet<string> = new Set(['composer', 'sdk', 'bridge'])

/** Typed by the person: their words, or a slash command they ran. */
export function isTypedByUser(prompt: PromptFacts): boolean {
  return USERS_OWN_ORIGINS.has(prompt.origin.kind) && prompt.isMeta !== true
}

export function isUsersOwnPrompt(prompt: PromptFacts): boolean {
  return isTypedByUser(prompt) && prompt.command === undefined
}

const CUT_MARK = ' […cut: the rest of this message was longer than 2,000 characters]'

export function clippedMessageOf(text: string): string {
  return text.length <= MAX_MESSAGE_CHARS ? text : `${text.slice(0, MAX_MESSAGE_CHARS)}${CUT_MARK}`
}

function totalChars(messages: readonly string[]): number {
  return messages.reduce((sum, m) => sum + m.length, 0)
}

export function withUserMessage(words: UserWords, text: string): UserWords {
  if (text.trim() === '') return words
  const messages = [...words.messages, clippedMessageOf(text)]
  let dropped = words.dropped
  while (totalChars(messages) > MAX_WORDS_CHARS && messages.length > 2) {
    messages.splice(1, 1)
    dropped++
  }
  return { messages, dropped }
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
