// /compact-handoff resume [path] and the start-of-session offer (resume.ts
// and ownership.ts decide). The command hook checks and answers; the question
// and the prompt go out from a timer, since a prompt submitted inside a
// command hook is refused.
import type { EngineInterface } from 'claude-code'
import { TOASTS } from '../text/toasts.js'
import { showToast } from '../text/toast-steps.js'
import { HANDOFF_DIRS, classifyHandoffPath, fileKindOfName, inFolder, type HandoffPath } from '../protocol/protocol-paths.js'
import { MAX_HANDOFF_BYTES } from '../protocol/protocol-contents.js'
import { sectionTextsOf } from '../format/handoff-format.js'
import { frontmatterOf } from '../format/frontmatter.js'
import { resumeProblemsOf } from '../run/file-check.js'
import { fileInputOnDisk } from '../run/run-steps.js'
import { folderInputOf, listProjectFolder } from '../disk/disk-steps.js'
import type { ProjectFolder } from '../disk/disk-rule.js'
import { FRONTMATTER_READ_BYTES, MAX_CANDIDATES, committerOf, doubtOf, foreignQuestionOf, foreignRefusalOf, foreignResumePromptOf, lastCommitArgvOf, listArgvOf, listingOf, newestResumable, offerRecordOf, ownPlanOf, rankMsOf, resumePromptOf, type Candidate, type Tracking } from './resume.js'
import { fingerprintOf, ownershipReasonOf } from '../ownership/ownership.js'
import { markUsed, ownershipOnDisk, readOwnRecords } from '../ownership/ownership-steps.js'
import { readInteractive, readPhase } from '../run/run-state.js'
import { appendSwapLog } from '../swap-log/swap-log-steps.js'
import { watchAfter } from '../facts/work-steps.js'
import { withRunningSection } from '../background/running.js'
import { checkedFileOf, setLastHandoff } from '../stub/stub-steps.js'
import type { CheckedFile } from '../stub/swap-text.js'
import { runningNow } from '../background/running-steps.js'

type $ = EngineInterface

const OFFER_TOAST_MS = 12_000
const LEFT_OUT_TOAST_MS = 12_000
const RESUME_CHOICE = 'Resume from it'
/** What of a field is handed to the engine's masking (it takes at most
 * 100,000 characters); far more than any prompt or question shows of it. */
const MASKED_INPUT_CHARS = 8_000

type Listed = { relPath: string; kind: 'handoff' | 'plan'; mtimeMs: number }

async function listHandoffFiles($: $, folder: ProjectFolder): Promise<Listed[]> {
  const listed: Listed[] = []
  for (const dir of HANDOFF_DIRS) {
    // A file there that is a link lists as `other`, never as a file.
    const entries = await listProjectFolder($, folder, dir).catch(() => [])
    for (const entry of entries) {
      const kind = entry.kind === 'file' ? fileKindOfName(entry.name) : undefined
      if (kind !== undefined) listed.push({ relPath: `${dir}/${entry.name}`, kind, mtimeMs: entry.mtimeMs })
    }
  }
  return listed
}

/** The top of a file, where its frontmatter sits: all a handoff status or chain needs. */
async function frontmatterAt($: $, path: string): Promise<ReadonlyMap<string, string> | undefined> {
  const head = await $.fs.read(path, { offset: 0, length: FRONTMATTER_READ_BYTES }).catch(() => undefined)
  return typeof head === 'string' ? frontmatterOf(head) : undefined
}

async function candidatesOf($: $, cwd: string, listed: readonly Listed[], nowMs: number): Promise<Candidate[]> {
  const handoffs = listed
    .filter((f) => f.kind === 'handoff')
    .sort((a, b) => rankMsOf(b.mtimeMs, nowMs) - rankMsOf(a.mtimeMs, nowMs))
    .slice(0, MAX_CANDIDATES)
  const fields = await Promise.all(handoffs.map((f) => frontmatterAt($, inFolder(cwd, f.relPath))))
  return handoffs.map((f, i) => ({ relPath: f.relPath, mtimeMs: f.mtimeMs, status: fields[i]?.get('status') }))
}

