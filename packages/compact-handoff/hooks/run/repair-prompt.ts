// The message that asks the skill to fix its files in place instead of
// throwing the whole handoff turn away. Sent as the mod, not as the person, and
// tagged with the run so its turn is known as the repair's.
import { MAX_REPAIRS, type Chosen, type Run } from './run.js'
import { formatSentinel } from '../protocol/protocol.js'
import { EXACT_VALUES_RULE } from '../protocol/protocol-contents.js'
import type { FileFix } from './file-check.js'

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
