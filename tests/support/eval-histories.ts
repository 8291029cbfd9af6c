/**
 * The past sessions themselves, turn by turn, and which eval case resumes which; they are
 * rendered to history.jsonl by historyJsonl in eval-sessions.ts. The quoting session comes in
 * variants (with and without plans/, widened into a plan) that share their first turns, and
 * the continuation session starts from the parent handoff kept here, which csvkit.sh writes
 * for the scaffold (skill-evals.test.ts compares the two).
 *
 * Pure: no file system.
 */
import { COMMITS, PARENT_HANDOFF, TOOL_OUTPUT_VALUES as V, UNVERIFIED_CLAIMS, USER_WORDS, type EvalCase, type PastSession } from './eval-sessions.js'
import { FORMAT_BEFORE, FORMAT_HALF_DONE, LINE_BREAK_TEST, QUOTE_FAILURE, QUOTE_TESTS, numbered, testRun } from './eval-project-texts.js'

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

/** The quoting session, then a look for the other writers of rows: the one that matters is
 * named only by grep's output, and its type error only by the checker's. */
export function searchOutputSession(): PastSession {
  const base = quotingSession({ plans: true })
  return {
    ...base,
    id: '5e55e0a1-7c2d-4f0e-9b1a-000000000005',
    turns: [
      ...base.turns,
      { user: 'Before you go on: is formatRow the only place that writes rows? Check the rest of the repo, and run the type check while you are at it.' },
      {
        assistant: 'Searching for other row writers and running the type check.',
        tools: [
          {
            name: 'Bash',
            input: { command: `grep -rn "join(','" --include=*.js .`, description: 'Find other row writers' },
            result: `./src/format.js:9:  return fields.map(quoteField).join(',')\n./${V.grepPath}:31:  return cells.join(',') + '\\n'`,
          },
          {
            name: 'Bash',
            input: { command: 'npx tsc --noEmit -p jsconfig.json', description: 'Type check' },
            result: `Exit code 2\n${V.errorLine}\n\nFound 1 error in ${V.grepPath}:31`,
            isError: true,
          },
        ],
      },
      {
        assistant:
          'There is one more writer in the legacy folder that joins cells without quoting, and the type check fails there too. I will fix quoteField first and come back to the legacy writer after.',
      },
    ],
  }
}

/** The quoting session, then a CI run read through gh: its id, the failing step, its exit
 * status and the script behind it appear only in the tools' output. */
export function ciOutputSession(): PastSession {
  const base = quotingSession({ plans: true })
  return {
    ...base,
    id: '5e55e0a1-7c2d-4f0e-9b1a-000000000006',
    turns: [
      ...base.turns,
      { user: 'CI went red on main an hour ago. Find out which step failed before we push anything.' },
      {
        assistant: 'Reading the failed run and the CI scripts.',
        tools: [
          {
            name: 'Bash',
            input: { command: 'gh run list --branch main --limit 3', description: 'Recent CI runs' },
            result: `completed\tfailure\tTest formatRow on plain fields\tci\tmain\tpush\t${V.ciRunId}\t1m12s\t2026-11-28T08:02:11Z\ncompleted\tsuccess\tAdd formatRow and parseRow\tci\tmain\tpush\t8812001122\t1m05s\t2026-11-27T16:40:09Z`,
          },
          {
            name: 'Bash',
            input: { command: `gh run view ${V.ciRunId} --log-failed`, description: 'Failed steps' },
            result: `types\tRun ${V.ciStep}\t2026-11-28T08:03:20Z > csvkit@0.3.0 lint:types\ntypes\tRun ${V.ciStep}\t2026-11-28T08:03:20Z > sh scripts/ci/check-types.sh\ntypes\tRun ${V.ciStep}\t2026-11-28T08:03:23Z ${V.errorLine}\ntypes\tRun ${V.ciStep}\t2026-11-28T08:03:23Z ##[error]${V.ciExit}`,
          },
          { name: 'Bash', input: { command: 'ls scripts/ci', description: 'CI scripts' }, result: 'check-types.sh\nrun-tests.sh' },
        ],
      },
      {
        assistant: 'The type-check step failed in that run, in its shell script; the tests themselves passed. I will look at the script after the quoting fix.',
      },
    ],
  }
}

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
    'handoff-tool-output-values': searchOutputSession(),
    'handoff-ci-exit-status': ciOutputSession(),
    'no-fire-question': quoting,
  }
}
