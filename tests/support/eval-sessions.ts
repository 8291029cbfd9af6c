/**
 * The past sessions behind the skill pack's eval cases (skills/evals/<case>/history.jsonl).
 * `claude plugin eval` resumes a case's `context.history_file` with `--resume`, so the model
 * under test meets the conversation below as its own earlier turns and the case's prompt as
 * the next one; the case's scaffold.sh builds the matching repository (skills/evals/_project).
 *
 * Written as plain turns here and rendered to transcript lines: Claude Code 2.1.332 resumed a
 * transcript of just `type`, `uuid`, `parentUuid`, `sessionId`, `timestamp` and `message`
 * entries (no `cwd`, no attachments) and sent it to the model as the conversation so far.
 * tests/skills/skill-evals.test.ts checks the committed files against this rendering; run it with
 * UPDATE=1 to rewrite them.
 *
 * Pure: no file system.
 */

export interface PastToolCall {
  name: 'Bash' | 'Read' | 'Edit'
  input: Record<string, string>
  /** What the tool answered. */
  result: string
  isError?: boolean
}

export type PastTurn = { user: string } | { assistant: string; tools?: PastToolCall[] }

export interface PastSession {
  /** Transcript session id; any UUID-shaped string the resume accepts. */
  id: string
  /** ISO time of the first message; later entries follow a few seconds apart. */
  start: string
  turns: PastTurn[]
}

/** What the user asked for and ruled in these sessions, word for word; the graders look for them. */
export const USER_WORDS = {
  goal: 'Please fix it so the output follows RFC 4180.',
  standing: [
    'Do not change the signature of formatRow: other packages call it.',
    'Use the built-in node test runner only, no new dependencies.',
    'always run `node --test` before you tell me something works.',
  ],
  /** Given in the first message, taken back in the second: it must not reach Constraints. */
  withdrawn: 'Skip the CRLF line-break case for now, we can do it later.',
} as const

/** Claims the assistant made and never checked; a handoff must mark them [unverified]. */
export const UNVERIFIED_CLAIMS = {
  parseRow: 'parseRow in src/parse.js already handles quoted fields',
  readme: 'the README example still matches what formatRow prints',
} as const

/** `git log --oneline` of the repositories skills/evals/_project/csvkit.sh builds. */
export const COMMITS = {
  add: '1ede064 Add formatRow and parseRow',
  tests: '5f0536e Test formatRow on plain fields',
  roadmap: '89838c9 Add the roadmap',
  handoff: 'b36e897 Hand off the quoting work',
  quoting: 'f717c62 Quote fields per RFC 4180',
} as const

/** The handoff the continuation case's session started from (scaffolded, committed). */
export const PARENT_HANDOFF = 'plans/handoffs/HANDOFF_csv-quoting_2026-11-27.md'

const FORMAT_BEFORE = `// Formats one row of fields as a CSV line.

export function formatRow(fields) {
  return fields.map(String).join(',')
}
`

const FORMAT_HALF_DONE = `// Formats one row of fields as a CSV line (RFC 4180 quoting).

function quoteField(value) {
  const field = String(value)
  if (!/[",]/.test(field)) return field
  return \`"\${field.replace('"', '""')}"\`
}

export function formatRow(fields) {
  return fields.map(quoteField).join(',')
}
`

const QUOTE_TESTS = `

test('quotes a field that holds a comma', () => {
  assert.equal(formatRow(['Smith, Jr.', 'x']), '"Smith, Jr.",x')
})

test('doubles embedded quotes', () => {
  assert.equal(formatRow(['say "hi"']), '"say ""hi"""')
})
`

const LINE_BREAK_TEST = `

test('quotes a field that holds a line break', () => {
  assert.equal(formatRow(['two\\r\\nlines', 'x']), '"two\\r\\nlines",x')
})
`

/** The Read tool's answer: the file with right-aligned line numbers and a tab. */
function numbered(text: string): string {
  return text
    .replace(/\n$/, '')
    .split('\n')
    .map((line, i) => `${String(i + 1).padStart(6)}\t${line}`)
    .join('\n')
}

