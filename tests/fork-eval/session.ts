/**
 * The measured session: a made-up but realistic driver migration with an incident in the middle,
 * 25 turns and 42 messages, ending in the middle of a long autonomous turn (the engine's
 * automatic compaction's own case: the latest tool call and its result are in the transcript the
 * compaction hands over, and not in what the fork sees). Planted in it are the facts the quiz
 * asks for (FACTS), most of them only inside tool output; fork-eval.test.ts checks where each one
 * appears, so a change to the session cannot quietly move a fact into the conversation's words.
 *
 * Pure: no file system. Long as data is, not as logic.
 */

/** The session folder the tool calls' paths are under. */
export const CWD = '/home/dev/ledger-sync'

export type Tool = { name: 'Bash' | 'Read' | 'Edit' | 'Write' | 'Grep'; input: Record<string, string | boolean>; result: string; isError?: boolean }
export type Turn = { user: string } | { assistant: string; tools?: Tool[] }

/** Where a planted fact appears: in the person's or the assistant's words, only in tool output
 * the fork sees, or only in the latest step (which the fork never sees). */
export type Where = 'words' | 'tool-output' | 'latest-step'

/** A fact the next context needs, the question that asks for it, and the answers that count:
 * an answer scores when it holds any one of `accept` (compared without letter case, backticks or
 * runs of blanks). */
export type PlantedFact = { id: string; where: Where; question: string; accept: readonly string[] }

const p = (rel: string) => `${CWD}/${rel}`

/** Lines of a long, boring passing test run: what fills a real session's tool output. */
function passingLines(n: number, from: number): string {
  return Array.from({ length: n }, (_, i) => ` ✓ src/ledger/__tests__/entries-${from + i}.test.ts (4 tests) ${11 + ((i * 7) % 23)}ms`).join('\n')
}

