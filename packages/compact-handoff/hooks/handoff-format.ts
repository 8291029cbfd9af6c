// The on-disk format check the mod runs before any swap. Mods cannot import
// remark, so this is deliberately light; tests/format-corpus.test.ts holds it
// to the remark-based validator over a corpus of fixtures.
import { MIN_NONBLANK_CHARS, type FileKind } from './protocol.js'

/** Problems that keep `text` from replacing a conversation; empty when none. */
export function formatProblems(text: string, _kind: FileKind): string[] {
  const nonBlank = text.replace(/\s+/g, '').length
  return nonBlank < MIN_NONBLANK_CHARS
    ? [`holds ${nonBlank} non-blank characters; at least ${MIN_NONBLANK_CHARS} are needed`]
    : []
}
