// Every function that reads model- or user-written text inside a hook must be
// linear in it: the engine unloads a mod whose hook runs ~5 s without yielding
// (seen live, 2.1.332, with a 240,000-character line of spaces in a handoff
// heading). Each function here gets single lines of 250,000 characters in the
// shapes that make backtracking regexes quadratic, inside otherwise plausible
// input. Quadratic code takes minutes on these (the old heading regex took
// ~180 s on the first shape); linear code takes milliseconds. Only the order of
// magnitude is guarded, so the bound is loose enough for a loaded machine.
import { parseSkillArgs } from '../../packages/compact-handoff/tests/support/skill-protocol.js'
import { describe, expect, test, vi } from 'vitest'
import { askVerdictOf } from '../../packages/compact-handoff/hooks/ask/ask.js'
import { markedStubOf } from '../../packages/compact-handoff-answer/hooks/answer/marked-stub.js'
import { routeOf } from '../../packages/compact-handoff-answer/hooks/answer/route.js'
import { intentOf, PLAN_COMMAND, HANDOFF_COMMAND } from '../../packages/compact-handoff/hooks/commands/command-intent.js'
import { formatProblems, sectionTextsOf } from '../../packages/compact-handoff/hooks/format/handoff-format.js'
import { frontmatterOf } from '../../packages/compact-handoff/hooks/format/frontmatter.js'
import { foreignQuestionOf, quotedBlockOf } from '../../packages/compact-handoff/hooks/resume/resume.js'
import { CONTINUE_PROMPT_HEADER, MARKER, parseContinuePrompt, parseSentinel, READY_PREFIX } from '../../packages/compact-handoff/hooks/protocol/protocol.js'
import { MAX_HANDOFF_BYTES } from '../../packages/compact-handoff/hooks/protocol/protocol-contents.js'
import { clippedMessageOf, NO_WORDS, userWordsSectionOf, withUserMessage } from '../../packages/compact-handoff/hooks/words/user-words.js'
import { classifyHandoffPath, inFolder, isInHandoffFolder, mayBeHandoffPath, relativeToCwd } from '../../packages/compact-handoff/hooks/protocol/protocol-paths.js'
import { logLineOf, logLinesOf, logTextWith, quotedOf, reportLinesOf, type LogEntry } from '../../packages/compact-handoff/hooks/swap-log/swap-log.js'
import { clippedCommandOf } from '../../packages/compact-handoff/hooks/facts/facts.js'
import { summaryInstructionsOf } from '../../packages/compact-handoff/hooks/compaction/summary-instructions.js'
import { forkReplyOf } from '../../packages/compact-handoff/hooks/compaction/fork-reply.js'
import { composedHandoffOf, focusValueOf, freeHandoffNameOf, slugOf } from '../../packages/compact-handoff/hooks/compaction/fork-handoff.js'
import { forkPromptOf, forkRepairPromptOf } from '../../packages/compact-handoff/hooks/compaction/fork-prompt.js'
import { compactionRouteOf } from '../../packages/compact-handoff/hooks/compaction/engine-compaction.js'
import { buildDigestStub, buildForkStub } from '../../packages/compact-handoff/hooks/stub/swap-text.js'
import { digestPromptOf, digestRepairPromptOf } from '../../packages/compact-handoff/hooks/compaction/fork-prompt.js'
import { isTooLongFailureOf } from '../../packages/compact-handoff/hooks/thresholds/window-edge.js'
import { latestStepOf, latestStepSectionOf } from '../../packages/compact-handoff/hooks/compaction/latest-step.js'
import { digestBudgetCharsOf, digestPlanOf, digestTextOf } from '../../packages/compact-handoff/hooks/compaction/digest.js'
import { forkReplyTextOf } from '../support/handoff-text.js'
import { handoffTextOf, planTextOf } from '../support/handoff-text.js'
import { cpuMsOf } from '../support/cpu-time.js'
import { LOADED_MACHINE_TIMEOUT_MS } from '../support/loaded-machine.js'

// Every test here works through 250,000-character lines: a loaded machine's timeout for each.
vi.setConfig({ testTimeout: LOADED_MACHINE_TIMEOUT_MS })

const LINE_CHARS = 250_000
/** Far above what linear code needs on a 250,000-character line (a few ms),
 * far below what quadratic code needs (tens of seconds or more). */
const MAX_CALL_MS = 1_000
const CONTEXT = { projectDir: '/srv/app' }

