/**
 * Issue 32 in a real session, model scripted, at the terminal's default 80 columns: the
 * one message a replacement leaves is drawn as one line naming the handoff, in the
 * engine's manner, for a swap (the stub compact-handoff-answer installs) and for an
 * automatic compaction a fork answered (the stub compact-handoff's own answer installs).
 * - Every frame from the command on, polled quickly, holds no text of the stub: the row
 *   is never drawn whole first.
 * - The normal view after it holds the one row (what happened, the handoff's name and
 *   size, ctrl+o) and no words, facts or handoff section of the stub.
 * - ctrl+o shows the stub whole; the next request carries it unchanged.
 */
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AUTO_COMPACT_INPUT_TOKENS, forkReply, forkReplyText, isForkRequest } from '../harness/fork-script.js'
import { escapeRe } from '../harness/escape-re.js'
import { skillTurn, isSkillTurnFor } from '../harness/handoff-script.js'
import type { MockRequest } from '../harness/mock-api.js'
import { userBlocks } from '../harness/request-messages.js'
import type { Session } from '../harness/tmux-session.js'
import { STUB_OPENING } from '../../packages/compact-handoff/hooks/stub/swap-text.js'
import { sizeTextOf } from '../../packages/compact-handoff/hooks/stub-row/stub-row.js'
import { trackRuns } from './lifecycle.js'
import { ordinaryTurn, pollUntil, requestAfter, startFlow, type Flow } from './flow-support.js'

const DEFAULT_COLUMNS = 80
/** Finer than the engine's redraw (a placeholder, then the hook's answer a few ms later). */
const FRAME_POLL_MS = 25
/** Stub lines shorter than this are words any row may hold ("", "```"). */
const MIN_LINE_CHARS = 16
/** What every stub holds beyond its opening, whatever it was built from. */
const STUB_MARKS = ['Handoff file:', "The user's own messages in this session", 'Nothing else from before was kept', '[user message 1]']

/** Frames of the visible pane every FRAME_POLL_MS until stopped. */
function watchFrames(session: Session): { stop: () => string[] } {
  const frames: string[] = []
  const timer = setInterval(() => frames.push(session.screen()), FRAME_POLL_MS)
  return {
    stop: () => {
      clearInterval(timer)
      return frames
    },
  }
}

/** The text of compact-handoff's toast box in `frame`, its lines joined by spaces; undefined with no box. */
function toastBoxTextOf(frame: string): string | undefined {
  const lines = frame.split('\n')
  const top = lines.findIndex((line, i) => line.includes('╭') && (lines[i + 1] ?? '').includes('│ compact-handoff '))
  if (top < 0) return undefined
  const column = lines[top]!.indexOf('╭')
  const body: string[] = []
  for (const line of lines.slice(top + 2)) {
    const cell = line.slice(column)
    if (cell.startsWith('╰')) break
    body.push(cell.replace(/^│ ?/, '').replace(/ *│\s*$/, '').trim())
  }
  return body.join(' ')
}

/** The stub block of a request. */
function stubOf(request: MockRequest): string {
  const stub = userBlocks(request).find((b) => b.startsWith(STUB_OPENING))
  expect(stub, "the request carries compact-handoff's stub").toBeDefined()
  return stub!
}

/** The stub's text found on `screen`: its marks, and each line by its head (which fits
 * one screen line), but the person's own prompts (`ask …`), which have rows of their own. */
function stubTextOnScreen(screen: string, stub: string): string[] {
  const heads = stub
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length >= MIN_LINE_CHARS && !line.startsWith('ask '))
    .map((line) => line.slice(0, 40))
  const found = [...STUB_MARKS, STUB_OPENING.slice(0, 40), ...heads].filter((head) => screen.includes(head))
  return [...new Set(found)]
}

/** Of a name the row shortens from the left to fit 80 columns, this much always stays. */
const NAME_TAIL_CHARS = 24

/** The one row: what happened, the handoff's name (or its tail), its size, ctrl+o. */
function rowRe(handoff: string, bytes: number): RegExp {
  const name = handoff.slice(handoff.lastIndexOf('/') + 1)
  return new RegExp(`compact-handoff: (swapped|compacted) to [^\\n]*${escapeRe(name.slice(-NAME_TAIL_CHARS))} \\(${escapeRe(sizeTextOf(bytes))}\\) · ctrl\\+o`)
}

async function openTranscript(session: Session, wanted: RegExp): Promise<string> {
  session.pressKeys('C-o')
  try {
    return await session.waitForScreen(wanted, 15_000)
  } finally {
    session.pressKeys('C-o')
  }
}

/** The checks after a replacement: no frame drew the stub, the normal view holds its one
 * row alone, ctrl+o holds it whole, and `next` and `later` carry it unchanged. */
