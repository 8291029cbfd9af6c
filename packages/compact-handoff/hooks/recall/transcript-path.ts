// Which file recall may read: only this session's own transcript, as the engine
// names it (`$.session.info().transcriptPath`), never a path the model gives.
// The engine keeps a session's transcript at
// `<config folder>/projects/<the project folder's name>/<session id>.jsonl`
// (Claude Code 2.1.332, seen live), where the name is the session's folder with
// every character but an ASCII letter or digit made `-`, cut at 200 characters
// and given a hash after a `-` when longer. A path of any other shape is
// refused: an engine answer that names another file is a bug or a mod above
// rewriting it, and recall reads nothing then. The disk rule (disk/) then
// checks the file itself: no link, a regular file, where it says.

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
