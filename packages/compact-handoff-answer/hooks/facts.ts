// The work's facts that compact-handoff records from the main loop's tool calls
// (its `work` state: files changed and read, commands with their exit status),
// as a section of the instructions of a compaction that is not ours. A summary
// keeps few paths and almost no commands, so they are handed to the summariser
// as compact-handoff hands them to its own stub.
//
// A hooks module reaches only its own files, so this restates compact-handoff's
// evidence.ts evidenceSectionOf and protocol-paths.ts relativeToCwd;
// tests/contract/answer-sections-agree.test.ts holds the two to the same text for the
// same input. Pure and free of 'claude-code' so vitest can load it under Node.

/** compact-handoff's recorded facts as this mod reads them (`work.facts`):
 * each list newest last, paths absolute as the tools got them. */
export type FactsView = {
  changed: readonly { path: string; count: number }[]
  read: readonly string[]
  commands: readonly { line: string; exitCode: number | null }[]
}

/** The section never grows past this many characters (compact-handoff's
 * MAX_EVIDENCE_SECTION_CHARS). */
export const MAX_FACTS_SECTION_CHARS = 4_000

function normalizeSlashes(path: string): string {
  return path.replace(/\\/g, '/').replace(/\/{2,}/g, '/')
}

/** Lexically resolves `.` and `..`; undefined when `..` climbs above the start. */
function collapseDots(segments: readonly string[]): string[] | undefined {
  const out: string[] = []
  for (const segment of segments) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      if (out.length === 0) return undefined
      out.pop()
    } else out.push(segment)
  }
  return out
}

/** `path` relative to `cwd`, or undefined when it is not inside `cwd`. */
function relativeToCwd(path: string, cwd: string): string | undefined {
  const p = normalizeSlashes(path.trim())
  const root = collapseDots(normalizeSlashes(cwd).split('/'))
  if (!root || p === '') return undefined
  const isAbsolute = p.startsWith('/')
  const full = collapseDots(isAbsolute ? p.split('/') : [...root, ...p.split('/')])
  if (!full || full.length <= root.length) return undefined
  for (let i = 0; i < root.length; i++) if (full[i] !== root[i]) return undefined
  return full.slice(root.length).join('/')
}

/** A path as the section names it: relative to the session folder when inside it. */
export function shownPathOf(path: string, cwd: string): string {
  return relativeToCwd(path, cwd) ?? path
}

/** The facts with every path as the section shows it. */
export function shownFactsOf(facts: FactsView, cwd: string): FactsView {
  return {
    changed: facts.changed.map((c) => ({ ...c, path: shownPathOf(c.path, cwd) })),
    read: facts.read.map((p) => shownPathOf(p, cwd)),
    commands: facts.commands,
  }
}

function exitText(code: number | null): string {
  return code === null ? 'failed' : `exit ${code}`
}

/** The facts section, newest first, or undefined when nothing was recorded.
 * Lines that would pass the size bound are left out, and it says so. Worded as
 * compact-handoff's stub words it. */
export function factsSectionOf(facts: FactsView): string | undefined {
  const lines: string[] = []
  if (facts.changed.length > 0) lines.push(`Files changed: ${[...facts.changed].reverse().map((c) => (c.count > 1 ? `${c.path} (${c.count}×)` : c.path)).join(', ')}`)
  if (facts.read.length > 0) lines.push(`Files read: ${[...facts.read].reverse().join(', ')}`)
  if (facts.commands.length > 0) {
    lines.push('Last commands, newest first:', ...[...facts.commands].reverse().map((c) => `- ${c.line}  → ${exitText(c.exitCode)}`))
  }
  if (lines.length === 0) return undefined
  const head = 'What this session did, recorded by code from its tool calls (facts, not notes):'
  const kept: string[] = [head]
  let size = head.length
  for (const line of lines) {
    if (size + line.length + 1 > MAX_FACTS_SECTION_CHARS) {
      kept.push('[more was recorded than fits here]')
      break
    }
    kept.push(line)
    size += line.length + 1
  }
  return kept.join('\n')
}