async function expectOneRow(flow: Flow, frames: string[], handoff: string, next: MockRequest, later: MockRequest): Promise<void> {
  const { session, run } = flow
  const stub = stubOf(next)
  const bytes = statSync(join(run.proj, handoff)).size
  const drawnWhole = frames.filter((frame) => stubTextOnScreen(frame, stub).length > 0)
  expect(drawnWhole.map((frame) => stubTextOnScreen(frame, stub)), `no frame of ${frames.length} drew the stub's text`).toEqual([])

  const screen = await session.waitForScreen(rowRe(handoff, bytes), 15_000)
  expect(screen.split('\n').filter((line) => rowRe(handoff, bytes).test(line)), 'the row is one line').toHaveLength(1)
  expect(stubTextOnScreen(screen, stub), 'the normal view holds no text of the stub').toEqual([])

  const transcript = await openTranscript(session, new RegExp(escapeRe('Nothing else from before was kept')))
  // The view ends at the conversation's end (a long stub's opening may be above it) and
  // draws the stub as Markdown, so its last lines of plain prose are looked for.
  const closing = stub.split('\n').map((line) => line.trim()).filter((line) => line.length >= MIN_LINE_CHARS && /^[A-Z][^`*_#[\]]*$/.test(line)).slice(-3)
  expect(closing.length, 'the stub ends in prose').toBeGreaterThan(1)
  for (const line of closing) expect(transcript, `ctrl+o draws the stub whole: "${line}"`).toContain(line.slice(0, 40))
  expect(transcript).not.toMatch(rowRe(handoff, bytes))

  expect(stub, 'the model receives the stub, not the row').not.toContain('ctrl+o')
  expect(stubOf(later), 'the next request carries it unchanged').toBe(stub)
  expect(readFileSync(join(run.proj, handoff), 'utf8').length).toBeGreaterThan(0)
}

describe("the stub's row", () => {
  const { track } = trackRuns()

  it('after a swap is one line naming the handoff, whole under ctrl+o', async () => {
    const flow = await startFlow('stub-row-swap', track)
    const { mock, session, run } = flow
    session.tmux('resize-window', '-t', 'cc', '-x', String(DEFAULT_COLUMNS))
    await ordinaryTurn(flow, 'ROW-ONE')
    const turn = skillTurn({ proj: run.proj, doc: { slug: 'parser-finish', focus: 'finish the parser' } })
    mock.script(...turn.replies)
    const before = mock.requests.length
    const watching = watchFrames(session)
    await session.type('/compact-handoff finish the parser')
    const skillRequest = await mock.waitForRequest((r) => r.seq > before && isSkillTurnFor(r.lastUserText, 'finish the parser'), 30_000)
    const next = await requestAfter(mock, skillRequest.seq, turn.continuePrompt)
    await session.waitForScreen(/OK \(mock default reply\)/, 30_000)
    const frames = watching.stop()
    const later = await ordinaryTurn(flow, 'ROW-TWO')
    await expectOneRow(flow, frames, turn.handoffPath, next, later)
  })

  it('after an automatic compaction a fork answered is one line naming the handoff, whole under ctrl+o', async () => {
    const flow = await startFlow('stub-row-fork', track)
    const { mock, session } = flow
    session.tmux('resize-window', '-t', 'cc', '-x', String(DEFAULT_COLUMNS))
    await ordinaryTurn(flow, 'ROW-FORK-ONE', { inputTokens: AUTO_COMPACT_INPUT_TOKENS })
    const typed = 'ask ROW-FORK-TWO: now the error recovery'
    mock.script(forkReply(forkReplyText({ focus: 'finish the parser' }, 'fenced')), { when: (r) => !isForkRequest(r) && r.lastUserText.includes(typed), text: 'REPLY-ROW-FORK-TWO' })
    const since = mock.requests.length
    const watching = watchFrames(session)
    await session.type(typed)
    const next = await mock.waitForRequest((r) => r.seq > since && r.kind === 'main' && r.status === 200 && !isForkRequest(r), 30_000)
    await session.waitForScreen(/REPLY-ROW-FORK-TWO/, 30_000)
    const frames = watching.stop()
    const handoff = (stubOf(next).match(/^Handoff file: (\S+)/m) ?? [])[1]
    expect(handoff, 'the stub names its handoff').toBeDefined()
    // The toast of the compaction, drawn whole in its box at 80 columns.
    const toast = await session.waitForToast(/^the automatic compaction became a checked handoff: /, { mod: 'compact-handoff', timeoutMs: 10_000 })
    // Drawn once the nudge's toast of the turn before has left the box.
    const boxes = watchFrames(session)
    await pollUntil("the compaction's toast in its box", 20_000, () => (toastBoxTextOf(session.screen()) === toast.text ? true : undefined)).finally(() => frames.push(...boxes.stop()))
    const drawn = new Set(frames.map(toastBoxTextOf).filter((text): text is string => text !== undefined && text !== ''))
    const shown = session.toasts().filter((t) => t.mod === 'compact-handoff').map((t) => t.text)
    for (const text of drawn) expect(shown, `the toast box holds a whole toast: "${text}"`).toContain(text)
    const later = await ordinaryTurn(flow, 'ROW-FORK-THREE')
    await expectOneRow(flow, frames, handoff!, next, later)
  })
})
