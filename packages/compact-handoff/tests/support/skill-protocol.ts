// The skills' side of the protocol, which the mod never runs: reading back the
// compact-mode arguments the mod writes, printing the continue-prompt block
// the mod reads, and the file names the skills write. Kept beside the kit's
// support files (outside hooks/, so register.ts never reaches them) and shared
// with the Node side (tests/harness, tests/contract, tests/e2e): one
// definition, held to the mod's writers and readers (formatSkillArgs,
// parseContinuePrompt, fileKindOfName) by tests/compact-handoff/protocol and
// tests/contract/contract.test.ts.
import { COMPACT_MODE_ARG, CONTINUE_PROMPT_HEADER, SKILL_VALUE_KEYS, type SkillValues } from '../../hooks/protocol/protocol.js'

/** `HANDOFF_<slug>_<YYYY-MM-DD>.md` with `_<n>` before `.md` when the name is
 * taken: what the skills write (the mod accepts any safe stem after the
 * prefix, protocol-paths.ts fileKindOfName). */
export const SKILL_FILE_NAME_RE = /^(HANDOFF|PLAN)_[a-z0-9]+(?:-[a-z0-9]+)*_\d{4}-\d{2}-\d{2}(?:_\d+)?\.md$/

/** formatSkillArgs' inverse, as the skill reads its arguments: the values and
 * the focus, or undefined when the arguments are not compact mode or a value
 * is missing. Linear: one split into words. */
export function parseSkillArgs(args: string): { values: SkillValues; focus: string } | undefined {
  const words = args.trim().split(/\s+/)
  if (words[0] !== COMPACT_MODE_ARG) return undefined
  const found = new Map<string, string>()
  let i = 1
  for (; i < words.length; i++) {
    const word = words[i] ?? ''
    const eq = word.indexOf('=')
    const key = word.slice(0, eq)
    if (eq <= 0 || !(SKILL_VALUE_KEYS as readonly string[]).includes(key) || found.has(key)) break
    found.set(key, word.slice(eq + 1))
  }
  const seq = Number(found.get('seq'))
  const [run, created, chain, parent] = [found.get('run'), found.get('created'), found.get('chain'), found.get('parent')]
  if (run === undefined || created === undefined || chain === undefined || parent === undefined || !Number.isInteger(seq) || seq < 1) return undefined
  return { values: { run, created, chain, seq, parent }, focus: words.slice(i).join(' ') }
}

/** The continue-prompt block as the skills print it; parseContinuePrompt's inverse. */
export function formatContinuePrompt(prompt: string): string {
  const rule = '-'.repeat(40)
  return `${CONTINUE_PROMPT_HEADER}\n${rule}\n${prompt.trim()}\n${rule}`
}