const RECONCILE_BEFORE = `import type { QueryResult } from 'pg'
import { LedgerDb } from '../db/ledger-db.js'
import { toCents, type Entry } from './entries.js'

/** Transfers booked twice inside the window are conflicts, not duplicates to merge. */
export async function reconcile(db: LedgerDb, window: { from: Date; to: Date }): Promise<Entry[]> {
  const result: QueryResult<any> = await db.query(
    'SELECT id, account, amount, fee, booked_at FROM ledger_entries WHERE booked_at BETWEEN $1 AND $2 ORDER BY booked_at',
    [window.from, window.to],
  )
  return markConflicts(result.rows.map(rowToEntry))
}
${Array.from({ length: 70 }, (_, i) => `// reconcile rule ${i + 1}: see docs/reconcile.md#rule-${i + 1}`).join('\n')}
export function rowToEntry(row: any): Entry {
  return { id: row.id, account: row.account, amountCents: toCents(row.amount), feeCents: toCents(row.fee), bookedAt: row.booked_at }
}
`

/** The session, turn by turn. */
export const TURNS: readonly Turn[] = [
  {
    user: [
      'We need to move ledger-sync off node-postgres (`pg`) onto postgres.js. Goal: every ledger test green on the new driver, and CI green, then a PR.',
      '',
      'Rules:',
      '- Never run migrations against the staging database without asking me first.',
      '- Keep the exported function names in src/ledger/index.ts exactly as they are; the billing service imports them.',
      '- Do the reporting module too while you are in there.',
    ].join('\n'),
  },
  {
    assistant: 'Let me look at the repository state and how the database is wired.',
    tools: [
      { name: 'Bash', input: { command: 'git status --short --branch && git log --oneline -6' }, result: '## feat/postgres-js-driver...origin/feat/postgres-js-driver\n?? notes.txt\n4e1c9ab Wrap pg pool in LedgerDb\n7d20f5e Add reconcile window option\n1b9c3aa Bump vitest to 2.1\n03f8e21 Ledger entries: store fee separately\n9aa0c71 CI: split unit and integration tests\nc55e1d0 Initial ledger-sync' },
      { name: 'Grep', input: { pattern: 'DATABASE_URL', path: '.' }, result: 'src/db/config.ts:4:  url: process.env.LEDGER_DATABASE_URL ?? "postgres://ledger@localhost:5432/ledger",\n.env.example:1:LEDGER_DATABASE_URL=postgres://ledger@localhost:55432/ledger\ndocker-compose.yml:14:      - LEDGER_DATABASE_URL' },
    ],
  },
  {
    assistant: 'The connection string comes from one environment variable, and the branch already exists. Starting the local database in the background.',
    tools: [{ name: 'Bash', input: { command: 'docker compose up db', run_in_background: true }, result: 'Command running in background with ID: b3f9k1' }],
  },
  {
    assistant: 'Checking that it is up.',
    tools: [{ name: 'Bash', input: { command: 'docker compose ps' }, result: 'NAME                 IMAGE         COMMAND                  SERVICE   CREATED          STATUS                    PORTS\nledger-sync-db-1     postgres:16   "docker-entrypoint.s…"   db        12 seconds ago   Up 11 seconds (healthy)   0.0.0.0:55432->5432/tcp' }],
  },
  {
    assistant: 'Running the suite on the old driver first, to have a baseline.',
    tools: [{ name: 'Bash', input: { command: 'pnpm vitest run src/ledger' }, result: `${passingLines(40, 1)}\n ✓ src/ledger/__tests__/reconcile.int.test.ts (6 tests) 1840ms\n\n Test Files  41 passed (41)\n      Tests  166 passed (166)\n   Duration  9.12s` }],
  },
  { user: 'Good. How big is the local ledger table? I want to know the migration will not take forever.' },
  {
    assistant: 'Counting the rows and listing the migrations.',
    tools: [
      { name: 'Bash', input: { command: 'psql "$LEDGER_DATABASE_URL" -Atc "SELECT count(*) FROM ledger_entries"' }, result: '18442' },
      { name: 'Bash', input: { command: 'ls migrations' }, result: '0039_accounts.sql\n0040_ledger_entries.sql\n0041_ledger_entries_fee.sql\n0042_ledger_entries_numeric.sql' },
    ],
  },
  {
    assistant: 'The table is small enough that no migration is a concern locally; the newest migration changes the amount columns to numeric, which matters for the driver: numeric comes back differently.',
  },
  {
    assistant: 'Installing postgres.js.',
    tools: [{ name: 'Bash', input: { command: 'pnpm add postgres' }, result: 'Packages: +1\n+\nProgress: resolved 312, reused 311, downloaded 1, added 1, done\n\ndependencies:\n+ postgres 3.4.5\n\nDone in 2.3s' }],
  },
  {
    assistant: 'Reading the reconcile module, the one that uses query results most.',
    tools: [{ name: 'Read', input: { file_path: p('src/ledger/reconcile.ts') }, result: RECONCILE_BEFORE }],
  },
  {
    assistant: 'Replacing the pool in LedgerDb with postgres.js. I will use `sql.begin` for transactions instead of issuing BEGIN and COMMIT by hand: it releases the connection on every path.',
    tools: [
      { name: 'Edit', input: { file_path: p('src/db/ledger-db.ts'), old_string: "import { Pool } from 'pg'", new_string: "import postgres from 'postgres'" }, result: 'The file src/db/ledger-db.ts has been updated successfully.' },
      { name: 'Bash', input: { command: 'pnpm tsc --noEmit' }, isError: true, result: "Exit code 2\nsrc/ledger/reconcile.ts(88,21): error TS2345: Argument of type 'RowList<Row[]>' is not assignable to parameter of type 'QueryResult<any>'.\n  Type 'RowList<Row[]>' is missing the following properties from type 'QueryResult<any>': command, rowCount, oid, fields\n\nFound 1 error in src/ledger/reconcile.ts:88" },
    ],
  },
  {
    assistant: 'One type error left where reconcile passes the driver\'s result on. A cast would silence it, but it would hide exactly the shape difference that matters here, so I will not cast; the helper should take rows instead.',
  },
  { user: 'Agreed, no casts. Also: forget the reporting module, leave it on pg for now; only the ledger moves in this branch.' },
  {
    assistant: 'Understood: reporting stays on pg. Changing the helper to take rows.',
    tools: [
      { name: 'Edit', input: { file_path: p('src/ledger/reconcile.ts'), old_string: 'const result: QueryResult<any> = await db.query(', new_string: 'const rows = await db.sql`' }, result: 'The file src/ledger/reconcile.ts has been updated successfully.' },
      { name: 'Bash', input: { command: 'pnpm tsc --noEmit' }, result: '' },
    ],
  },
  {
    assistant: 'Types pass. Running the ledger tests on the new driver.',
    tools: [{ name: 'Bash', input: { command: 'pnpm vitest run src/ledger' }, isError: true, result: `Exit code 1\n${passingLines(40, 1)}\n ❯ src/ledger/__tests__/reconcile.int.test.ts (6 tests | 1 failed) 612ms\n   × reconcile › marks duplicate transfers as conflicts\n     → expected 2 to be 3 // Object.is equality\n\n FAIL  src/ledger/__tests__/reconcile.int.test.ts > reconcile > marks duplicate transfers as conflicts\nAssertionError: expected 2 to be 3 // Object.is equality\n ❯ src/ledger/__tests__/reconcile.int.test.ts:57:33\n\n Test Files  1 failed | 40 passed (41)\n      Tests  1 failed | 165 passed (166)\n   Duration  7.48s` }],
  },
  {
    assistant: 'One conflict is missed. I suspect amounts compare differently now. Checking what the driver returns for an amount.',
    tools: [{ name: 'Bash', input: { command: `node -e "import('postgres').then(async ({default: p}) => { const sql = p(process.env.LEDGER_DATABASE_URL); const [r] = await sql\`SELECT amount FROM ledger_entries WHERE id = 7\`; console.log(typeof r.amount, JSON.stringify(r.amount)); await sql.end() })"` }, result: 'string "1250.00"' }],
  },
  {
    assistant: 'That explains it: numeric comes back as a string, and the duplicate check compared the amounts as numbers. I will convert through toCents at the row boundary.',
    tools: [
      { name: 'Edit', input: { file_path: p('src/ledger/reconcile.ts'), old_string: 'amountCents: toCents(row.amount)', new_string: 'amountCents: toCents(String(row.amount))' }, result: 'The file src/ledger/reconcile.ts has been updated successfully.' },
      { name: 'Bash', input: { command: 'pnpm vitest run src/ledger/__tests__/reconcile.int.test.ts' }, result: ' ✓ src/ledger/__tests__/reconcile.int.test.ts (6 tests) 598ms\n\n Test Files  1 passed (1)\n      Tests  6 passed (6)' },
    ],
  },
  { user: 'Nice. While the tests run, find out whether the nightly export job talks to pg directly. And CI on main went red this morning, is that us?' },
  {
    assistant: 'I will check the nightly export after this. First CI.',
    tools: [
      { name: 'Bash', input: { command: 'gh run list --branch main --limit 3' }, result: 'completed\tfailure\tWrap pg pool in LedgerDb\tci\tmain\tpush\t9034417725\t4m41s\t2026-12-01T07:12:09Z\ncompleted\tsuccess\tAdd reconcile window option\tci\tmain\tpush\t9031100042\t4m02s\t2026-11-30T16:20:44Z\ncompleted\tsuccess\tBump vitest to 2.1\tci\tmain\tpush\t9030023311\t3m58s\t2026-11-30T11:05:12Z' },
      { name: 'Bash', input: { command: 'gh run view 9034417725 --log-failed | tail -4' }, result: 'integration\tRun pnpm run test:int\t2026-12-01T07:16:40Z  FAIL  src/export/__tests__/nightly.int.test.ts > nightly export > writes one file per account\nintegration\tRun pnpm run test:int\t2026-12-01T07:16:40Z Error: connect ECONNREFUSED 127.0.0.1:5432\nintegration\tRun pnpm run test:int\t2026-12-01T07:16:51Z  Test Files  1 failed | 12 passed (13)\nintegration\tRun pnpm run test:int\t2026-12-01T07:16:51Z ##[error]Process completed with exit code 1.' },
    ],
  },
  {
    assistant: 'The red run is on main, before this branch: an integration test could not reach the database in CI. It is not ours, but it will block the PR until it is fixed.',
  },
  {
    assistant: 'Looking for where the nightly export connects.',
    tools: [{ name: 'Bash', input: { command: "grep -rn \"from 'pg'\" src" }, result: "src/reporting/monthly.ts:2:import { Pool } from 'pg'\nsrc/export/nightly-export.ts:3:import { Client } from 'pg'\nsrc/reporting/totals.ts:1:import type { QueryResult } from 'pg'" }],
  },
  {
    assistant: 'The export job opens its own connection with the old driver, so it keeps working either way. Committing the ledger change and opening the PR.',
    tools: [
      { name: 'Bash', input: { command: "git add src/db/ledger-db.ts src/ledger/reconcile.ts package.json pnpm-lock.yaml && git commit -m 'Ledger: move to postgres.js'" }, result: '[feat/postgres-js-driver a61d07f] Ledger: move to postgres.js\n 4 files changed, 58 insertions(+), 41 deletions(-)' },
      { name: 'Bash', input: { command: "git push && gh pr create --fill --base main" }, result: 'To github.com:acme/ledger-sync.git\n   4e1c9ab..a61d07f  feat/postgres-js-driver -> feat/postgres-js-driver\nhttps://github.com/acme/ledger-sync/pull/318' },
    ],
  },
  { user: 'Great. Now the fees: make reconcile round fees to cents the way billing does (half-even), then run the whole ledger suite again and tell me.' },
  {
    assistant: 'Adding half-even rounding in toCents and a test for it.',
    tools: [
      { name: 'Edit', input: { file_path: p('src/ledger/entries.ts'), old_string: 'return Math.round(Number(value) * 100)', new_string: 'return roundHalfEven(Number(value) * 100)' }, result: 'The file src/ledger/entries.ts has been updated successfully.' },
      { name: 'Edit', input: { file_path: p('src/ledger/__tests__/entries.test.ts'), old_string: "describe('toCents', () => {", new_string: "describe('toCents', () => {\n  test('rounds fee to cents', () => expect(formatCents(toCents('12.345'))).toBe('12.34'))" }, result: 'The file src/ledger/__tests__/entries.test.ts has been updated successfully.' },
    ],
  },
  {
    assistant: 'Running the whole ledger suite.',
    tools: [{ name: 'Bash', input: { command: 'pnpm vitest run src/ledger' }, isError: true, result: `Exit code 1\n${passingLines(40, 1)}\n ✓ src/ledger/__tests__/reconcile.int.test.ts (6 tests) 605ms\n ❯ src/ledger/__tests__/entries.test.ts (7 tests | 1 failed) 9ms\n   × toCents › rounds fee to cents\n     → expected '12.35' to be '12.34' // Object.is equality\n\n FAIL  src/ledger/__tests__/entries.test.ts > toCents > rounds fee to cents\nAssertionError: expected '12.35' to be '12.34' // Object.is equality\n ❯ src/ledger/__tests__/entries.test.ts:19:52\n\n Test Files  1 failed | 41 passed (42)\n      Tests  1 failed | 46 passed (47)\n   Duration  7.61s` }],
  },
]

