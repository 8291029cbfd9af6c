// /compact-handoff resume [path] and the start-of-session offer (resume.ts
// decides). The command hook checks and answers; the prompt goes out from a
// timer, since a prompt submitted inside a command hook is refused.
import type { EngineInterface } from 'claude-code'
import { HANDOFF_DIRS, classifyHandoffPath, fileKindOfName, inFolder, type HandoffPath } from './protocol-paths.js'
import { frontmatterOf } from './handoff-format.js'
import { isReadable, resumeProblemsOf } from './file-check.js'
import { MAX_CANDIDATES, isOfferable, newestResumable, offerTextOf, resumePromptOf, sectionsOf, usedHandoffsOf, type Candidate } from './resume.js'
import { readPhase, setLastSwap } from './state.js'
import { appendResumeLog, swapLogText } from './swap-log-steps.js'
import { watchAfter } from './work-steps.js'
import { folderFactsOf } from './folder-steps.js'
import { committerOf, doubtOf, lastCommitArgvOf, listArgvOf, listingOf, type Tracking } from './git-answer.js'

type $ = EngineInterface

const OFFER_TOAST_MS = 12_000
const RESUME_CHOICE = 'Resume from it'

type Listed = { relPath: string; kind: 'handoff' | 'plan'; mtimeMs: number }

/** Handoff and plan files in the handoff folders, newest first. */
async function listHandoffFiles($: $, cwd: string): Promise<Listed[]> {
  const listed: Listed[] = []
  for (const dir of HANDOFF_DIRS) {
    const entries = await $.fs.list(inFolder(cwd, dir)).catch(() => [])
    for (const entry of entries) {
      const kind = entry.kind === 'file' ? fileKindOfName(entry.name) : undefined
      if (kind !== undefined) listed.push({ relPath: `${dir}/${entry.name}`, kind, mtimeMs: entry.mtimeMs })
    }
  }
  return listed.sort((a, b) => b.mtimeMs - a.mtimeMs)
}

async function readText($: $, path: string): Promise<string | undefined> {
  const text = await $.fs.read(path).catch(() => undefined)
  return typeof text === 'string' ? text : undefined
}

/** The newest handoffs with what their frontmatter says of their status. */
async function candidatesOf($: $, cwd: string, listed: readonly Listed[]): Promise<Candidate[]> {
  const handoffs = listed.filter((f) => f.kind === 'handoff').slice(0, MAX_CANDIDATES)
  const texts = await Promise.all(handoffs.map((f) => readText($, inFolder(cwd, f.relPath))))
  return handoffs.map((f, i) => ({ relPath: f.relPath, mtimeMs: f.mtimeMs, status: frontmatterOf(texts[i] ?? '')?.get('status') }))
}

/** What git says of `relPath` (git-answer.ts): tracked and by whom, not tracked, or that it could not say. */
async function trackingOf($: $, cwd: string, relPath: string): Promise<Tracking> {
  const listed = listingOf(await $.process.run(listArgvOf(relPath), { cwd }).catch(() => undefined))
  if (listed.kind !== 'tracked') return listed
  return { kind: 'tracked', by: committerOf(await $.process.run(lastCommitArgvOf(relPath), { cwd }).catch(() => undefined)) }
}

type Picked = { cwd: string; handoff: string; prompt: string; bytes: number; doubt?: string }

/** The plan of the handoff's chain in the same folder, if there is one. */
async function planOf($: $, cwd: string, listed: readonly Listed[], handoff: string, chain: string | undefined): Promise<string | undefined> {
  if (chain === undefined) return undefined
  const folder = handoff.slice(0, handoff.lastIndexOf('/'))
  for (const plan of listed.filter((f) => f.kind === 'plan' && f.relPath.startsWith(`${folder}/`))) {
    if (frontmatterOf((await readText($, inFolder(cwd, plan.relPath))) ?? '')?.get('chain') === chain) return plan.relPath
  }
  return undefined
}

