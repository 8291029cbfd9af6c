// Reads the end of the skill's turn: did it end as an answer, what did its
// sentinel say, and which handoff (and plan) files should replace the
// conversation. The files are checked on disk afterwards (file-check.ts); what
// fails there is sent back to the skill to fix in place (repairPromptOf), not
// thrown away with the whole turn.
import { MAX_REPAIRS, type Chosen, type Run } from './run.js'
import { formatSentinel, parseContinuePrompt, parseSentinel } from '../protocol/protocol.js'
import { EXACT_VALUES_RULE } from '../protocol/protocol-contents.js'
import type { FileFix } from './file-check.js'
import { classifyHandoffPath, type HandoffPath } from '../protocol/protocol-paths.js'
import { fallbackContinuePromptOf } from '../stub/swap-text.js'

export type TurnEnd = { reason: 'answer' | 'aborted' | 'refusal' | 'error'; answer: string }

export type Verdict = { kind: 'abort'; why: string } | ({ kind: 'check' } & Chosen)

const END_TEXT: Readonly<Record<Exclude<TurnEnd['reason'], 'answer'>, string>> = {
  aborted: 'the handoff turn was interrupted',
  refusal: 'the model refused the handoff turn',
  error: 'the handoff turn ended with an error',
}

function lastOfKind(files: readonly HandoffPath[], kind: HandoffPath['kind']): HandoffPath | undefined {
  return files.filter((f) => f.kind === kind).at(-1)
}

/** `previous` is what the turn before chose, when this is a repair turn: an
 * answer that names no file and prints no prompt keeps those. */
export function verdictOf(end: TurnEnd, run: Run, previous?: Chosen): Verdict {
  if (end.reason !== 'answer') return { kind: 'abort', why: END_TEXT[end.reason] }
  const sentinel = parseSentinel(end.answer)
  if (sentinel?.kind === 'failed') return { kind: 'abort', why: `the handoff skill reported failure: ${sentinel.reason}` }

  const notices: string[] = []
  const named: HandoffPath[] = []
  for (const path of sentinel?.paths ?? []) {
    const file = classifyHandoffPath(path, run.cwd, run.ignoresCase)
    if (!file) {
      return {
        kind: 'abort',
        why: `the skill named ${path}, which is not a HANDOFF_*.md or PLAN_*.md file directly under plans/handoffs/ or .claude/handoffs/ of this project`,
      }
    }
    named.push(file)
  }
  if (sentinel === undefined && previous === undefined) notices.push('the skill printed no sentinel line; using the files it wrote')

  const handoff = lastOfKind(named, 'handoff') ?? previous?.handoff ?? lastOfKind(run.files, 'handoff')
  // A plan only travels in a plan run; a handoff run that happened to touch one ignores it.
  const plan = run.mode === 'plan' ? (lastOfKind(named, 'plan') ?? previous?.plan ?? lastOfKind(run.files, 'plan')) : undefined
  if (!handoff) return { kind: 'abort', why: 'no handoff file was written' }
  if (run.mode === 'plan' && !plan) return { kind: 'abort', why: 'a plan run, but no plan file was written' }

  const files = { handoff: handoff.relPath, ...(plan ? { plan: plan.relPath } : {}) }
  const continuePrompt = parseContinuePrompt(end.answer) ?? previous?.continuePrompt ?? fallbackContinuePromptOf(run.mode, files)
  return { kind: 'check', handoff, ...(plan ? { plan } : {}), continuePrompt, notices }
}

/** Sent as the mod, not as the person, and tagged with the run so its turn is known as the repair's. */
export function repairPromptOf(run: Run, chosen: Chosen, fixes: readonly FileFix[]): string {
  const paths = [chosen.handoff.relPath, ...(chosen.plan !== undefined ? [chosen.plan.relPath] : [])]
  return [
    `compact-handoff run=${run.values.run}, repair ${run.repairs} of ${MAX_REPAIRS}: the handoff files do not pass the check yet, so nothing has been replaced.`,
    'Fix each problem below in the file itself (Edit it, or Write it again whole). Change nothing else, ask nothing, and run no other tools.',
    // A fix for size is where a model shortens: the values must come through it.
    `While you fix, keep to this rule: ${EXACT_VALUES_RULE}`,
    'Then end your reply with the sentinel line again:',
    formatSentinel({ kind: 'ready', paths }),
    '',
    ...fixes.flatMap((fix) => [`${fix.path}:`, ...fix.problems.map((p) => `- ${p}`)]),
  ].join('\n')
}