function testRun(pass: number, failures: Array<{ n: number; name: string; expected: string; actual: string }>): string {
  const lines: string[] = []
  let n = 0
  const names = ['joins plain fields with commas', 'quotes a field that holds a comma', 'doubles embedded quotes', 'quotes a field that holds a line break']
  for (const name of names.slice(0, pass + failures.length)) {
    n++
    const failure = failures.find((f) => f.n === n)
    if (failure === undefined) {
      lines.push(`ok ${n} - ${name}`)
      continue
    }
    lines.push(
      `not ok ${n} - ${failure.name}`,
      '  ---',
      "  failureType: 'testCodeFailure'",
      '  error: |-',
      '    Expected values to be strictly equal:',
      '    + actual - expected',
      `    + ${failure.actual}`,
      `    - ${failure.expected}`,
      "  code: 'ERR_ASSERTION'",
      '  ...',
    )
  }
  lines.push(`1..${n}`, `# tests ${n}`, `# pass ${pass}`, `# fail ${failures.length}`)
  return lines.join('\n')
}

const QUOTE_FAILURE = { n: 3, name: 'doubles embedded quotes', expected: `'"say ""hi"""'`, actual: `'"say ""hi""'` }

/** The first session: the quoting fix, half done, with the user's rules and one withdrawn. */
// A past session written out message by message: long as data is, not as logic.
export function quotingSession(options: { plans: boolean }): PastSession {
  const log = [...(options.plans ? [COMMITS.roadmap] : []), COMMITS.tests, COMMITS.add].join('\n')
  return {
    id: options.plans ? '5e55e0a1-7c2d-4f0e-9b1a-000000000001' : '5e55e0a1-7c2d-4f0e-9b1a-000000000002',
    start: '2026-11-28T09:14:00.000Z',
    turns: [
      {
        user: [
          'formatRow breaks on fields with commas or quotes: a name like `Smith, Jr.` comes out as two columns. ' + USER_WORDS.goal,
          '',
          'Ground rules for this repo:',
          `- ${USER_WORDS.standing[0]}`,
          `- ${USER_WORDS.standing[1]}`,
          `- ${USER_WORDS.withdrawn}`,
        ].join('\n'),
      },
      {
        assistant: 'I will look at the history and the formatter first.',
        tools: [
          { name: 'Bash', input: { command: 'git log --oneline -5', description: 'Recent commits' }, result: log },
          { name: 'Read', input: { file_path: 'src/format.js' }, result: numbered(FORMAT_BEFORE) },
        ],
      },
      {
        assistant: 'formatRow joins the raw fields. I will add a quoteField helper and tests for the comma and quote cases.',
        tools: [
          {
            name: 'Edit',
            input: { file_path: 'src/format.js', old_string: FORMAT_BEFORE, new_string: FORMAT_HALF_DONE },
            result: 'The file src/format.js has been updated successfully.',
          },
          {
            name: 'Edit',
            input: {
              file_path: 'test/format.test.js',
              old_string: "  assert.equal(formatRow(['a', 'b', 'c']), 'a,b,c')\n})\n",
              new_string: "  assert.equal(formatRow(['a', 'b', 'c']), 'a,b,c')\n})" + QUOTE_TESTS,
            },
            result: 'The file test/format.test.js has been updated successfully.',
          },
          { name: 'Bash', input: { command: 'node --test', description: 'Run the tests' }, result: testRun(2, [QUOTE_FAILURE]), isError: true },
        ],
      },
      {
        assistant: [
          'Commas work now: "quotes a field that holds a comma" passes.',
          '',
          `"doubles embedded quotes" still fails: \`field.replace('"', '""')\` only replaces the first quote, so \`say "hi"\` comes out as '"say ""hi""' instead of '"say ""hi"""'. That approach is out; it needs replaceAll.`,
          '',
          `The parsing side is fine, by the way: ${UNVERIFIED_CLAIMS.parseRow}, so only formatRow needs the fix.`,
        ].join('\n'),
      },
      {
        user: `Good. Actually, do handle CRLF too, forget what I said about skipping it. And ${USER_WORDS.standing[2]}`,
      },
      {
        assistant:
          'Understood: fields with line breaks are in scope now, and I will run `node --test` before I say anything works. Next: switch quoteField to replaceAll, run the tests, then add a test for a field holding \\r\\n.',
      },
    ],
  }
}

