// A typed prompt's words, held as data and written once a hook reads the
// records (state/record-queue.ts): the request waits on prompt.submit, so the
// words' read and write go out at the turn's end instead.
import type { EngineInterface } from 'claude-code'
import { flushHeld, holdRecord } from '../state/record-queue.js'
import { updateWords } from './words-state.js'
import { withUserMessage } from './user-words.js'

type $ = EngineInterface

/** Holds the words the person typed for the next flush. */
export function holdWords($: $, text: string): void {
  holdRecord(text, (held) => flushWords($, held))
}

/** Writes the held words and waits for every record queued so far: a hook
 * that reads the records calls this first. */
export function recordsWritten($: $): Promise<void> {
  return flushHeld((held) => flushWords($, held))
}

/** Every prompt held, in order, in one read and one write. */
async function flushWords($: $, held: readonly string[]): Promise<void> {
  await updateWords($, (words) => held.reduce(withUserMessage, words))
}
