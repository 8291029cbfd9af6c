// Picking up a handoff in a fresh session: which file, whether to offer it,
// and the continue-prompt built by code from it. Pure: the steps list the
// folders, read the files and ask git (resume-steps.ts).
import { HANDOFF_STATUSES, sectionNameOf, type SectionName } from './protocol-contents.js'

/** Statuses a resume picks up; a `done` handoff has nothing left to do. */
export const RESUMABLE_STATUSES: readonly string[] = HANDOFF_STATUSES.filter((s) => s !== 'done')

/** A handoff is offered at session start only this long after it was written. */
export const OFFER_WITHIN_MS = 24 * 60 * 60 * 1000

/** Files read to find the newest resumable one, newest first; older ones are not looked at. */
export const MAX_CANDIDATES = 20

export type Candidate = { relPath: string; mtimeMs: number; status: string | undefined }

/** The newest handoff whose status says there is work left. */
export function newestResumable(candidates: readonly Candidate[]): Candidate | undefined {
  return [...candidates].filter((c) => c.status !== undefined && RESUMABLE_STATUSES.includes(c.status)).sort((a, b) => b.mtimeMs - a.mtimeMs)[0]
}

/** Whether the session-start toast may name `candidate`: recent, never swapped
 * in or resumed yet, and not a file git tracks (a clone brings other people's). */
export function isOfferable(candidate: Candidate, nowMs: number, facts: { isTracked: boolean; isUsed: boolean }): boolean {
  return nowMs - candidate.mtimeMs <= OFFER_WITHIN_MS && !facts.isTracked && !facts.isUsed
}

const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/

/** Each handoff section's text, keyed by its name: a linear scan of level-2
 * headings outside fenced code. The file has passed the format check first. */
export function sectionsOf(text: string): Map<SectionName, string> {
  const sections = new Map<SectionName, string>()
  let current: SectionName | undefined
  let body: string[] = []
  let fence: string | undefined
  const close = () => {
    if (current !== undefined) sections.set(current, body.join('\n').trim())
  }
  for (const line of text.split('\n')) {
    const opened = FENCE_RE.exec(line.slice(0, 40))?.[1]
    if (fence !== undefined) {
      if (opened !== undefined && opened[0] === fence[0] && opened.length >= fence.length) fence = undefined
    } else if (opened !== undefined) fence = opened
    else if (/^ {0,3}## /.test(line.slice(0, 8))) {
      close()
      current = sectionNameOf(line.trim().slice(3))
      body = []
      continue
    }
    body.push(line)
  }
  close()
  return sections
}

/** What the next step says first; a long one is cut, since the file is read anyway. */
const MAX_NEXT_STEP_CHARS = 600
export const WAIT_FOR_USER_PREFIX = 'Wait for the user:'

export type ResumeFacts = { handoff: string; plan?: string; status: string; created: string; nextStep: string }

export function resumePromptOf(facts: ResumeFacts): string {
  const next = facts.nextStep.length > MAX_NEXT_STEP_CHARS ? `${facts.nextStep.slice(0, MAX_NEXT_STEP_CHARS)} […]` : facts.nextStep
  const isWaiting = next.startsWith(WAIT_FOR_USER_PREFIX)
  return [
    `Resume the work from the handoff ${facts.handoff} (status ${facts.status}, written ${facts.created}). Read it whole first.${facts.plan !== undefined ? ` Then read the plan ${facts.plan}.` : ''}`,
    'Reopen the files its Files section names. Run its Verify commands, but only those that change nothing and reach no network; say which you skipped and why. Compare what they show with what the handoff claims: where they differ, the repository wins over the note.',
    'Follow its Constraints exactly, word for word.',
    isWaiting
      ? `Its Next step waits for me: ask me what it asks, and wait for my answer before changing anything. It says: ${next}`
      : `Then do its Next step${facts.plan !== undefined ? ' (the first unfinished phase of the plan)' : ''}: ${next}`,
  ].join('\n')
}

/** Handoffs already swapped in or resumed, from the swap log's text: the
 * start-of-session offer never names one of them again. */
export function usedHandoffsOf(logText: string): Set<string> {
  const used = new Set<string>()
  for (const line of logText.split('\n')) {
    if (!line.includes('"outcome"')) continue
    try {
      const entry = JSON.parse(line) as { outcome?: unknown; files?: { path?: unknown }[] }
      if (entry.outcome !== 'swapped' && entry.outcome !== 'engine-summarized' && entry.outcome !== 'resumed') continue
      for (const file of entry.files ?? []) if (typeof file.path === 'string') used.add(file.path)
    } catch {
      continue
    }
  }
  return used
}

export function offerTextOf(relPath: string, ageMs: number): string {
  const hours = Math.max(1, Math.round(ageMs / 3_600_000))
  return `compact-handoff: a handoff from about ${hours} hour(s) ago is waiting: ${relPath}. /compact-handoff resume picks it up.`
}
