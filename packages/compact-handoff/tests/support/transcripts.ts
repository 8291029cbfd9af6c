// Session transcripts as the engine writes them (Claude Code 2.1.332, seen in
// a real session's `<session id>.jsonl`): one JSON record a line, with the
// engine's bookkeeping records between the messages. The kit tests and the
// unit tests of recall/ build theirs from these.

let uuidSeq = 0

function base(type: string): Record<string, unknown> {
  uuidSeq++
  return {
    parentUuid: null,
    isSidechain: false,
    type,
    uuid: `00000000-0000-4000-8000-${String(uuidSeq).padStart(12, '0')}`,
    timestamp: `2026-12-01T10:${String(Math.floor(uuidSeq / 60) % 60).padStart(2, '0')}:${String(uuidSeq % 60).padStart(2, '0')}.000Z`,
    cwd: '/srv/app',
    sessionId: 'session-1',
    version: '2.1.332',
  }
}

/** What the person typed. */
export function userLine(text: string): string {
  return JSON.stringify({ ...base('user'), message: { role: 'user', content: text }, origin: { kind: 'human' } })
}

/** Claude's text. */
export function assistantLine(text: string): string {
  return JSON.stringify({ ...base('assistant'), message: { role: 'assistant', content: [{ type: 'text', text }] } })
}

/** A tool call. */
export function callLine(id: string, name: string, input: Record<string, unknown>): string {
  return JSON.stringify({ ...base('assistant'), message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] } })
}

/** A tool's result, as the engine stores a Bash one: an error's text starts "Exit code N". */
export function resultLine(id: string, output: string, options: { isError?: boolean } = {}): string {
  return JSON.stringify({
    ...base('user'),
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output, ...(options.isError ? { is_error: true } : {}) }] },
    toolUseResult: options.isError ? `Error: ${output}` : { stdout: output, stderr: '', interrupted: false },
  })
}

/** Where a compaction (the engine's, a fork's handoff, a swap) replaced the conversation, and the stub after it. */
export function boundaryLines(stub = 'The earlier conversation was replaced here by compact-handoff.'): string[] {
  return [
    JSON.stringify({ ...base('system'), subtype: 'compact_boundary', content: 'Conversation compacted', compactMetadata: { trigger: 'manual' } }),
    JSON.stringify({ ...base('user'), message: { role: 'user', content: stub }, isCompactSummary: true }),
  ]
}

/** The engine's own bookkeeping between messages: never searched. */
export function bookkeepingLines(text: string): string[] {
  return [
    JSON.stringify({ type: 'api-request-blob', sessionId: 'session-1', hash: 'h', message: { role: 'user', content: [{ type: 'text', text }] } }),
    JSON.stringify({ type: 'last-prompt', lastPrompt: text, sessionId: 'session-1' }),
  ]
}

/** A Bash call and its result, one line each. */
export function commandLines(id: string, command: string, output: string, exitCode = 0): string[] {
  return [callLine(id, 'Bash', { command, description: 'run it' }), exitCode === 0 ? resultLine(id, output) : resultLine(id, `Exit code ${exitCode}\n${output}`, { isError: true })]
}

/** Lines joined as a file holds them. */
export function transcriptOf(lines: readonly string[]): string {
  return `${lines.join('\n')}\n`
}

/** A transcript of about `bytes` bytes of ordinary work (commands and answers), replaced
 * once at its end; `needle` appears in the output of one command near its start. */
export function bigTranscriptOf(bytes: number, needle: string): string {
  const lines: string[] = [...commandLines('toolu_big_needle', 'pnpm test', `ok\n${needle} in src/parser.ts:12\n`, 1)]
  let size = lines.join('\n').length
  const output = `${'line of ordinary output '.repeat(40)}\n`.repeat(10)
  for (let i = 0; size < bytes; i++) {
    const step = [...commandLines(`toolu_big_${i}`, `cat part-${i}.txt`, output), assistantLine(`Read part ${i}.`)]
    size += step.join('\n').length + 1
    lines.push(...step)
  }
  return transcriptOf([...lines, ...boundaryLines()])
}
