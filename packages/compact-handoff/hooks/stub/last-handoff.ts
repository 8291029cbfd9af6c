// The last handoff as what comes after it may name it: each of its files read
// where it is named, with whether the ownership record says it is the person's
// own now. A resume of a stranger's file sets the last handoff too (the person
// chose to look at it), and a file swapped in may be replaced on disk later (a
// pull): its chain, its parent and the summary's pointer come only from a file
// that is the person's own when they are named. Pure: stub-steps.ts reads.
export type CheckedFile = {
  relPath: string
  /** The ownership record matches the text read now. */
  isOwn: boolean
  /** The text read now; undefined when it could not be read (missing, refused, too large). */
  text?: string
}

export type CheckedLastHandoff = { kind: 'none' } | { kind: 'handoff'; handoff: CheckedFile; plan?: CheckedFile }

/** The file's text when it is the person's own, else undefined: all a chain
 * or a pointer may be taken from. */
export function ownTextOf(file: CheckedFile | undefined): string | undefined {
  return file?.isOwn === true ? file.text : undefined
}
