/**
 * Sends one scripted reply as the Messages API would: plain JSON when the request did not
 * ask to stream, else server-sent events in the order Claude Code 2.1.332 was seen to
 * accept (`message_start`, `ping`, per block `content_block_start` / `content_block_delta`
 * / `content_block_stop`, then `message_delta` with the stop reason and `message_stop`).
 */
import type { ServerResponse } from 'node:http'
import type { MessagesBody, ScriptedReply } from './mock-api.js'

interface ReplyBlock {
  type: 'text' | 'tool_use'
  text?: string
  id?: string
  name?: string
  input?: Record<string, unknown>
}

/** Ids the mock hands out: `toolu_mock_<n>` for tool_uses without one, `msg_mock_<n>` per reply. */
export interface ReplyIds {
  nextToolId(): string
  nextMessageSeq(): number
}

function replyBlocksOf(reply: ScriptedReply, ids: ReplyIds): ReplyBlock[] {
  const blocks: ReplyBlock[] = []
  if (reply.text !== undefined) blocks.push({ type: 'text', text: reply.text })
  for (const t of reply.toolUses ?? []) blocks.push({ type: 'tool_use', id: t.id ?? ids.nextToolId(), name: t.name, input: t.input })
  // An assistant message with no content is rejected by the client as a malformed reply.
  if (blocks.length === 0) blocks.push({ type: 'text', text: '' })
  return blocks
}

/**
 * Waits out the reply's `delayMs`: the one fixed wait in the mock, on purpose, since it
 * stands for model time that keeps a turn running. A client that disconnects meanwhile
 * (Escape) ends it; resolves false when nothing should be sent any more.
 */
async function holdReply(res: ServerResponse, delayMs: number | undefined): Promise<boolean> {
  if (delayMs === undefined || delayMs <= 0) return true
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, delayMs)
    res.once('close', () => {
      clearTimeout(timer)
      resolve()
    })
  })
  return !res.destroyed && !res.writableEnded
}

function streamBlocks(send: (event: string, data: Record<string, unknown>) => void, blocks: readonly ReplyBlock[]): void {
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } })
      send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text ?? '' } })
    } else {
      send('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } })
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input ?? {}) } })
    }
    send('content_block_stop', { index })
  })
}

/** Answers one request with `reply`, streamed when the request asked for `stream: true`. */
export async function sendReply(res: ServerResponse, body: MessagesBody, reply: ScriptedReply, ids: ReplyIds): Promise<void> {
  const blocks = replyBlocksOf(reply, ids)
  const stopReason = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'
  const seq = ids.nextMessageSeq()
  const id = `msg_mock_${seq}`
  const model = body.model ?? 'claude-mock'
  const usage = { input_tokens: reply.inputTokens ?? 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }
  const headers = { 'request-id': `req_mock_${seq}` }

  if (body.stream !== true) {
    if (!(await holdReply(res, reply.delayMs))) return
    res.writeHead(200, { ...headers, 'content-type': 'application/json' })
    res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model, content: blocks, stop_reason: stopReason, stop_sequence: null, usage }))
    return
  }
  res.writeHead(200, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
  const send = (event: string, data: Record<string, unknown>): void => {
    res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`)
  }
  send('message_start', {
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
  })
  send('ping', {})
  if (!(await holdReply(res, reply.delayMs))) return
  streamBlocks(send, blocks)
  send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage })
  send('message_stop', {})
  res.end()
}
