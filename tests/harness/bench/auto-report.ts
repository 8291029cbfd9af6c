/**
 * The bench's automatic-compaction tables, as median (min–max) of the runs, each with the
 * note that says what its figures cover: the engine's built-in summary vs compact-handoff's
 * fork handoff on the same scripted conversation, and (`--edge-only`) the fork handoff vs
 * the handoff written from the digest.
 */
import { handoffBodyText } from '../handoff-script.js'
import type { AutoSample } from './auto-compaction.js'
import { FOCUS, REREAD_MODULES } from './conversation.js'
import { kb, ms, sizeCell, spread } from './report.js'

function chars(x: number): string {
  return `${Math.round(x).toLocaleString('en')} chars`
}

/** The rows both tables share, one cell per side. */
function sampleRows(left: readonly AutoSample[], right: readonly AutoSample[], requestsLabel: string): Array<[string, [string, string]]> {
  const both = (pick: (s: AutoSample) => number, fmt: (v: number[]) => string): [string, string] => [fmt(left.map(pick)), fmt(right.map(pick))]
  const count = (v: number[]): string => spread(v, String)
  return [
    [requestsLabel, both((s) => s.requests, count)],
    ['Characters sent in them (request bodies, JSON)', both((s) => s.sentChars, (v) => spread(v, chars))],
    ["Conversation after (messages JSON of the follow-up's first request)", both((s) => s.afterBytes, sizeCell)],
    ["Wall time: Enter on the follow-up → its request after the compaction", both((s) => s.wallMs, (v) => spread(v, ms))],
    ["Of which the compaction: its first request's arrival → the follow-up's request", both((s) => s.compactionMs, (v) => spread(v, ms))],
  ]
}

export function autoTable(summary: readonly AutoSample[], fork: readonly AutoSample[]): string[] {
  const rows = sampleRows(summary, fork, 'Model requests the compaction made (the summariser, or the fork)')
  const meter = (xs: readonly AutoSample[]): string =>
    `${spread(xs.map((s) => s.meter.reReads), String)}; ${spread(xs.map((s) => s.meter.repeatedCommands), String)}`
  const out: string[] = []
  out.push(`### Automatic compaction on the same scripted conversation: built-in summary vs fork handoff (${summary.length} runs each; median (min–max))`, '')
  out.push('| | built-in summary (`compactionHandoff: off`) | fork handoff (`compactionHandoff: auto`, the default) |', '| --- | --- | --- |')
  for (const [label, [a, b]] of rows) out.push(`| ${label} | ${a} | ${b} |`)
  out.push(`| Rediscovery meter after the same scripted follow-up (files read again; commands run again) | ${meter(summary)} | ${meter(fork)} |`)
  out.push('')
  out.push(
    "The scripted conversation above, in fresh sessions with the same three plugins; its last answer reports usage near the window, so the engine compacts on its own when the bench types the follow-up. " +
      "The built-in side leaves that compaction to the engine's summariser (the outline in its instructions); the fork side answers it with one `$.model.fork` request whose reply is the handoff, checked and saved by the mod. " +
      `The mock answers both with the same handoff text (~${kb(Buffer.byteLength(handoffBodyText({ focus: FOCUS })))}), at once, so model time is zero. ` +
      "The conversation after is what the model receives with the follow-up: after the summary, the engine's summary message and the files it re-attaches; after the fork, the stub with the handoff inline. " +
      `Both sides then get the same scripted follow-up, which reads ${REREAD_MODULES.length} modules read before the compaction and runs no command: the meter row shows the meter working, not quality.`,
  )
  out.push('')
  return out
}

export function edgeTable(fork: readonly AutoSample[], digest: readonly AutoSample[]): string[] {
  const out: string[] = []
  out.push(`### Automatic compaction on the same scripted conversation: fork handoff vs handoff written from the digest (${fork.length} runs each; median (min–max))`, '')
  out.push('| | fork handoff (usage near the window) | digest handoff (usage at the window: known not to fit) |', '| --- | --- | --- |')
  for (const [label, [a, b]] of sampleRows(fork, digest, "Model requests the compaction made (the fork, or the digest writer's completion)")) out.push(`| ${label} | ${a} | ${b} |`)
  out.push('')
  out.push(
    'The scripted conversation above, in fresh sessions with the same three plugins and the default options. On the fork side its last answer reports usage near the window; on the digest side at the window, so compact-handoff knows the conversation does not fit one more request and, asking for no fork, builds the digest from the session\'s records (masked by the engine\'s redact) and sends it in one `$.model.complete`. ' +
      `The mock answers both with the same handoff text (~${kb(Buffer.byteLength(handoffBodyText({ focus: FOCUS })))}), at once, so model time is zero: the difference is the digest's build and masking against the fork's request of the whole transcript. ` +
      "A run whose compaction took another path (a fork on the digest side, a repair, a summary) fails rather than being counted.",
  )
  out.push('')
  return out
}