async function trackingOf($: $, cwd: string, relPath: string): Promise<Tracking> {
  const listed = listingOf(await $.process.run(listArgvOf(relPath), { cwd }).catch(() => undefined))
  if (listed.kind !== 'tracked') return listed
  return { kind: 'tracked', by: committerOf(await $.process.run(lastCommitArgvOf(relPath), { cwd }).catch(() => undefined)) }
}

/** The plan of the handoff's chain in the same folder, if there is one,
 * read whole and held to the ownership record: a chain value is in every copy
 * of a file, so a plan that arrives later (a pull, a PR) can carry the chain
 * of the person's own handoff, and the value says nothing of who wrote it. */
async function planOf($: $, folder: ProjectFolder, listed: readonly Listed[], handoff: string, chain: string | undefined): Promise<CheckedFile | undefined> {
  if (chain === undefined) return undefined
  const dir = handoff.slice(0, handoff.lastIndexOf('/'))
  for (const plan of listed.filter((f) => f.kind === 'plan' && f.relPath.startsWith(`${dir}/`))) {
    if ((await frontmatterAt($, inFolder(folder.cwd, plan.relPath)))?.get('chain') === chain) return checkedFileOf($, folder, plan.relPath)
  }
  return undefined
}

function masked($: $, text: string): Promise<string> {
  return $.session.redact(text.slice(0, MASKED_INPUT_CHARS))
}

/** `leftOut`: what the person is told of a plan left out of the prompt, in a
 * toast, for them alone (a command's answer goes into later requests). */
type Picked = { cwd: string; handoff: string; prompt: string; isOwn: boolean; question?: string; leftOut?: { plan: string; detail: string } }

/** The file named, or the newest with work left in the handoff folders. */
async function chosenFile($: $, folder: ProjectFolder, listed: readonly Listed[], pathArg: string): Promise<HandoffPath | string> {
  if (pathArg !== '') {
    const file = classifyHandoffPath(pathArg, folder.cwd, folder.ignoresCase)
    return file?.kind === 'handoff' ? file : `Not resumed: ${pathArg} is not a HANDOFF_*.md file directly under plans/handoffs/ or .claude/handoffs/ of this project.`
  }
  const nowMs = await $.clock.now()
  const newest = newestResumable(await candidatesOf($, folder.cwd, listed, nowMs))
  return newest !== undefined
    ? { kind: 'handoff', relPath: newest.relPath }
    : 'No handoff to resume: none in plans/handoffs/ or .claude/handoffs/ has status in-progress or waiting-for-user. Name one: /compact-handoff resume <path>.'
}

/** The command: checks the file as a swap's would be checked, learns whether
 * it is the person's own, and answers; any other is asked about first, from the timer. */
