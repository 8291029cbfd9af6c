// The texts a swap installs: the stub that replaces the conversation (carried
// to the answer mod behind the marker line) and the fallback continue-prompt.
import { MARKER, type Mode } from './protocol.js'

export type SwapFiles = { handoff: string; plan?: string }

export function stubOf(files: SwapFiles): string {
  const lines = [
    'The earlier conversation was replaced here by compact-handoff, right after the handoff skill wrote a full handoff of the session.',
    `Handoff file: ${files.handoff}`,
  ]
  if (files.plan !== undefined) lines.push(`Plan file: ${files.plan}`)
  lines.push('Nothing else from before was kept. The next message says what to do.')
  return lines.join('\n')
}

/** What `$.session.compact` is given: the answer mod recognises the marker line
 * and installs the rest as the only message. */
export function compactInstructionsOf(stub: string): string {
  return `${MARKER}\n${stub}`
}

/** Used when the skill printed no continue-prompt block. */
export function fallbackContinuePromptOf(mode: Mode, files: SwapFiles): string {
  if (mode === 'plan' && files.plan !== undefined) {
    return [
      `The handoff skill has already run; do not run it again. Read the plan ${files.plan} and the handoff ${files.handoff}.`,
      'Check the Verify commands against the repository before editing (the repository wins over the notes), then start Phase 1 of the plan.',
    ].join(' ')
  }
  return [
    `The handoff skill has already run; do not run it again. Read the handoff ${files.handoff} and continue from its Next step.`,
    'First check its Verify commands against the repository (the repository wins over the note), summarize in a few lines where things stand, and wait for my go-ahead before changing anything.',
  ].join(' ')
}
