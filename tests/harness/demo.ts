/**
 * `pnpm demo`: the main job of compact-handoff, live and offline. A real interactive
 * Claude Code session (in a private tmux server) loads the two mods and the skill pack
 * with --plugin-dir and talks to the scripted mock API. One ordinary turn, then
 * `/compact-handoff finish the parser`; the demo prints the screen at each stage, the
 * handoff file the skill wrote, and what the model was sent after the swap. Exits 1 if
 * the flow did not complete.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { existsSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { carriesToolResult, skillTurn } from './handoff-script.js'
import { STUB_OPENING } from '../../packages/compact-handoff/hooks/swap-text.js'
import { startMockApi, type MockRequest } from './mock-api.js'
import { claudeVersion, createRunDir, startSession, type Session } from './session.js'
import { PLUGIN_PATHS, conversationOf, foldReminders, indent, pluginDirs, removeRun, runRoot, textOf, trimScreen } from './showcase-kit.js'

const FOCUS = 'finish the parser'
const FIRST_PROMPT = 'Add binary operators to the parser in src/parser.ts'
const FIRST_ANSWER = 'Binary operators are in src/parser.ts; error recovery is next.'
const AFTER_ANSWER = 'I read the handoff. Next step: add the error-recovery case to src/parser.ts, then run pnpm test parser.'
/** The stub compact-handoff installs in place of the conversation starts with this. */

let step = 0
function heading(title: string): void {
  console.log(`\n=== ${++step}. ${title} ${'='.repeat(Math.max(3, 74 - title.length))}\n`)
}

function showScreen(label: string, screen: string): void {
  console.log(`--- screen: ${label} ---`)
  console.log(indent(trimScreen(screen), '  | '))
  console.log('--- end of screen ---')
}

/** Each text block of the request's conversation, labelled by what it is. */
function showRequest(request: MockRequest, continuePrompt: string): void {
  for (const m of conversationOf(request)) {
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? (m.content as Array<{ type?: string; text?: string }>) : []
    console.log(`[${m.role} message, ${blocks.length} block(s)]`)
    for (const block of blocks) {
      const text = block.type === 'text' ? (block.text ?? '') : `[${block.type ?? 'block'}]`
      const label = text.includes(STUB_OPENING)
        ? 'the stub compact-handoff-answer put in place of the conversation'
        : text.trim() === continuePrompt.trim()
          ? 'the continue-prompt, submitted as the user'
          : /^\s*<system-reminder>/.test(text)
            ? "Claude Code's own context"
            : 'other'
      console.log(`  - ${label}:`)
      console.log(indent(foldReminders(text).trimEnd(), '      '))
    }
  }
}

