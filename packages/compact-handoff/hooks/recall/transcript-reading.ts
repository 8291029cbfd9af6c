// Which transcript recall reads, and how.
//
// Which: only this session's own transcript, as the engine names it
// (`$.session.info().transcriptPath`), never a path the model gives. The
// engine keeps a session's transcript at
// `<config folder>/projects/<the project folder's name>/<session id>.jsonl`
// (Claude Code 2.1.332, seen live), where the name is the session's folder with
// every character but an ASCII letter or digit made `-`, cut at 200 characters
// and given a hash after a `-` when longer. A path of any other shape is
// refused: an engine answer that names another file is a bug or a mod above
// rewriting it, and recall reads nothing then. The disk rule (disk/) then
// checks the file itself: no link, a regular file, where it says.
//
// How: by range, never whole (the engine refuses a `$.fs.read` over 4 MiB, and
// a transcript grows to tens of megabytes), its newest MAX_SEARCH_BYTES at
// most, as bytes decoded in a stream so a character cut by a range's edge is
// never garbled (a text read gives U+FFFD there).

/** One read: under the engine's 4 MiB limit, and few hops for 50 MB. */
export const READ_CHUNK_BYTES = 2 * 1_048_576

/** The most of a transcript one search reads, its newest part: a 50 MB
 * transcript is searched whole, and a bigger one is said to be cut. */
export const MAX_SEARCH_BYTES = 64 * 1_048_576

/** A search stops reading past this and says so (the hook's own budget is
 * 10 s; reading is awaited, so this is wall time kept well inside it). */
export const SEARCH_BUDGET_MS = 8_000

/** How long a search that has read no boundary waits for the engine's queued
 * transcript writes: up to LAG_POLLS waits of LAG_POLL_MS (about 1.5 s), each
 * followed by a read of what the file grew by. */
export const LAG_POLL_MS = 100
export const LAG_POLLS = 15

/** What the reading has found, as the wait for the engine's writes looks at it. */
export type ReadSoFar = { isCut: boolean; boundaries: number; hasSeenCall: boolean; polls: number }

/** Whether the search waits LAG_POLL_MS and reads on. The engine queues its
 * transcript writes: under load a replacement's compact_boundary (and this
 * very call) reach the file a little after the call starts (seen after a
 * fork-answered automatic compaction: the first call found no boundary, the
 * next one 80 ms later did). So a search that read no boundary reads the
 * file's growth until this call's own line is on disk (all before it then is)
 * or LAG_POLLS waits have passed; one cut by its budget stops there. */
export function waitsForWritesOf(read: ReadSoFar): boolean {
  return !read.isCut && read.boundaries === 0 && !read.hasSeenCall && read.polls < LAG_POLLS
}

/** Where reading starts in a file of `size` bytes, and whether that is inside a line. */
export function readStartOf(size: number): { offset: number; startsMidLine: boolean } {
  const offset = Math.max(0, size - MAX_SEARCH_BYTES)
  return { offset, startsMidLine: offset > 0 }
}

/** The bytes a `$.fs.read(…, { as: 'bytes' })` answer's base64 holds. */
export function bytesOfBase64(base64: string): Uint8Array {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** How many of `bytes` end at a character's boundary: all but an incomplete
 * UTF-8 sequence at the end (at most 3 bytes), which the next range completes.
 * Looks at the last 4 bytes only. */
export function wholeCharsLengthOf(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!
    if ((byte & 0xc0) === 0x80) continue
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1
    return needed > back ? bytes.length - back : bytes.length
  }
  return bytes.length
}

/** `carry` (the incomplete end of the range before) and then `bytes`. */
export function joinedBytesOf(carry: Uint8Array, bytes: Uint8Array): Uint8Array {
  if (carry.length === 0) return bytes
  const joined = new Uint8Array(carry.length + bytes.length)
  joined.set(carry, 0)
  joined.set(bytes, carry.length)
  return joined
}

/** The engine cuts a longer project folder name and adds a hash. */
const MAX_FOLDER_NAME_CHARS = 200

/** The name the engine gives the folder of a project's transcripts. */
export function projectFolderNameOf(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-')
}

function isProjectFolderName(name: string, folders: readonly string[]): boolean {
  return folders.some((folder) => {
    const expected = projectFolderNameOf(folder)
    if (expected.length <= MAX_FOLDER_NAME_CHARS) return name === expected
    return name.startsWith(`${expected.slice(0, MAX_FOLDER_NAME_CHARS)}-`)
  })
}

/** The transcript's folder and file name, split at its last separator (`/` or `\`). */
export function transcriptPartsOf(path: string): { folder: string; name: string } {
  const at = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'))
  return { folder: path.slice(0, Math.max(at, 0)), name: path.slice(at + 1) }
}

/** What the engine says of the session: its transcript, its id, and the
 * folders its transcripts may be named after (the session's root and cwd). */
export type TranscriptInput = { transcriptPath: string; sessionId: string; folders: readonly string[] }

/** Why recall may not read the named transcript, or undefined when it is this session's own. */
export function transcriptRefusalOf(input: TranscriptInput): string | undefined {
  if (input.transcriptPath === '') return 'the engine keeps no transcript for this session on this machine'
  const segments = input.transcriptPath.split(/[\\/]/)
  const [name, folder, projects] = [segments.at(-1), segments.at(-2), segments.at(-3)]
  if (name !== `${input.sessionId}.jsonl` || projects !== 'projects' || folder === undefined || !isProjectFolderName(folder, input.folders)) {
    return "the file the engine names is not this session's transcript in its projects folder for this project"
  }
  return undefined
}