/** `prefix`, `unit` repeated, then `suffix`: exactly LINE_CHARS characters. */
function lineOf(prefix: string, unit: string, suffix = ''): string {
  const fill = LINE_CHARS - prefix.length - suffix.length
  return `${prefix}${unit.repeat(Math.ceil(fill / unit.length)).slice(0, fill)}${suffix}`
}

/** Runs of what backtracking regexes choke on: blanks before a non-blank, the
 * markers the parsers look for, and mixes of them. */
const SHAPES: readonly { name: string; line: string }[] = [
  { name: 'spaces', line: lineOf('x', ' ', 'y') },
  { name: 'tabs', line: lineOf('x', '\t', 'y') },
  { name: '#', line: lineOf('', '#') },
  { name: 'backticks', line: lineOf('', '`') },
  { name: 'dashes', line: lineOf('', '-', 'x') },
  { name: '- and spaces', line: lineOf('-', ' ', 'x') },
  { name: 'key: and spaces', line: lineOf('key:', ' ', 'x') },
  { name: '## , spaces and x', line: lineOf('## ', ' ', 'x') },
  { name: '" runs', line: lineOf('', '"') },
  { name: 'mixed', line: lineOf('', ' \t#`-"') },
  { name: 'spaces then #', line: lineOf('x', ' ', ' #') },
  { name: '> markers', line: lineOf('', '>') },
  { name: 'nested list items', line: lineOf('', '- ', 'x') },
  { name: 'link brackets', line: lineOf('', '](') },
  { name: 'character references', line: lineOf('', '&#') },
  { name: 'tag attributes', line: lineOf('<a', ' b=c') },
  { name: 'backslashes and stars', line: lineOf('', '\\*_') },
  { name: 'pipes', line: lineOf(`${READY_PREFIX} `, ' | ') },
]

/** Each call on its own, so a failure names the one that is slow. */
function expectFast(calls: Readonly<Record<string, () => unknown>>): void {
  for (const [name, call] of Object.entries(calls)) {
    expect(cpuMsOf(call), `${name} is far slower than linear (CPU ms, which other load does not stretch)`).toBeLessThan(MAX_CALL_MS)
  }
}

test('the shapes are single lines of 250,000 characters, and a handoff with one fits under the size cap', () => {
  for (const { name, line } of SHAPES) {
    expect(line, name).toHaveLength(LINE_CHARS)
    expect(line, name).not.toMatch(/[\r\n]/)
  }
  expect(LINE_CHARS + handoffTextOf().length).toBeLessThan(MAX_HANDOFF_BYTES)
})