async function main(): Promise<number> {
  const run = createRunDir('demo', runRoot())
  const mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl'), timeLimitMs: 5 * 60_000 })
  let session: Session | undefined
  const failures: string[] = []
  const check = (ok: boolean, what: string): void => {
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`)
    if (!ok) failures.push(what)
  }
  try {
    heading('Start Claude Code with the two mods and the skill pack')
    console.log(`claude ${claudeVersion()}, offline: ANTHROPIC_BASE_URL points at a scripted mock on 127.0.0.1:${mock.port}`)
    console.log(`$ claude ${PLUGIN_PATHS.map((p) => `--plugin-dir ${p}`).join(' ')} --permission-mode bypassPermissions`)
    session = await startSession({ run, plugins: pluginDirs(), mock })
    const readyMs = await session.waitForReady()
    console.log(`ready after ${readyMs} ms (prompt box drawn, ${session.modIds.join(' and ')} settled)`)

    heading('An ordinary turn, so there is a conversation to replace')
    const parserFile = join(run.proj, 'src', 'parser.ts')
    mock.script(
      { when: FIRST_PROMPT, toolUses: [{ id: 'toolu_demo_edit', name: 'Write', input: { file_path: parserFile, content: 'export function parse(src: string) {\n  // literals and binary operators\n}\n' } }] },
      { when: (r) => carriesToolResult(r, 'toolu_demo_edit'), text: FIRST_ANSWER },
    )
    console.log(`> ${FIRST_PROMPT}`)
    await session.type(FIRST_PROMPT)
    await session.waitForScreen(/error recovery is next/, 30_000)
    await sleep(300)
    showScreen('before /compact-handoff', session.screen())

    heading(`/compact-handoff ${FOCUS}`)
    const turn = skillTurn({ proj: run.proj, doc: { focus: FOCUS } })
    // The skill's final answer is held for a moment once its request arrives (the Write
    // has run, the answer is still due); the screen read then is "while the skill runs".
    const held = turn.replies.length - 1
    const replies = turn.replies.map((reply, i) => (i === held ? { ...reply, delayMs: 1_500 } : reply))
    mock.script(...replies)
    mock.script({ when: turn.continuePrompt, text: AFTER_ANSWER })
    const before = mock.requests.length
    console.log(`> /compact-handoff ${FOCUS}`)
    await session.type(`/compact-handoff ${FOCUS}`)
    const skillRequest = await mock.waitForRequest((r) => r.seq > before && /compact-mode/.test(r.lastUserText), 30_000)
    console.log('The mod ran the skill command; its request to the model carries (excerpt of the last user message):')
    const excerpt = skillRequest.lastUserText.split('\n').filter((l) => /<command-name>|<command-args>|^Base directory|^Arguments:/.test(l.trim()))
    console.log(indent(excerpt.map((l) => l.trim()).join('\n')))
    const heldRequest = await mock.waitForRequest((r) => r.seq > skillRequest.seq, 30_000)
    await sleep(700)
    const during = session.screen()
    console.log(`(the mock holds its answer to request #${heldRequest.seq}, the Write's tool_result, for 1.5 s so the screen can be read)`)
    const after = await mock.waitForRequest((r) => r.seq > before && conversationOf(r).some((m) => textOf(m).includes(STUB_OPENING)), 45_000)
    showScreen('while the skill runs (its Write has run, its final answer is due)', during)

    heading('After the swap')
    await session.waitForScreen(/error-recovery case/, 30_000)
    await sleep(300)
    showScreen('after the swap: the continue-prompt was sent as the user, the model answered', session.screen())

    heading(`The handoff file the skill wrote: ${turn.handoffPath}`)
    const written = existsSync(turn.handoffFile) ? readFileSync(turn.handoffFile, 'utf8') : undefined
    console.log(written === undefined ? '(missing)' : indent(written.trimEnd(), '  | '))

    heading('What the model receives after the swap (first request after it, from the mock log)')
    const swapRequests = mock.requests.slice(before).filter((r) => r.seq < after.seq)
    console.log(`requests while the skill ran: ${swapRequests.length} (${swapRequests.map((r) => r.kind).join(', ')}); summariser requests: ${mock.requests.filter((r) => r.kind === 'summary').length}`)
    console.log(`request #${after.seq}: ${conversationOf(after).length} conversation message(s), plus the engine's role:"system" entries:\n`)
    showRequest(after, turn.continuePrompt)

    heading('Checks')
    const allText = conversationOf(after).map(textOf).join('\n')
    check(written !== undefined, `the handoff file exists in the project (${relative(run.proj, turn.handoffFile)})`)
    check(mock.requests.every((r) => r.kind !== 'summary'), 'no summariser request was made')
    check(allText.includes(STUB_OPENING) && allText.includes(turn.handoffPath), "the stub naming the handoff leads the model's next request")
    check(allText.includes(turn.continuePrompt), 'the continue-prompt was submitted as the next user message')
    // The stub may quote the user's own earlier words; nothing else from before may survive.
    const blocks = conversationOf(after).flatMap((m) =>
      typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? (m.content as Array<{ type?: string; text?: string }>) : [],
    )
    const outsideStub = blocks
      .filter((b) => b.type === 'text' && !(b.text ?? '').includes(STUB_OPENING))
      .map((b) => b.text ?? '')
      .join('\n')
    check(
      !allText.includes(FIRST_ANSWER) && !outsideStub.includes(FIRST_PROMPT) && !blocks.some((b) => b.type === 'tool_use' || b.type === 'tool_result'),
      "no earlier answer or tool call reached the model after the swap (the user's words only inside the stub)",
    )
    check(/error-recovery case/.test(session.screen()), "the model's answer to the continue-prompt is on screen")
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