/** The first session, then the user widens the job until it needs a plan. */
export function quotingPlanSession(): PastSession {
  const base = quotingSession({ plans: true })
  return {
    ...base,
    id: '5e55e0a1-7c2d-4f0e-9b1a-000000000003',
    turns: [
      ...base.turns,
      {
        user: 'This is growing. Besides the quote fix I want fields with line breaks quoted, parseRow to read quoted fields back, and the README to show an example with a quoted field. That is too much for what is left of this session, so let us plan it for a fresh one.',
      },
      {
        assistant:
          'Agreed. That is four pieces of work: the replaceAll fix in quoteField, quoting fields that hold line breaks, parseRow reading quoted fields, and a README example. They depend on each other in that order.',
      },
    ],
  }
}

/** The parent handoff as csvkit.sh writes it (the test compares the two). */
export const PARENT_HANDOFF_TEXT = `---
kind: handoff
created: 2026-11-27T17:20:00+01:00
status: in-progress
chain: HANDOFF_csv-quoting_2026-11-27
seq: 1
parent: none
focus: none
---

# Handoff: RFC 4180 quoting in formatRow

## Goal
"formatRow breaks on fields with commas or quotes ... Please fix it so the output follows RFC 4180."

## Constraints
- Do not change the signature of formatRow: other packages call it.
- Use the built-in node test runner only, no new dependencies.
- Always run \`node --test\` before you tell me something works.

## State
- [verified] a field holding a comma is quoted - \`node --test\` -> "quotes a field that holds a comma" passes
- [unverified] parseRow in src/parse.js handles quoted fields; it was said, never tested

## In progress
src/format.js quoteField: wraps the field in quotes but doubles only the first embedded quote. Uncommitted.

## Tried and ruled out
- \`field.replace('"', '""')\`: replaces only the first quote; "doubles embedded quotes" fails with \`'"say ""hi""' !== '"say ""hi"""'\`.

## Decisions
- Quote only fields that need it (comma, quote, line break), not every field (Sam).

## Open questions
- Should formatRow also quote fields with leading or trailing spaces? Asked Sam; no answer yet.

## Files
Changed, uncommitted: src/format.js, test/format.test.js.
Reopen first (at most 5, most important first):
1. \`src/format.js\`
2. \`test/format.test.js\`

## Next step
In src/format.js, make quoteField use \`field.replaceAll('"', '""')\`, then run \`node --test\`.

## Verify
- \`git status --short\` -> \` M src/format.js\` and \` M test/format.test.js\`
- \`node --test\` -> 2 pass, 1 fail ("doubles embedded quotes")
`

const PARENT_NEXT_STEP = "In src/format.js, make quoteField use `field.replaceAll('\"', '\"\"')`, then run `node --test`."