describe.each(SHAPES)('a 250,000-character line of $name', ({ line }) => {
  test('formatProblems, with the line in a section, a heading, a frontmatter value or key, or a phase title', () => {
    const handoff = handoffTextOf()
    const plan = planTextOf()
    expectFast({
      'in a section': () => formatProblems(handoff.replace('## Verify\n', `## Verify\n\n${line}\n`), 'handoff', CONTEXT),
      'as a heading': () => formatProblems(handoff.replace('## Verify\n', `## x${line}y\n\n## Verify\n`), 'handoff', CONTEXT),
      'as an indented heading': () => formatProblems(handoff.replace('## Verify\n', `   ## ${line}\n## Verify\n`), 'handoff', CONTEXT),
      'as a setext heading': () => formatProblems(handoff.replace('## Verify\n', `${line}\n---\n## Verify\n`), 'handoff', CONTEXT),
      'as a frontmatter value': () => formatProblems(handoff.replace('focus: parser rewrite', `focus: x${line}y`), 'handoff', CONTEXT),
      'as a quoted frontmatter value': () => formatProblems(handoff.replace('focus: parser rewrite', `focus: "${line}"`), 'handoff', CONTEXT),
      'as a frontmatter line': () => formatProblems(handoff.replace('focus: parser rewrite', `focus: none\n${line}`), 'handoff', CONTEXT),
      'as a parent value': () => formatProblems(handoff.replace('parent: none', `parent: ${line}`), 'handoff', CONTEXT),
      'as a phase title': () => formatProblems(plan.replace('### Phase 2: Parser', `### Phase 2: ${line}`), 'plan', CONTEXT),
      'alone': () => formatProblems(line, 'handoff', CONTEXT),
      frontmatterOf: () => frontmatterOf(handoff.replace('focus: parser rewrite', `focus: x${line}y`)),
    })
  })

  test('the resume texts: the sections read for the prompt, the quote and the question', () => {
    const handoff = handoffTextOf()
    expectFast({
      'sectionTextsOf, line in a section': () => sectionTextsOf(handoff.replace('## Verify\n', `## Verify\n\n${line}\n`)),
      'sectionTextsOf, line as a heading': () => sectionTextsOf(handoff.replace('## Verify\n', `## Next step${line}\n\n## Verify\n`)),
      'sectionTextsOf, line as a setext heading': () => sectionTextsOf(handoff.replace('## Verify\n', `${line}\n---\n## Verify\n`)),
      quotedBlockOf: () => quotedBlockOf(line),
      foreignQuestionOf: () => foreignQuestionOf(line, [line], line),
    })
  })

  test('parseSentinel and parseContinuePrompt, with the line in the answer, in the sentinel and in the prompt block', () => {
    const rule = '-'.repeat(40)
    expectFast({
      'parseSentinel, line alone': () => parseSentinel(line),
      'parseSentinel, line in prose': () => parseSentinel(`Done.\n${line}\n${READY_PREFIX} plans/handoffs/HANDOFF_a.md`),
      'parseSentinel, line as a READY path': () => parseSentinel(`${READY_PREFIX} ${line}`),
      'parseSentinel, line in backticks': () => parseSentinel(`- \`${line}\``),
      'parseContinuePrompt, line alone': () => parseContinuePrompt(line),
      'parseContinuePrompt, line in the block': () => parseContinuePrompt(`${CONTINUE_PROMPT_HEADER}\n${rule}\n${line}\n${rule}`),
      'parseContinuePrompt, line as a rule': () => parseContinuePrompt(`${CONTINUE_PROMPT_HEADER}\n${line}\nRead it.\n${rule}`),
      'parseContinuePrompt, line as the header': () => parseContinuePrompt(`${line}\n${rule}\nRead it.\n${rule}`),
      parseSkillArgs: () => parseSkillArgs(`compact-mode run=r1 created=2026-11-29T14:05:00Z chain=new seq=1 parent=none ${line}`),
    })
  })

  test("the user's words: clipping, recording and the stub's section", () => {
    const words = withUserMessage(withUserMessage(NO_WORDS, 'Rewrite the parser.'), line)
    expectFast({
      clippedMessageOf: () => clippedMessageOf(line),
      withUserMessage: () => withUserMessage(words, line),
      userWordsSectionOf: () => userWordsSectionOf(words),
    })
  })

  test('the swap log: a line with the line as its reason, a path and a command, judged and worded for the report', () => {
    const aborted: LogEntry = { time: 't', sessionId: 's', trigger: 'command', files: [line], outcome: 'aborted', reason: line, repairs: 0 }
    const meter: LogEntry = { time: 't', sessionId: 's', files: [line], outcome: 'meter', reReads: [line, line], repeatedCommands: [line] }
    expectFast({
      'logLineOf, an abort': () => logLineOf(aborted),
      'logLineOf, a meter reading': () => logLineOf(meter),
      logLinesOf: () => logLinesOf(`${line}\n${line}\n`),
      'logLinesOf, the line cut short last': () => logLinesOf(`${logLineOf(aborted)}\n${logLineOf(aborted).slice(0, -2)}`),
      quotedOf: () => quotedOf(line, 60, 'head'),
      'reportLinesOf, the line as a reason and a file': () => reportLinesOf([[JSON.stringify(aborted)]], 1),
      'logTextWith, the line already in the log': () => logTextWith([line], aborted),
      clippedCommandOf: () => clippedCommandOf(line),
    })
  })

  test('intentOf, with the line as the focus, after review, or as a control word', () => {
    expectFast({
      'as the focus': () => intentOf(HANDOFF_COMMAND, line),
      'after review': () => intentOf(PLAN_COMMAND, `review ${line}`),
      'around cancel': () => intentOf(HANDOFF_COMMAND, `${line}cancel${line}`),
    })
  })

  test("the answer mod's stub and route", () => {
    expectFast({
      markedStubOf: () => markedStubOf({ trigger: 'plugin', instructions: `${MARKER}\n${line}` }),
      'markedStubOf, line as the first line': () => markedStubOf({ trigger: 'plugin', instructions: `${line}\nstub` }),
      routeOf: () => routeOf({ trigger: 'manual', instructions: line }, 'compact-handoff', { kind: 'idle' }),
    })
  })

  test("the summariser's instructions, with the line as the person's words, a recorded path or command, or the folder", () => {
    const none = { changed: [], read: [], commands: [] }
    const state = { words: { messages: ['Rewrite the parser.'], dropped: 0 }, lastHandoff: { kind: 'none' } as const, facts: none, cwd: '/srv/app' }
    expectFast({
      'line as the words': () => summaryInstructionsOf(line, { ...state, words: { messages: ['Rewrite the parser.', line], dropped: 2 } }),
      'line as a changed path': () => summaryInstructionsOf('x', { ...state, facts: { ...none, changed: [{ path: `/srv/app/${line}`, count: 2 }] } }),
      'line as a read path': () => summaryInstructionsOf('x', { ...state, facts: { ...none, read: [line] } }),
      'line as a command': () => summaryInstructionsOf('x', { ...state, facts: { ...none, commands: [{ line, exitCode: 1 }] } }),
      'line as the handoff': () => summaryInstructionsOf(undefined, { ...state, lastHandoff: { kind: 'handoff', handoff: { relPath: line, isOwn: true } } }),
      'line as the folder': () => summaryInstructionsOf('x', { ...state, facts: { ...none, read: ['/srv/app/a.ts'] }, cwd: line }),
    })
  })

  test("the fork handoff: the reply read, the route, the name, the focus, the prompts, the stub and the digest", () => {
    const reply = forkReplyTextOf()
    expectFast({
      'forkReplyOf, line alone': () => forkReplyOf(line),
      'forkReplyOf, line as a preamble': () => forkReplyOf(`${line}\n${reply}`),
      'forkReplyOf, line as the title': () => forkReplyOf(reply.replace('# Handoff: parser rewrite', `# ${line}`)),
      'forkReplyOf, line after the last section': () => forkReplyOf(`${reply}\n${line}\n`),
      'forkReplyOf, line after a blank in the last section': () => forkReplyOf(`${reply}\n\n${line}\n`),
      'forkReplyOf, line in a fence': () => forkReplyOf(`\`\`\`\n${reply}\n${line}\n\`\`\``),
      'forkReplyOf, line as a fence line': () => forkReplyOf(`${reply}\n\n\`\`\`${line}\n`),
      compactionRouteOf: () => compactionRouteOf({ trigger: 'manual', instructions: line }, 'all', 'idle'),
      slugOf: () => slugOf(line, line),
      focusValueOf: () => focusValueOf(line),
      freeHandoffNameOf: () => freeHandoffNameOf(slugOf(line, ''), '2026-11-29T14:05:00Z', [line]),
      composedHandoffOf: () => composedHandoffOf({ created: '2026-11-29T14:05:00Z', chain: 'new', seq: 1, parent: 'none', focus: line }, 'HANDOFF_a_2026-11-29.md', line),
      forkPromptOf: () => forkPromptOf({ focus: line, isMidTurn: true }),
      forkRepairPromptOf: () => forkRepairPromptOf({ focus: line, isMidTurn: false }, [line], line),
      buildForkStub: () => buildForkStub({ handoff: line, handoffText: line, words: { messages: [line], dropped: 0 }, factsSection: line, trigger: 'auto', isMidTurn: true }),
      'buildForkStub, from a digest': () => buildForkStub({ handoff: line, handoffText: line, words: { messages: [line], dropped: 0 }, trigger: 'manual', writtenFrom: 'digest', isMidTurn: false }),
      buildDigestStub: () => buildDigestStub({ digest: line, trigger: 'auto', isMidTurn: true }),
      digestPromptOf: () => digestPromptOf({ focus: line, isMidTurn: true }, line),
      digestRepairPromptOf: () => digestRepairPromptOf({ focus: line, isMidTurn: false }, line, [line], line),
      isTooLongFailureOf: () => isTooLongFailureOf('invalid_request', line),
      'latestStepOf and latestStepSectionOf, line as the command and the result': () => {
        const step = latestStepOf([
          { role: 'assistant', toolUses: [{ tool_use_id: 't1', tool: 'Bash', input: { command: line } }] },
          { role: 'user', toolResults: [{ tool_use_id: 't1', text: `${line}\n${line}`, isError: true }] },
        ])
        return latestStepSectionOf(step!)
      },
      'the digest, line as a prompt, the assistant text, a command and an output': () => {
        const plan = digestPlanOf(
          {
            messages: [
              { role: 'user', text: line },
              { role: 'assistant', text: line, toolUses: [{ tool_use_id: 't1', tool: 'Bash', input: { command: line } }] },
              { role: 'user', text: '', toolResults: [{ tool_use_id: 't1', text: `${line}\n${line}`, isError: true }] },
            ],
            leading: [line],
          },
          digestBudgetCharsOf(1_000_000),
        )
        return digestTextOf(plan, plan.windows)
      },
    })
  })

  test("askAfterCompaction's verdict, quoting a typed answer", () => {
    expectFast({ askVerdictOf: () => askVerdictOf(line) })
  })
})

