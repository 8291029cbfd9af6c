// The texts a swap installs: the stub that replaces the conversation (carried
// to the answer mod behind the marker line) and the fallback continue-prompt.
import { MARKER } from '../protocol/protocol.js'
import type { Mode } from '../protocol/protocol.js'
import { userWordsSectionOf, type UserWords } from '../words/user-words.js'
import { runningSectionOf, type Running } from '../background/running.js'
import { RECALL_TOOL, recallLineOf } from '../recall/recall.js'
import { skillsSectionOf, type InvokedSkills } from '../carried/skills.js'
import { loadedToolsSectionOf, planSectionOf, worktreeSectionOf, type CarriedPlan, type CarriedWorktree } from '../carried/carried.js'

export type SwapFiles = { handoff: string; plan?: string }

/** The handoff this session continues from: its newest swap, resume or fork
 * handoff. The next handoff's parent, and the handoff a summary's instructions name. */
export type LastHandoff = { kind: 'none' } | ({ kind: 'handoff' } & SwapFiles)

export const NO_HANDOFF: LastHandoff = { kind: 'none' }

// The last handoff as what comes after it may name it: each of its files read
// where it is named, with whether the ownership record says it is the person's
// own now. A resume of a stranger's file sets the last handoff too (the person
// chose to look at it), and a file swapped in may be replaced on disk later (a
// pull): its chain, its parent and the summary's pointer come only from a file
// that is the person's own when they are named. stub-steps.ts reads.
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

/** How every stub begins; tests and tools find the stub in a request by it. */
export const STUB_OPENING = 'The earlier conversation was replaced here by compact-handoff'

/** What the session has beyond the conversation at the moment a stub is built:
 * what still runs in the background, the replaced conversation's transcript
 * file (`$.session.info().transcriptPath`, read before the compaction), and
 * the skills invoked in this session, the deferred tools loaded and the plan
 * approved in plan mode (carried/). */
export type StubContext = { running?: Running; transcriptPath?: string; skills?: InvokedSkills; loadedTools?: readonly string[]; plan?: CarriedPlan; worktree?: CarriedWorktree }

/** Each section of what the session carries beyond the conversation, as
 * every stub and the digest show it; undefined where there is nothing to say. */
export function carriedSectionsOf(context: StubContext): Record<'running' | 'worktree' | 'tools' | 'plan' | 'skills', string | undefined> {
  return {
    running: context.running === undefined ? undefined : runningSectionOf(context.running),
    worktree: worktreeSectionOf(context.worktree),
    tools: context.loadedTools === undefined ? undefined : loadedToolsSectionOf(context.loadedTools),
    plan: planSectionOf(context.plan),
    skills: context.skills === undefined ? undefined : skillsSectionOf(context.skills),
  }
}

/** The lines every stub ends its body with for `context`: what still runs,
 * the recall tool for what the handoff lacks (and where the earlier conversation is), the worktree entered, the deferred tools loaded, the plan approved, then the skills invoked; none when
 * nothing is known. */
export function stubContextLinesOf(context: StubContext): string[] {
  const { running, worktree, tools, plan, skills } = carriedSectionsOf(context)
  const lines: string[] = []
  if (running !== undefined) lines.push('', running, '')
  // Where the session keeps no transcript there is nothing to recall.
  if (context.transcriptPath !== undefined && context.transcriptPath !== '') lines.push(recallLineOf(context.transcriptPath))
  if (worktree !== undefined) lines.push(worktree)
  if (tools !== undefined) lines.push('', tools)
  if (plan !== undefined) lines.push('', plan, '')
  if (skills !== undefined) lines.push('', skills, '')
  return lines
}

/** What the handoff skill wrote from, when an automatic compaction replaced
 * the conversation in the middle of its run (run.ts Replaced): a digest built
 * by code when its turn did not fit the window, or the engine's summary. */
export type WrittenFrom = 'digest' | 'summary'

