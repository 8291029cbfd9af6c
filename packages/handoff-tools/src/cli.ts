#!/usr/bin/env node
// handoff-check [--project <dir>] [--json] <file>…: checks SKILL.md, HANDOFF_*.md
// and PLAN_*.md files and prints one line per problem as file:line:column, or
// with --json one JSON document holding, per file, what a tool needs to resume
// from it and its problems; it exits 1 when there is any problem. A handoff's `parent` path is read against the project:
// the folder it is run from, unless --project names another.
import { readFile } from 'node:fs/promises'
import { basename, dirname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { readFrontmatterOf } from '../../compact-handoff/hooks/format/frontmatter.js'
import { fileKindOfName, type FileKind } from '../../compact-handoff/hooks/protocol/protocol-paths.js'
import { diagnostic, type Diagnostic } from './diagnostics.js'
import type { ValidateContext } from './schemas.js'
import { summaryOf, unreadSummaryOf, type FileSummary } from './resume-info.js'
import { validateHandoff, validateSkill } from './validate.js'

/** A file not named HANDOFF_/PLAN_ is judged by the kind its frontmatter claims. */
function claimedKind(text: string): FileKind | undefined {
  const kind = readFrontmatterOf(text).frontmatter?.fields.get('kind')
  return kind === 'handoff' || kind === 'plan' ? kind : undefined
}

const USAGE = 'usage: handoff-check [--project <dir>] [--json] <file>…'

type Checked = { kind: FileSummary['kind']; problems: Diagnostic[] }

function check(path: string, text: string, context: ValidateContext): Checked {
  const name = basename(path)
  if (name === 'SKILL.md') return { kind: 'skill', problems: validateSkill(text, basename(dirname(path))) }
  const kind = fileKindOfName(name) ?? claimedKind(text)
  if (kind === undefined) {
    return { kind: null, problems: [diagnostic('unknown-kind', 'neither a SKILL.md, a HANDOFF_/PLAN_ file nor a file whose frontmatter says "kind: handoff" or "kind: plan"')] }
  }
  return { kind, problems: validateHandoff(text, kind, context) }
}

/** The files to check and the project, from the command line; undefined when
 * the arguments do not say both. */
function argumentsOf(args: readonly string[]): { paths: string[]; projectDir: string; json: boolean } | undefined {
  const paths: string[] = []
  let projectDir = process.cwd()
  let json = false
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '--project') {
      const dir = args[++i]
      if (dir === undefined) return undefined
      projectDir = resolve(dir)
    } else if (arg.startsWith('--project=')) projectDir = resolve(arg.slice('--project='.length))
    else if (arg === '--json') json = true
    else paths.push(arg)
  }
  return paths.length === 0 ? undefined : { paths, projectDir, json }
}

export async function runCli(args: readonly string[]): Promise<{ lines: string[]; exitCode: 0 | 1 }> {
  const parsed = argumentsOf(args)
  if (parsed === undefined) return { lines: [USAGE], exitCode: 1 }
  const lines: string[] = []
  const summaries: FileSummary[] = []
  for (const path of parsed.paths) {
    let text: string | undefined
    let checked: Checked
    try {
      text = await readFile(path, 'utf8')
      checked = check(path, text, { projectDir: parsed.projectDir })
    } catch (error) {
      checked = { kind: null, problems: [diagnostic('read-failed', `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)] }
    }
    lines.push(...checked.problems.map((p) => `${path}:${p.line}:${p.column}: ${p.reason} [${p.ruleId}]`))
    if (parsed.json) summaries.push(text === undefined || checked.kind === null ? unreadSummaryOf(path, checked.problems) : summaryOf(path, text, checked.kind, checked.problems))
  }
  const exitCode = lines.length === 0 ? 0 : 1
  return parsed.json ? { lines: [JSON.stringify({ files: summaries }, null, 2)], exitCode } : { lines, exitCode }
}

export async function main(args: readonly string[]): Promise<void> {
  // `pnpm handoff-check` runs from the workspace root; INIT_CWD is where the
  // person typed it, so their relative paths mean what they meant there.
  if (process.env.INIT_CWD !== undefined) process.chdir(process.env.INIT_CWD)
  const { lines, exitCode } = await runCli(args)
  for (const line of lines) console.log(line)
  process.exitCode = exitCode
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2))