/** The command: checks the file as a swap's would be checked, and answers. */
export async function answerResume($: $, pathArg: string): Promise<string> {
  const phase = await readPhase($)
  if (phase.kind !== 'idle') return 'A handoff run is under way; resume once it is done, or drop it with /compact-handoff cancel.'
  const cwd = await $.session.cwd()
  const listed = await listHandoffFiles($, cwd)
  let file: HandoffPath | undefined
  const folder = await folderFactsOf($, cwd)
  if (pathArg !== '') {
    file = classifyHandoffPath(pathArg, cwd, folder.ignoresCase)
    if (file?.kind !== 'handoff') return `Not resumed: ${pathArg} is not a HANDOFF_*.md file directly under plans/handoffs/ or .claude/handoffs/ of this project.`
  } else {
    const newest = newestResumable(await candidatesOf($, cwd, listed))
    if (newest === undefined) return 'No handoff to resume: none in plans/handoffs/ or .claude/handoffs/ has status in-progress or waiting-for-user. Name one: /compact-handoff resume <path>.'
    file = { kind: 'handoff', relPath: newest.relPath }
  }
  const path = inFolder(cwd, file.relPath)
  const stat = await $.fs.stat(path, { resolve: true }).catch(() => undefined)
  const text = isReadable(stat) ? await readText($, path) : undefined
  const problems = resumeProblemsOf({ file, stat, ...folder, text }, cwd)
  if (problems.length > 0 || text === undefined) return ['Not resumed; nothing was sent:', ...problems.map((p) => `- ${p}`)].join('\n')

  const fields = frontmatterOf(text)
  const plan = await planOf($, cwd, listed, file.relPath, fields?.get('chain'))
  const prompt = resumePromptOf({
    handoff: file.relPath,
    ...(plan !== undefined ? { plan } : {}),
    status: fields?.get('status') ?? 'unknown',
    created: fields?.get('created') ?? 'at an unknown time',
    nextStep: sectionsOf(text).get('Next step') ?? '',
  })
  const doubt = doubtOf(await trackingOf($, cwd, file.relPath))
  const picked: Picked = { cwd, handoff: file.relPath, prompt, bytes: stat?.size ?? 0, ...(doubt !== undefined ? { doubt } : {}) }
  $.clock.after(0, () => void sendResume($, picked))
  return doubt !== undefined
    ? `${file.relPath} ${doubt}: it may come from someone else. Confirm in the question to resume from it.`
    : `Resuming from ${file.relPath}.`
}

/** Timer: asks first unless git said it does not track the file, then submits
 * the continue-prompt as the person's own and records the resume. */
async function sendResume($: $, picked: Picked): Promise<void> {
  if (picked.doubt !== undefined) {
    const question = `${picked.handoff} ${picked.doubt}. Someone else may have written it, and Claude will be told to follow it. Resume from it?`
    const answer = await $.ui.ask(question, [RESUME_CHOICE, 'Do not resume']).catch(() => undefined)
    if (answer !== RESUME_CHOICE) {
      $.ui.toast(`compact-handoff: not resumed from ${picked.handoff}; nothing was sent.`)
      return
    }
  }
  await $.prompt.submit({ text: picked.prompt, asUser: true })
  const usage = await $.session.usage().catch(() => undefined)
  await setLastSwap($, { kind: 'swapped', handoff: picked.handoff })
  await appendResumeLog($, picked.cwd, picked.handoff, picked.bytes, usage?.context.percent ?? null)
  await watchAfter($, picked.cwd, 'resumed', picked.handoff)
}

/** At the start of a new session: one toast naming the newest resumable
 * handoff, when it is recent, not yet used, and not one git tracks. */
export async function offerResume($: $): Promise<void> {
  // A conversation that was resumed already has its work in front of it.
  if ((await $.session.messages()).length > 0) return
  const cwd = await $.session.cwd()
  const newest = newestResumable(await candidatesOf($, cwd, await listHandoffFiles($, cwd)))
  if (newest === undefined) return
  const nowMs = await $.clock.now()
  const isUsed = usedHandoffsOf(await swapLogText($, cwd)).has(newest.relPath)
  // Only git's own "not tracked" lets a file be offered; its silence does not.
  const isTracked = (await trackingOf($, cwd, newest.relPath)).kind !== 'untracked'
  if (!isOfferable(newest, nowMs, { isTracked, isUsed })) return
  $.ui.toast(offerTextOf(newest.relPath, nowMs - newest.mtimeMs), { timeoutMs: OFFER_TOAST_MS })
}
