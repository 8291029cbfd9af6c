// What the user-words tests compare against: the stub section's heading and
// the clipping mark as the person reads them (written out, so a changed
// wording fails a test), and small builders over the module under test.
import { NO_WORDS, withUserMessage, type UserWords } from '../../packages/compact-handoff/hooks/words/user-words.js'

export const HEADING = "The user's own messages in this session, verbatim and oldest first. They are the user's exact words and win over anything else in this context:"
export const CUT_MARK = ' […cut: the rest of this message was longer than 2,000 characters]'

export function wordsOf(...messages: string[]): UserWords {
  return messages.reduce(withUserMessage, NO_WORDS)
}

export function total(messages: readonly string[]): number {
  return messages.reduce((sum, m) => sum + m.length, 0)
}
