/**
 * `pnpm demo`: the main job of compact-handoff, live and offline. A real interactive
 * Claude Code session (in a private tmux server) loads the two mods and the skill pack
 * with --plugin-dir and talks to the scripted mock API. One ordinary turn, then
 * `/compact-handoff finish the parser`; the demo prints the screen at each stage, the
 * handoff file the skill wrote, and what the model was sent after the swap. Exits 1 if
 * the flow did not complete.
 */
import { existsSync, readFileSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { STUB_OPENING } from '../../packages/compact-handoff/hooks/stub/swap-text.js'
import { claudeVersion } from './claude-cli.js'
import { escapeRe } from './escape-re.js'
import { skillTurn, type SkillTurn } from './handoff-script.js'
import { startMockApi, type MockApi, type MockRequest } from './mock-api.js'
import { blocksOf, carriesToolResult, conversationOf, messageTextOf } from './request-messages.js'
import { createRunDir, type RunDir } from './run-dir.js'
import { PLUGIN_PATHS, foldReminders, indent, pluginDirs, removeRun, runRoot, trimScreen } from './showcase-kit.js'
import { startSession, type Session } from './tmux-session.js'

const FOCUS = 'finish the parser'
const FIRST_PROMPT = 'Add binary operators to the parser in src/parser.ts'
const FIRST_ANSWER = 'Binary operators are in src/parser.ts; error recovery is next.'
/** The model's answer to the continue-prompt: it follows the Next step of the handoff
 * handoff-script.ts writes by default (error recovery in src/parser.ts, then the test). */
const AFTER_ANSWER = 'I read the handoff. Next step: add the error-recovery case to src/parser.ts, then run pnpm test parser.'
const HANDOFF_MOD = 'compact-handoff@inline'
/** How long the mock holds the skill's final answer, so the screen can be read while it runs. */
const HOLD_MS = 1_500

let step = 0
function heading(title: string): void {
  console.log(`\n=== ${++step}. ${title} ${'='.repeat(Math.max(3, 74 - title.length))}\n`)
}

function showScreen(label: string, screen: string): void {
  console.log(`--- screen: ${label} ---`)
  console.log(indent(trimScreen(screen), '  | '))
  console.log('--- end of screen ---')
}

function blockLabel(text: string, continuePrompt: string): string {
  if (text.includes(STUB_OPENING)) return 'the stub compact-handoff-answer put in place of the conversation'
  if (text.trim() === continuePrompt.trim()) return 'the continue-prompt, submitted as the user'
  if (/^\s*<system-reminder>/.test(text)) return "Claude Code's own context"
  return 'other'
}

/** Each text block of the request's conversation, labelled by what it is. */
function showRequest(request: MockRequest, continuePrompt: string): void {
  for (const m of conversationOf(request)) {
    const blocks = blocksOf(m)
    console.log(`[${m.role} message, ${blocks.length} block(s)]`)
    for (const block of blocks) {
      const text = block.type === 'text' ? (block.text ?? '') : `[${block.type ?? 'block'}]`
      console.log(`  - ${blockLabel(text, continuePrompt)}:`)
      console.log(indent(foldReminders(text).trimEnd(), '      '))
    }
  }
}

interface Demo {
  run: RunDir
  mock: MockApi
  session: Session
}

async function startStage(run: RunDir, mock: MockApi): Promise<Session> {
  heading('Start Claude Code with the two mods and the skill pack')
  console.log(`claude ${claudeVersion()}, offline: ANTHROPIC_BASE_URL points at a scripted mock on 127.0.0.1:${mock.port}`)
  console.log(`$ claude ${PLUGIN_PATHS.map((p) => `--plugin-dir ${p}`).join(' ')} --permission-mode bypassPermissions`)
  const session = await startSession({ run, plugins: pluginDirs(), mock })
  const readyMs = await session.waitForReady()
  console.log(`ready after ${readyMs} ms (prompt box drawn, ${session.modIds.join(' and ')} settled)`)
  return session
}

async function ordinaryTurnStage({ run, mock, session }: Demo): Promise<void> {
  heading('An ordinary turn, so there is a conversation to replace')
  const parserFile = join(run.proj, 'src', 'parser.ts')
  mock.script(
    { when: FIRST_PROMPT, toolUses: [{ id: 'toolu_demo_edit', name: 'Write', input: { file_path: parserFile, content: 'export function parse(src: string) {\n  // literals and binary operators\n}\n' } }] },
    { when: (r) => carriesToolResult(r, 'toolu_demo_edit'), text: FIRST_ANSWER },
  )
  console.log(`> ${FIRST_PROMPT}`)
  const mark = session.logMark()
  await session.type(FIRST_PROMPT)
  await session.waitForScreen(/error recovery is next/, 30_000)
  // The turn is over (the mod's turn.complete hook ran), so the screen shows it finished.
  await session.waitForHookSettled(HANDOFF_MOD, 'turn.complete', { since: mark, timeoutMs: 30_000 })
  showScreen('before /compact-handoff', session.screen())
}

/** Runs `/compact-handoff`; returns the skill turn and the first request after the swap. */
async function handoffStage({ run, mock, session }: Demo): Promise<{ turn: SkillTurn; before: number; after: MockRequest }> {
  heading(`/compact-handoff ${FOCUS}`)
  const turn = skillTurn({ proj: run.proj, doc: { focus: FOCUS } })
  // The skill's final answer is held once its request arrives (the Write has run, the
  // answer is still due); the screen read then is "while the skill runs".
  const held = turn.replies.length - 1
  mock.script(...turn.replies.map((reply, i) => (i === held ? { ...reply, delayMs: HOLD_MS } : reply)))
  mock.script({ when: turn.continuePrompt, text: AFTER_ANSWER })
  const before = mock.requests.length
  console.log(`> /compact-handoff ${FOCUS}`)
  await session.type(`/compact-handoff ${FOCUS}`)
  const skillRequest = await mock.waitForRequest((r) => r.seq > before && /compact-mode/.test(r.lastUserText), 30_000)
  console.log('The mod ran the skill command; its request to the model carries (excerpt of the last user message):')
  const excerpt = skillRequest.lastUserText.split('\n').filter((l) => /<command-name>|<command-args>|^Base directory|^Arguments:/.test(l.trim()))
  console.log(indent(excerpt.map((l) => l.trim()).join('\n')))
  const heldRequest = await mock.waitForRequest((r) => r.seq > skillRequest.seq, 30_000)
  // The Write's row names the handoff file once the tool has run and been drawn.
  const during = await session.waitForScreen(new RegExp(escapeRe(basename(turn.handoffPath))), 30_000)
  console.log(`(the mock holds its answer to request #${heldRequest.seq}, the Write's tool_result, for ${HOLD_MS / 1000} s so the screen can be read)`)
  const after = await mock.waitForRequest((r) => r.seq > before && conversationOf(r).some((m) => messageTextOf(m).includes(STUB_OPENING)), 45_000)
  showScreen('while the skill runs (its Write has run, its final answer is due)', during)

  heading('After the swap')
  const mark = session.logMark()
  await session.waitForScreen(/error-recovery case/, 30_000)
  await session.waitForHookSettled(HANDOFF_MOD, 'turn.complete', { since: mark, timeoutMs: 30_000 })
  showScreen('after the swap: the continue-prompt was sent as the user, the model answered', session.screen())
  return { turn, before, after }
}

function showResults({ mock }: Demo, turn: SkillTurn, before: number, after: MockRequest): string | undefined {
  heading(`The handoff file the skill wrote: ${turn.handoffPath}`)
  const written = existsSync(turn.handoffFile) ? readFileSync(turn.handoffFile, 'utf8') : undefined
  console.log(written === undefined ? '(missing)' : indent(written.trimEnd(), '  | '))

  heading('What the model receives after the swap (first request after it, from the mock log)')
  const swapRequests = mock.requests.slice(before).filter((r) => r.seq < after.seq)
  console.log(`requests while the skill ran: ${swapRequests.length} (${swapRequests.map((r) => r.kind).join(', ')}); summariser requests: ${mock.requests.filter((r) => r.kind === 'summary').length}`)
  console.log(`request #${after.seq}: ${conversationOf(after).length} conversation message(s), plus the engine's role:"system" entries:\n`)
  showRequest(after, turn.continuePrompt)
  return written
}

/** The demo's checks; returns the failed ones. */
function checks({ run, mock, session }: Demo, turn: SkillTurn, after: MockRequest, written: string | undefined): string[] {
  heading('Checks')
  const failures: string[] = []
  const check = (ok: boolean, what: string): void => {
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`)
    if (!ok) failures.push(what)
  }
  const allText = conversationOf(after).map(messageTextOf).join('\n')
  check(written !== undefined, `the handoff file exists in the project (${relative(run.proj, turn.handoffFile)})`)
  check(mock.requests.every((r) => r.kind !== 'summary'), 'no summariser request was made')
  check(allText.includes(STUB_OPENING) && allText.includes(turn.handoffPath), "the stub naming the handoff leads the model's next request")
  check(allText.includes(turn.continuePrompt), 'the continue-prompt was submitted as the next user message')
  // The stub may quote the user's own earlier words; nothing else from before may survive.
  const blocks = conversationOf(after).flatMap(blocksOf)
  const outsideStub = blocks
    .filter((b) => b.type === 'text' && !(b.text ?? '').includes(STUB_OPENING))
    .map((b) => b.text ?? '')
    .join('\n')
  check(
    !allText.includes(FIRST_ANSWER) && !outsideStub.includes(FIRST_PROMPT) && !blocks.some((b) => b.type === 'tool_use' || b.type === 'tool_result'),
    "no earlier answer or tool call reached the model after the swap (the user's words only inside the stub)",
  )
  check(/error-recovery case/.test(session.screen()), "the model's answer to the continue-prompt is on screen")
  return failures
}

async function main(): Promise<number> {
  const run = createRunDir('demo', runRoot())
  const mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl'), timeLimitMs: 5 * 60_000 })
  let session: Session | undefined
  const failures: string[] = []
  try {
    session = await startStage(run, mock)
    const demo: Demo = { run, mock, session }
    await ordinaryTurnStage(demo)
    const { turn, before, after } = await handoffStage(demo)
    const written = showResults(demo, turn, before, after)
    failures.push(...checks(demo, turn, after, written))
  } catch (error) {
    failures.push(error instanceof Error ? error.message : String(error))
    console.error(`\nThe flow did not complete: ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    if (session !== undefined) {
      if (failures.length > 0) {
        const lines = session.debugLog().split('\n').filter((l) => /compact-handoff|session\.compact|toast/.test(l))
        console.error(`\nDebug log lines about the mods (${session.debugFile}):\n${lines.slice(-40).join('\n')}`)
      }
      await session.stop()
    }
    await mock.close()
  }
  if (failures.length > 0) {
    console.error(`\nDEMO FAILED (${failures.length} problem(s)); run dir kept: ${run.dir}`)
    return 1
  }
  removeRun(run.dir)
  console.log('\nDemo complete: the conversation was replaced by the handoff and the work carried on.')
  return 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
