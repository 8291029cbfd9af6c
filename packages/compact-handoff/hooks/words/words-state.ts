// The person's own prompts, bounded, in `$.state` (user-words.ts decides).
// The engine lists what a module reads and writes by scanning each read/update
// for an atom declared in the same file, so every access to these atoms lives
// here, beside the folder that owns them (types/index.d.ts spells their shapes).
import { atom, read, update, type EngineInterface } from 'claude-code'
import { NO_WORDS, type UserWords } from './user-words.js'

type $ = EngineInterface

const wordsAtom = atom({ plugin: 'compact-handoff', key: 'words' } as const, NO_WORDS)
// The same value, read with its version beside the run's phase at a typed
// prompt and written back with a compare-and-set: one hop before the prompt
// goes on, not two.
const WORDS_REF = { plugin: 'compact-handoff', key: 'words' } as const

/** The words as read, with the version a write back must meet. */
export type HeldWords = { words: UserWords; version: number }

export async function readHeldWords($: $): Promise<HeldWords> {
  const held = await $.state.get(WORDS_REF)
  return { words: held.value ?? NO_WORDS, version: held.version }
}

/** Writes `change` of the words as read; a miss means another write landed
 * since the read: the change is applied again to the words that stand now. */
export async function changeHeldWords($: $, held: HeldWords, change: (words: UserWords) => UserWords): Promise<void> {
  if (!(await $.state.set(WORDS_REF, change(held.words), { ifVersion: held.version })).isSet) await updateWords($, change)
}

export function readWords($: $): Promise<UserWords> {
  return read($, wordsAtom)
}

export async function updateWords($: $, change: (words: UserWords) => UserWords): Promise<void> {
  await update($, wordsAtom, change)
}