describe('the path readers on 250,000-character paths', () => {
  const WINDOWS = 'C:\\Users\\me\\proj'
  const PATHS: readonly { name: string; path: string }[] = [
    { name: 'backslashes', path: lineOf('C:', '\\') },
    { name: 'mixed separators, then a name', path: lineOf('C:\\', '\\/', 'x') },
    { name: 'climbs', path: lineOf(`${WINDOWS}\\`, '..\\') },
    { name: 'short segments', path: lineOf(`${WINDOWS}\\`, 'a\\') },
    { name: 'a UNC server name', path: lineOf('\\\\', 's', '\\share\\x') },
    { name: 'UNC separators', path: lineOf('\\\\s', '\\') },
    { name: 'a long path', path: lineOf('\\\\?\\C:\\', 'a\\') },
    { name: 'long-path prefixes', path: lineOf('', '\\\\?\\') },
    { name: 'dots', path: lineOf(`${WINDOWS}\\`, '.') },
    { name: 'trailing blanks and dots', path: lineOf(`${WINDOWS}\\x`, '. ', '\\a') },
    { name: 'letters to fold', path: lineOf('c:\\USERS\\ME\\PROJ\\', 'AB') },
    { name: 'handoff folders', path: lineOf(`${WINDOWS}\\`, 'plans\\handoffs\\', 'HANDOFF_a.md') },
    { name: 'slashes', path: lineOf('/srv/app', '/', 'x') },
  ]

  test.each(PATHS)('relativeToCwd, classifyHandoffPath, isInHandoffFolder and inFolder on $name, as the path and as the folder', ({ path }) => {
    const flipped = path.replace(/[a-z]/g, (c) => c.toUpperCase())
    expectFast({
      'relativeToCwd, Windows folder': () => relativeToCwd(path, WINDOWS),
      'relativeToCwd, POSIX folder': () => relativeToCwd(path, '/srv/app'),
      'relativeToCwd, as the folder': () => relativeToCwd(`${path}\\src\\a.ts`, path),
      'relativeToCwd, the folder in another case': () => relativeToCwd(`${flipped}\\src\\a.ts`, path, true),
      classifyHandoffPath: () => classifyHandoffPath(path, WINDOWS),
      'classifyHandoffPath, as the folder': () => classifyHandoffPath(`${flipped}\\plans\\handoffs\\HANDOFF_a.md`, path),
      isInHandoffFolder: () => isInHandoffFolder(path, WINDOWS, true),
      'isInHandoffFolder, as the folder': () => isInHandoffFolder(`${flipped}\\plans\\handoffs\\HANDOFF_a.md`, path, true),
      inFolder: () => inFolder(path, 'plans/handoffs/HANDOFF_a.md'),
      mayBeHandoffPath: () => mayBeHandoffPath(path),
    })
  })
})