/** A session that began from PARENT_HANDOFF: the quoting fix done and committed, line breaks under way. */
// A past session written out message by message: long as data is, not as logic.
export function crlfContinuationSession(): PastSession {
  return {
    id: '5e55e0a1-7c2d-4f0e-9b1a-000000000004',
    start: '2026-11-28T08:55:00.000Z',
    turns: [
      {
        user: `The handoff skill has already run for this work; do not run it again. Read ${PARENT_HANDOFF}, then reopen the files it lists under "Reopen first". Before editing anything, run its Verify commands and compare the results with the note; where the repository and the note disagree, trust the repository. Then start on its Next step: ${PARENT_NEXT_STEP}`,
      },
      {
        assistant: 'Reading the handoff and checking it against the repository.',
        tools: [
          { name: 'Read', input: { file_path: PARENT_HANDOFF }, result: numbered(PARENT_HANDOFF_TEXT) },
          { name: 'Read', input: { file_path: 'src/format.js' }, result: numbered(FORMAT_HALF_DONE) },
          { name: 'Bash', input: { command: 'git status --short', description: 'Working tree state' }, result: ' M src/format.js\n M test/format.test.js' },
          { name: 'Bash', input: { command: 'node --test', description: 'Run the tests' }, result: testRun(2, [QUOTE_FAILURE]), isError: true },
        ],
      },
      {
        assistant: 'The repository matches the note. Applying the Next step.',
        tools: [
          {
            name: 'Edit',
            input: { file_path: 'src/format.js', old_string: `field.replace('"', '""')`, new_string: `field.replaceAll('"', '""')` },
            result: 'The file src/format.js has been updated successfully.',
          },
          { name: 'Bash', input: { command: 'node --test', description: 'Run the tests' }, result: testRun(3, []) },
        ],
      },
      { assistant: 'All three tests pass now (`node --test`: 3 pass, 0 fail). Shall I commit src/format.js and test/format.test.js?' },
      { user: 'Yes, commit it. Then do the line breaks.' },
      {
        assistant: 'Committing, then adding a failing test for a field that holds \\r\\n.',
        tools: [
          {
            name: 'Bash',
            input: { command: "git add src/format.js test/format.test.js && git commit -m 'Quote fields per RFC 4180'", description: 'Commit the quoting fix' },
            result: `[main ${COMMITS.quoting.slice(0, 7)}] Quote fields per RFC 4180\n 2 files changed, 16 insertions(+), 2 deletions(-)`,
          },
          {
            name: 'Edit',
            input: {
              file_path: 'test/format.test.js',
              old_string: `  assert.equal(formatRow(['say "hi"']), '"say ""hi"""')\n})\n`,
              new_string: `  assert.equal(formatRow(['say "hi"']), '"say ""hi"""')\n})` + LINE_BREAK_TEST,
            },
            result: 'The file test/format.test.js has been updated successfully.',
          },
          {
            name: 'Bash',
            input: { command: 'node --test', description: 'Run the tests' },
            result: testRun(3, [{ n: 4, name: 'quotes a field that holds a line break', expected: `'"two\\r\\nlines",x'`, actual: `'two\\r\\nlines,x'` }]),
            isError: true,
          },
        ],
      },
      {
        assistant: [
          `Committed as ${COMMITS.quoting.slice(0, 7)}. The new test "quotes a field that holds a line break" fails as expected: quoteField only looks for quotes and commas. Next I will add \\r and \\n to its pattern.`,
          '',
          `I also looked over the README: ${UNVERIFIED_CLAIMS.readme}.`,
        ].join('\n'),
      },
    ],
  }
}

/** The case folders in skills/evals (beside _project/, which they share). */
export const EVAL_CASES = [
  'handoff-plans-folder',
  'handoff-claude-folder',
  'handoff-compact-mode',
  'handoff-natural-request',
  'handoff-continuation',
  'handoffplan-phases',
  'no-fire-question',
] as const

export type EvalCase = (typeof EVAL_CASES)[number]

/** Which past session each case resumes. */
export function evalHistories(): Record<EvalCase, PastSession> {
  const quoting = quotingSession({ plans: true })
  return {
    'handoff-plans-folder': quoting,
    'handoff-claude-folder': quotingSession({ plans: false }),
    'handoff-compact-mode': quoting,
    'handoff-natural-request': quoting,
    'handoff-continuation': crlfContinuationSession(),
    'handoffplan-phases': quotingPlanSession(),
    'no-fire-question': quoting,
  }
}

/** One transcript line per message; tool calls become an assistant message and a user message of results. */
export function historyJsonl(session: PastSession): string {
  const lines: string[] = []
  let n = 0
  let parent: string | null = null
  let toolSeq = 0
  const base = Date.parse(session.start)
  const push = (type: 'user' | 'assistant', message: Record<string, unknown>): void => {
    n++
    const uuid = `${session.id.slice(0, 23)}-${n.toString(16).padStart(12, '0')}`
    const timestamp = new Date(base + n * 7_000).toISOString()
    lines.push(JSON.stringify({ type, uuid, parentUuid: parent, isSidechain: false, sessionId: session.id, timestamp, userType: 'external', message }))
    parent = uuid
  }
  for (const turn of session.turns) {
    if ('user' in turn) {
      push('user', { role: 'user', content: turn.user })
      continue
    }
    const calls = (turn.tools ?? []).map((t) => ({ ...t, id: `toolu_hist_${String(++toolSeq).padStart(3, '0')}` }))
    push('assistant', {
      id: `msg_hist_${n + 1}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-5-5',
      content: [{ type: 'text', text: turn.assistant }, ...calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input }))],
      stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    })
    if (calls.length === 0) continue
    push('user', {
      role: 'user',
      content: calls.map((c) => ({ type: 'tool_result', tool_use_id: c.id, content: c.result, is_error: c.isError === true })),
    })
  }
  return lines.join('\n') + '\n'
}