/** The facts the quiz asks for, one question each. */
export const FACTS: readonly PlantedFact[] = [
  { id: 'goal', where: 'words', question: 'Which database driver is ledger-sync being moved onto?', accept: ['postgres.js', 'postgres 3.4.5', 'postgres@3.4.5'] },
  { id: 'staging-rule', where: 'words', question: 'What must never be done without asking the user first?', accept: ['migrations against the staging database', 'migration against the staging database', 'migrations on staging', 'staging database'] },
  { id: 'names-rule', where: 'words', question: 'Which file\'s exported function names must stay exactly as they are?', accept: ['src/ledger/index.ts'] },
  { id: 'latest-word', where: 'words', question: 'Is the reporting module part of this branch\'s work?', accept: ['stays on pg', 'leave it on pg', 'left on pg', 'remains on pg', 'stay on pg', 'not part of this branch', 'out of scope', 'only the ledger'] },
  { id: 'no-casts', where: 'words', question: 'Which way of fixing the driver type error was ruled out?', accept: ['cast'] },
  { id: 'transactions', where: 'words', question: 'How are transactions to be written with the new driver?', accept: ['sql.begin'] },
  { id: 'open-promise', where: 'words', question: 'What did the assistant promise to check that it has not reported on to the user yet?', accept: ['nightly export'] },
  { id: 'branch', where: 'tool-output', question: 'What is the name of the git branch the work is on?', accept: ['feat/postgres-js-driver'] },
  { id: 'base-commit', where: 'tool-output', question: 'What is the hash of the last commit before the driver change (the one that wrapped the pg pool)?', accept: ['4e1c9ab'] },
  { id: 'env-var', where: 'tool-output', question: 'Which environment variable holds the database URL?', accept: ['LEDGER_DATABASE_URL'] },
  { id: 'db-shell', where: 'tool-output', question: 'What is the id of the background shell running the local database?', accept: ['b3f9k1'] },
  { id: 'db-port', where: 'tool-output', question: 'On which host port does the local database listen?', accept: ['55432'] },
  { id: 'row-count', where: 'tool-output', question: 'How many rows does the local ledger_entries table hold?', accept: ['18442', '18,442'] },
  { id: 'migration-file', where: 'tool-output', question: 'What is the file name of the newest migration (the one that makes amounts numeric)?', accept: ['0042_ledger_entries_numeric.sql'] },
  { id: 'driver-version', where: 'tool-output', question: 'Which version of postgres.js was installed?', accept: ['3.4.5'] },
  { id: 'error-code', where: 'tool-output', question: 'What was the TypeScript error code of the type error the driver change caused?', accept: ['TS2345'] },
  { id: 'error-position', where: 'tool-output', question: 'At which file, line and column was that type error reported?', accept: ['reconcile.ts(88,21)', 'reconcile.ts:88:21', 'reconcile.ts line 88, column 21', 'reconcile.ts, line 88, column 21'] },
  { id: 'failing-test-file', where: 'tool-output', question: 'Which test file held the conflict test that failed on the new driver?', accept: ['src/ledger/__tests__/reconcile.int.test.ts', 'reconcile.int.test.ts'] },
  { id: 'conflict-counts', where: 'tool-output', question: 'In the failing conflict test, how many conflicts were expected and how many were found?', accept: ['expected 2 to be 3', 'expected 3, got 2', 'expected 3 but got 2', '3 expected, 2 found', 'expected 3 conflicts, found 2', 'expected 3, received 2', '3 expected and 2 found', 'expected 3 and found 2'] },
  { id: 'numeric-value', where: 'tool-output', question: 'What did the new driver return for the amount of ledger entry 7 (type and value)?', accept: ['string "1250.00"', "string '1250.00'", 'the string "1250.00"', '"1250.00"', '1250.00'] },
  { id: 'ci-run', where: 'tool-output', question: 'What is the id of the red CI run on main?', accept: ['9034417725'] },
  { id: 'ci-step', where: 'tool-output', question: 'Which CI step failed in that run?', accept: ['pnpm run test:int'] },
  { id: 'ci-exit', where: 'tool-output', question: 'With what exit status did that CI step end?', accept: ['exit code 1', 'exit 1', 'exit status 1', 'exited with 1', 'exited 1', 'code 1'] },
  { id: 'ci-cause', where: 'tool-output', question: 'What error made that CI step fail?', accept: ['ECONNREFUSED 127.0.0.1:5432', 'connect ECONNREFUSED'] },
  { id: 'export-file', where: 'tool-output', question: 'Which file is the nightly export job that still imports pg?', accept: ['src/export/nightly-export.ts'] },
  { id: 'pr', where: 'tool-output', question: 'What is the number of the pull request that was opened?', accept: ['318'] },
  { id: 'commit', where: 'tool-output', question: 'What is the hash of the commit that moved the ledger to postgres.js?', accept: ['a61d07f'] },
  { id: 'latest-failure', where: 'latest-step', question: 'Which test fails in the latest run of the ledger suite, and what did it get instead of the expected value?', accept: ["expected '12.35' to be '12.34'", '12.35'] },
  { id: 'latest-counts', where: 'latest-step', question: 'How many tests passed and failed in the latest run of the ledger suite?', accept: ['1 failed | 46 passed', '46 passed', '46 pass'] },
]