describe('many-line shapes', () => {
  /** Quadratic work over this many characters of short lines still takes
   * seconds; linear work takes a few hundred milliseconds at most. */
  const MANY_LINES_CHARS = 120_000
  /** `text` on as many lines as fit in MANY_LINES_CHARS characters. */
  const linesOf = (text: string) => Array.from({ length: Math.floor(MANY_LINES_CHARS / (text.length + 1)) }, () => text).join('\n')

  test.each([
    ['quotes nested on every line', linesOf('> > > x')],
    ['list items nested past any real depth', `${'- '.repeat(5_000)}x\n${linesOf('')}`],
    ['one item per line, each deeper', Array.from({ length: 340 }, (_, i) => `${' '.repeat(i * 2)}- x`).join('\n')],
    ['headings', linesOf('## x')],
    ['setext underlines', linesOf('x\n-')],
    ['fences', linesOf('```')],
    ['HTML comment openers', linesOf('<!--')],
    ['lazy lines under a quote', `> x\n${linesOf('y')}`],
  ])('formatProblems stays fast on %s', (_name, body) => {
    const text = handoffTextOf().replace('## Verify\n', `## Verify\n\n${body}\n`)
    expect(text.length).toBeLessThan(MAX_HANDOFF_BYTES)
    expectFast({ formatProblems: () => formatProblems(text, 'handoff', CONTEXT), sectionTextsOf: () => sectionTextsOf(text) })
  })
})