const WRITTEN_FROM_TEXT: Readonly<Record<WrittenFrom, string>> = {
  digest: 'a digest of it: the conversation had outgrown the context window, so a digest built by code replaced it before the skill wrote',
  summary: "Claude Code's own summary of it: an automatic compaction replaced the conversation while the skill ran",
}

/** The stub's first line: a handoff written from the whole conversation, or
 * from what replaced it mid-run, which the handoff can only be as good as. */
function stubOpeningOf(writtenFrom: WrittenFrom | undefined): string {
  if (writtenFrom === undefined) return `${STUB_OPENING}, right after the handoff skill wrote a full handoff of the session.`
  return `${STUB_OPENING}, right after the handoff skill wrote a handoff of the session from ${WRITTEN_FROM_TEXT[writtenFrom]}. It may lack details the ${writtenFrom} left out: recall them first (call ${RECALL_TOOL}) before guessing or running anything again.`
}

/** `factsSection` is the work's facts recorded by code (facts.ts), placed
 * after the person's words; `context` what runs and where the transcript is;
 * `writtenFrom` what replaced the conversation before the handoff was written. */
export function buildStub(files: SwapFiles, words: UserWords, factsSection?: string, context: StubContext = {}, writtenFrom?: WrittenFrom): string {
  const lines = [stubOpeningOf(writtenFrom), `Handoff file: ${files.handoff}`]
  if (files.plan !== undefined) lines.push(`Plan file: ${files.plan}`)
  for (const section of [userWordsSectionOf(words), factsSection]) {
    if (section !== undefined) lines.push('', section, '')
  }
  lines.push(...stubContextLinesOf(context), 'Nothing else from before was kept. The next message says what to do.')
  return lines.join('\n')
}

export type ForkStubInput = {
  /** The saved file, relative to the session folder. */
  handoff: string
  /** Its text as saved (masked), inlined so the next request needs no Read. */
  handoffText: string
  words: UserWords
  /** The work's facts recorded by code (facts.ts stubFactsOf). */
  factsSection?: string | undefined
  /** Who compacted: the engine at its threshold, or the person's /compact. */
  trigger: 'auto' | 'manual'
  /** Who wrote the handoff: a fork that saw the conversation, or a request
   * that saw only its digest (the conversation was too long for one more);
   * absent, a fork. */
  writtenFrom?: 'fork' | 'digest'
  /** The compaction came in the middle of a turn, which goes on from this message. */
  isMidTurn: boolean
  /** What still runs in the background and where the replaced transcript is. */
  context?: StubContext
  /** Mid-turn, the turn's latest step the fork did not see, masked (compaction/latest-step.ts). */
  latestStep?: string | undefined
}

/** The stub's closing line: mid-turn, where to carry on from. */
function forkStubClosingOf(input: Pick<ForkStubInput, 'isMidTurn' | 'latestStep'>): string {
  if (!input.isMidTurn) return 'Nothing else from before was kept. The next message says what to do.'
  if (input.latestStep !== undefined) {
    return "Nothing else from before was kept. A turn was under way when the conversation was compacted, and its latest step above is newer than the handoff: carry on from the handoff's Next step in the light of that step's result."
  }
  return "Nothing else from before was kept. A turn was under way when the conversation was compacted, and its latest tool call and result may be missing from the handoff: carry on from the handoff's Next step, checking first what that last step left behind."
}

function compactedByOf(trigger: 'auto' | 'manual'): string {
  return trigger === 'auto' ? "Claude Code's automatic compaction" : 'the /compact the user typed'
}

/** The stub's first line: who wrote the handoff from what. One written from
 * a digest saw less than the conversation, so the next context is told to
 * look a detail up (the recall tool) before it relies on it. */
function forkStubOpeningOf(input: ForkStubInput): string {
  const at = `${STUB_OPENING}, at ${compactedByOf(input.trigger)}`
  if (input.writtenFrom !== 'digest') return `${at}: a fork of this session wrote the handoff below from it, and compact-handoff checked and saved it.`
  return `${at}: the conversation was too long for one more request, so the handoff below was written from a digest of it (built by code, with parts left out), and compact-handoff checked and saved it. Look up a detail it does not state with the recall tool before relying on it.`
}