export async function answerResume($: $, pathArg: string): Promise<string> {
  const phase = await readPhase($)
  if (phase.kind !== 'idle') return 'A handoff run is under way; resume once it is done, or drop it with /compact-handoff cancel.'
  const cwd = await $.session.cwd()
  const folder = await folderInputOf($, cwd)
  const listed = await listHandoffFiles($, folder)
  const file = await chosenFile($, folder, listed, pathArg)
  if (typeof file === 'string') return file
  const input = await fileInputOnDisk($, folder, file)
  const { text } = input
  const problems = resumeProblemsOf(input, cwd)
  if (problems.length > 0 || text === undefined) return ['Not resumed; nothing was sent:', ...problems.map((p) => `- ${p}`)].join('\n')

  const fields = frontmatterOf(text)
  const sections = sectionTextsOf(text)
  const plan = await planOf($, folder, listed, file.relPath, fields?.get('chain'))
  const nextStep = await masked($, sections.get('Next step') ?? '')
  const ownership = await ownershipOnDisk($, cwd, file.relPath, text)
  const base = { cwd, handoff: file.relPath }
  if (ownership === 'own') {
    const status = fields?.get('status') ?? 'unknown'
    const created = fields?.get('created') ?? 'at an unknown time'
    const named = ownPlanOf(file.relPath, plan)
    const prompt = resumePromptOf({ handoff: file.relPath, ...(named.plan !== undefined ? { plan: named.plan } : {}), status, created, nextStep })
    $.clock.after(0, () => void sendResume($, { ...base, prompt, isOwn: true, ...(named.leftOut !== undefined ? { leftOut: named.leftOut } : {}) }))
    return `Resuming from ${file.relPath}.`
  }
  const reasons = [ownershipReasonOf(ownership)]
  // Nobody to ask, and no git call where nobody is at the prompt.
  if (!(await readInteractive($))) return foreignRefusalOf(file.relPath, reasons)
  const doubt = doubtOf(await trackingOf($, cwd, file.relPath))
  if (doubt !== undefined) reasons.push(`it ${doubt}`)
  const question = foreignQuestionOf(file.relPath, reasons, await masked($, sections.get('Verify') ?? ''), plan?.relPath)
  const prompt = foreignResumePromptOf({ handoff: file.relPath, ...(plan !== undefined ? { plan: plan.relPath } : {}), nextStep })
  $.clock.after(0, () => void sendResume($, { ...base, prompt, isOwn: false, question }))
  return `${file.relPath}: ${reasons.join('; ')}. Confirm in the question to resume from it.`
}

/** Timer: asks first when the file is not the person's own, then submits the
 * continue-prompt as the person's and records the resume. The prompt names
 * what this session still runs in the background, read as it goes out. */
async function sendResume($: $, picked: Picked): Promise<void> {
  if (picked.question !== undefined) {
    // Dismissed, or refused where nobody can be asked: both are a no.
    const answer = await $.ui.ask(picked.question, [RESUME_CHOICE, 'Do not resume']).catch(() => undefined)
    if (answer !== RESUME_CHOICE) {
      showToast($, TOASTS.notResumed(picked.handoff))
      return
    }
  }
  await $.prompt.submit({ text: withRunningSection(picked.prompt, await runningNow($)), asUser: true })
  if (picked.leftOut !== undefined) showToast($, TOASTS.planLeftOut(picked.leftOut.plan, picked.leftOut.detail), LEFT_OUT_TOAST_MS)
  await setLastHandoff($, { kind: 'handoff', handoff: picked.handoff })
  if (picked.isOwn) await markUsed($, picked.cwd, picked.handoff)
  await appendSwapLog($, picked.cwd, { outcome: 'resumed', files: [picked.handoff] })
  await watchAfter($, picked.cwd, 'resumed', picked.handoff)
}

/** At the start of a new conversation: one toast naming the newest own
 * handoff with work left, when recent and not yet used. Bounded whatever the
 * folders hold: the records decide which one file could be offered, and only
 * that one is read (its size checked first), to see it still matches. No git. */
export async function offerResume($: $, isInteractive: boolean): Promise<void> {
  if (!isInteractive) return
  // A conversation that was resumed already has its work in front of it.
  const messages = await $.session.messages({ last: 1 })
  if (!Array.isArray(messages) || messages.length > 0) return
  const [cwd, nowMs, records] = await Promise.all([$.session.cwd(), $.clock.now(), readOwnRecords($)])
  const offer = offerRecordOf(records, cwd, nowMs)
  if (offer === undefined) return
  const path = inFolder(cwd, offer.relPath)
  const stat = await $.fs.stat(path).catch(() => undefined)
  if (stat?.kind !== 'file' || stat.size !== offer.record.bytes || stat.size > MAX_HANDOFF_BYTES) return
  const text = await $.fs.read(path).catch(() => undefined)
  if (typeof text !== 'string' || (await fingerprintOf(text)).sha256 !== offer.record.sha256) return
  showToast($, TOASTS.offer(offer.relPath, nowMs - offer.record.writtenAtMs), OFFER_TOAST_MS)
}
