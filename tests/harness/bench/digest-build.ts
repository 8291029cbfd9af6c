/**
 * The digest at the window's edge (compaction/digest.ts): how long code takes to build the
 * digest of a conversation too long for one request, and how large it comes out, on
 * synthetic transcripts of 1, 10 and 100 MB, built in memory and handed to the pure module
 * in this Node process. The masking between the two phases is the engine's
 * (`$.session.redact` calls) and is left out: the texts pass unchanged.
 */
import { performance } from 'node:perf_hooks'
import { digestBudgetCharsOf, digestPlanOf, digestTextOf, type Digest, type DigestMessage } from '../../../packages/compact-handoff/hooks/compaction/digest.js'
import { median } from '../showcase-kit.js'
import { ms, spread } from './report.js'

/** The sizes measured, in millions of characters of message text (ASCII: a character a byte). */
export const DIGEST_SIZES_MB = [1, 10, 100] as const
/** The window the digest is built for: the engine's default, in tokens. */
const WINDOW_TOKENS = 200_000
/** Builds timed per transcript, after one untimed. */
const DIGEST_RUNS = 11

/** A deterministic stream of numbers, so every run measures the same transcript. */
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0
    return state / 2 ** 32
  }
}

const WORDS = ['parser', 'quote', 'token', 'retry', 'cache', 'build', 'error', 'config', 'module', 'value', 'index', 'stream', 'buffer', 'handler', 'session', 'path']

/** `lines` lines of log-like text, each distinct. */
function logText(next: () => number, lines: number, n: number): string {
  const out: string[] = []
  for (let i = 0; i < lines; i++) out.push(`${n}.${i} ${WORDS[Math.floor(next() * WORDS.length)]} ${WORDS[Math.floor(next() * WORDS.length)]} ok in ${Math.floor(next() * 900)} ms`)
  return out.join('\n')
}

/**
 * A transcript of about `mb` million characters shaped like a long working session: each
 * turn a short prompt, the assistant's text, a Bash call with a test run's output (now and
 * then a long one), a Read with a file's text, and an Edit; every text distinct.
 */
export function syntheticTranscript(mb: number): DigestMessage[] {
  const next = seeded(mb)
  const messages: DigestMessage[] = []
  let chars = 0
  for (let n = 0; chars < mb * 1_000_000; n++) {
    const runLines = next() < 0.05 ? 3_000 : 40 + Math.floor(next() * 80)
    const run = logText(next, runLines, n)
    const file = logText(next, 60 + Math.floor(next() * 120), n)
    const prompt = `Turn ${n}: fix the ${WORDS[n % WORDS.length]} handling and run the tests again.`
    const reply = `Looking at the ${WORDS[(n + 3) % WORDS.length]} code in src/${n % 40}.ts before changing it. ${logText(next, 2, n)}`
    messages.push(
      { role: 'user', text: prompt },
      {
        role: 'assistant',
        text: reply,
        toolUses: [
          { tool_use_id: `b${n}`, tool: 'Bash', input: { command: `pnpm vitest run src/${n % 40}.test.ts` } },
          { tool_use_id: `r${n}`, tool: 'Read', input: { file_path: `/srv/app/src/${n % 40}.ts` } },
          { tool_use_id: `e${n}`, tool: 'Edit', input: { file_path: `/srv/app/src/${n % 40}.ts`, old_string: 'a', new_string: 'b' } },
        ],
      },
      {
        role: 'user',
        text: '',
        toolResults: [
          { tool_use_id: `b${n}`, text: n % 7 === 0 ? `Exit code 1\n${run}` : run, isError: n % 7 === 0 },
          { tool_use_id: `r${n}`, text: file, isError: false },
          { tool_use_id: `e${n}`, text: 'The file was edited.', isError: false },
        ],
      },
    )
    chars += prompt.length + reply.length + run.length + file.length + 20
  }
  return messages
}

/** One build of the digest, timed: the plan, then the text, the masking left out. */
function timedDigest(messages: readonly DigestMessage[]): { ms: number; digest: Digest } {
  const started = performance.now()
  const plan = digestPlanOf({ messages, leading: [], recallLine: 'recall' }, digestBudgetCharsOf(WINDOW_TOKENS))
  const digest = digestTextOf(plan, plan.windows)
  return { ms: performance.now() - started, digest }
}

export type DigestSample = { mb: number; messages: number; times: number[]; digest: Digest }

export function digestSamples(): DigestSample[] {
  return DIGEST_SIZES_MB.map((mb) => {
    const messages = syntheticTranscript(mb)
    timedDigest(messages)
    const runs = Array.from({ length: DIGEST_RUNS }, () => timedDigest(messages))
    return { mb, messages: messages.length, times: runs.map((run) => run.ms), digest: runs[0]!.digest }
  })
}

/** The digest's table, a markdown table and the note on what its figures cover. */
export function digestTable(samples: readonly DigestSample[]): string[] {
  return [
    `| Transcript | messages | build (median, min–max of ${DIGEST_RUNS}) | digest | entries shown / left out |`,
    '| --- | --- | --- | --- | --- |',
    ...samples.map(
      (s) => `| ${s.mb} MB | ${s.messages.toLocaleString('en-US')} | ${spread(s.times, (x) => (x < 10 ? `${x.toFixed(1)} ms` : ms(x)))} | ${s.digest.chars.toLocaleString('en-US')} characters (~${Math.round(s.digest.chars / 4 / 1000)}k tok) | ${s.digest.shownEntries} / ${s.digest.leftOutEntries.toLocaleString('en-US')} |`,
    ),
    '',
    `Build: digestPlanOf and digestTextOf in this Node process, for a ${WINDOW_TOKENS.toLocaleString('en-US')}-token window (a budget of ${digestBudgetCharsOf(WINDOW_TOKENS).toLocaleString('en-US')} characters); the masking between them (\`$.session.redact\`, engine calls) is left out; on a loaded machine the fastest run is the least disturbed. Median build per MB: ${samples.map((s) => `${(median(s.times) / s.mb).toFixed(2)} ms at ${s.mb} MB`).join(', ')}.`,
  ]
}