/** The one message a compaction answered with a fork's handoff becomes: the
 * person's words and the work's facts by code, then the handoff inline. */
export function buildForkStub(input: ForkStubInput): string {
  const lines = [forkStubOpeningOf(input), `Handoff file: ${input.handoff} (its whole text is below: no need to read it)`]
  for (const section of [userWordsSectionOf(input.words), input.factsSection]) {
    if (section !== undefined) lines.push('', section)
  }
  lines.push(...stubContextLinesOf(input.context ?? {}))
  lines.push('', `The handoff, as saved in ${input.handoff}:`, input.handoffText.trimEnd(), '')
  if (input.latestStep !== undefined) lines.push(input.latestStep, '')
  lines.push(forkStubClosingOf(input))
  return lines.join('\n')
}

/** The one message the conversation becomes when neither a handoff nor
 * Claude Code's summary could be had: the digest itself (masked; its leading
 * sections already hold the person's words, the work's facts, what runs and
 * the recall line), by code, no model request at all. */
export function buildDigestStub(input: { digest: string; trigger: 'auto' | 'manual'; isMidTurn: boolean }): string {
  return [
    `${STUB_OPENING}, at ${compactedByOf(input.trigger)}: the conversation was too long for one more request and no handoff or summary could be written, so compact-handoff put the digest below in its place, built by code, with parts of the conversation left out. Look up anything it does not show with the recall tool before relying on it.`,
    '',
    input.digest.trimEnd(),
    '',
    forkStubClosingOf({ isMidTurn: input.isMidTurn }),
  ].join('\n')
}

/** What `$.session.compact` is given: the answer mod recognises the marker line
 * and installs the rest as the only message. */
export function compactInstructionsOf(stub: string): string {
  return `${MARKER}\n${stub}`
}

/** This mod's name, as the host's `next.origin.plugin` names it. */
export const OWN_PLUGIN = 'compact-handoff'

/** Whether a compaction is this mod's own swap. Raised from the go step's
 * timer, the swap never reaches this mod's own session.compact hook (2.1.332);
 * a compaction marked and raised by this mod that ever did (a timer the engine
 * counted as still inside a hook) must still go on to the answer mod, never
 * be routed as one of the engine's. `raisedBy` is the host's
 * `next.origin.plugin`, which no other plugin can set, and only the swap
 * compacts from this mod. */
export function isOwnMarkedCompaction(compaction: { instructions?: string; agentId?: string }, raisedBy: string): boolean {
  return raisedBy === OWN_PLUGIN && compaction.agentId === undefined && compaction.instructions?.startsWith(`${MARKER}\n`) === true
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

/** The continue-prompt with the prompts the person typed while the handoff was
 * being written and applied, which were held back so the swap would not erase them. */
export function continuePromptWithHeld(prompt: string, held: readonly string[]): string {
  if (held.length === 0) return prompt
  return [
    prompt,
    '',
    'The user wrote the following while the handoff was being written and applied. It comes first if it changes the plan:',
    ...held.map((text, i) => `[held message ${i + 1}]\n${text}`),
  ].join('\n')
}

/** What a review shows, one transcript line each: the files, the stub and the
 * continue-prompt that would be used, and how to go on. */
export function reviewLinesOf(swap: SwapFiles & { continuePrompt: string }, stub: string): string[] {
  const files = swap.plan === undefined ? swap.handoff : `${swap.handoff}, ${swap.plan}`
  return [
    `review, then apply. Files: ${files}. You may edit them now.`,
    'The conversation would become this stub:',
    ...stub.split('\n').map((line) => `  ${line}`),
    'and this would be sent next:',
    ...swap.continuePrompt.split('\n').map((line) => `  ${line}`),
    '/compact-handoff apply re-checks the files and swaps; /compact-handoff cancel drops the run.',
  ]
}
