// The person's own prompts, bounded, in `$.state` (user-words.ts decides).
// The engine lists what a module reads and writes by scanning each read/update
// for an atom declared in the same file, so every access to these atoms lives
// here, beside the folder that owns them (types/index.d.ts spells their shapes).
import { atom, read, update, type EngineInterface } from 'claude-code'
import { NO_WORDS, type UserWords } from './user-words.js'

type $ = EngineInterface

const wordsAtom = atom({ plugin: 'compact-handoff', key: 'words' } as const, NO_WORDS)

export function readWords($: $): Promise<UserWords> {
  return read($, wordsAtom)
}

export async function updateWords($: $, change: (words: UserWords) => UserWords): Promise<void> {
  await update($, wordsAtom, change)
}
