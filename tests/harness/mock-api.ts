/**
 * A scripted stand-in for the Anthropic Messages API, for driving a real Claude Code
 * session offline. It answers `POST /v1/messages` (the client adds `?beta=true`) from a
 * queue of scripted replies, streams them as server-sent events when asked to, and logs
 * every request body so a test can assert what the model would have read.
 *
 * Shapes follow what Claude Code 2.1.332 was seen sending and accepting
 * (docs/real-session-testing.md): `messages` carries `role: "system"` entries, and the
 * engine's summariser request is a main-loop request whose last user message asks to
 * "create a detailed summary of the conversation so far".
 */
import { appendFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ScriptedToolUse {
  name: string
  input: Record<string, unknown>
  /** Defaults to a fresh `toolu_mock_<n>`. */
  id?: string
}

export interface ScriptedReply {
  text?: string
  toolUses?: ScriptedToolUse[]
  /**
   * Input tokens reported in `usage`; a value near the context window (975000 of 1M was
   * measured) makes the engine auto-compact before the next request.
   */
  inputTokens?: number
  /**
   * Which request this reply answers: a string is searched for in the last user text, a
   * RegExp is tested against it, a function sees the whole request. Replies without `when`
   * answer the next main-loop request. The first matching reply in the queue is used.
   */
  when?: string | RegExp | ((request: MockRequest) => boolean)
  /**
   * Hold the reply this long before its content is sent (a streamed reply sends
   * `message_start` first), to keep a turn running while a test types or interrupts.
   * A client that disconnects meanwhile (Escape) ends the wait.
   */
  delayMs?: number
}

export type RequestKind = 'main' | 'summary'

export interface MockRequest {
  /** 1-based, in arrival order, 404s included. */
  seq: number
  method: string
  path: string
  /** `undefined` for a 404 or a body that is not JSON. */
  body: MessagesBody | undefined
  kind: RequestKind
  /** Text blocks of the last `role: "user"` message, joined by newlines. */
  lastUserText: string
  status: number
}

export interface MessagesBody {
  model?: string
  stream?: boolean
  messages?: Array<{ role: string; content: unknown }>
  system?: unknown
  tools?: unknown[]
  [key: string]: unknown
}

export interface MockApiOptions {
  /** Answer for main-loop requests when no queued reply matches. */
  defaultReply?: ScriptedReply
  /** The text inside `<summary>` for summariser requests. */
  summary?: string | ((request: MockRequest) => string)
  /** Every request is appended here as one JSON line. */
  logFile?: string
  /**
   * The server closes itself after this long, so a test that forgets to close it (or
   * dies) does not leave a listener keeping the process alive.
   */
  timeLimitMs?: number
}

export interface MockApi {
  /** `http://127.0.0.1:<port>`, for ANTHROPIC_BASE_URL. */
  url: string
  port: number
  requests: MockRequest[]
  /** Queue replies; they are consumed in order, each once. */
  script(...replies: ScriptedReply[]): void
  /** Replies still queued. */
  pending(): number
  /** Resolves with the first request (already logged or arriving) that matches. */
  waitForRequest(predicate: (request: MockRequest) => boolean, timeoutMs?: number): Promise<MockRequest>
  close(): Promise<void>
}

const SUMMARY_ASK = 'create a detailed summary of the conversation so far'
const DEFAULT_TIME_LIMIT_MS = 15 * 60_000

export function lastUserTextOf(body: MessagesBody | undefined): string {
  // `role: "system"` entries sit between turns; skipping them keeps "last user" meaningful.
  const users = (body?.messages ?? []).filter((m) => m.role === 'user')
  const last = users[users.length - 1]
  if (last === undefined) return ''
  if (typeof last.content === 'string') return last.content
  if (!Array.isArray(last.content)) return ''
  return last.content
    .filter((b): b is { type: 'text'; text: string } => isRecord(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text)
    .join('\n')
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null
}

function matches(reply: ScriptedReply, request: MockRequest): boolean {
  const { when } = reply
  if (when === undefined) return true
  if (typeof when === 'string') return request.lastUserText.includes(when)
  if (when instanceof RegExp) return when.test(request.lastUserText)
  return when(request)
}

interface Block {
  type: 'text' | 'tool_use'
  text?: string
  id?: string
  name?: string
  input?: Record<string, unknown>
}

export async function startMockApi(options: MockApiOptions = {}): Promise<MockApi> {
  const queue: ScriptedReply[] = []
  const requests: MockRequest[] = []
  const waiters = new Set<() => void>()
  let toolSeq = 0
  let msgSeq = 0

  const defaultReply = options.defaultReply ?? { text: 'OK (mock default reply).' }
  const summaryOf = (r: MockRequest): string =>
    typeof options.summary === 'function' ? options.summary(r) : (options.summary ?? 'Mock summary of the conversation.')

  function record(request: MockRequest): void {
    requests.push(request)
    if (options.logFile !== undefined) appendFileSync(options.logFile, JSON.stringify(request) + '\n')
    for (const wake of waiters) wake()
  }

  function blocksOf(reply: ScriptedReply): Block[] {
    const blocks: Block[] = []
    if (reply.text !== undefined) blocks.push({ type: 'text', text: reply.text })
    for (const t of reply.toolUses ?? []) {
      blocks.push({ type: 'tool_use', id: t.id ?? `toolu_mock_${++toolSeq}`, name: t.name, input: t.input })
    }
    // An assistant message with no content is rejected by the client as a malformed reply.
    if (blocks.length === 0) blocks.push({ type: 'text', text: '' })
    return blocks
  }

  function replyFor(request: MockRequest): ScriptedReply {
    if (request.kind === 'summary') {
      return { text: `<analysis>Mock analysis.</analysis>\n<summary>${summaryOf(request)}</summary>` }
    }
    const i = queue.findIndex((r) => matches(r, request))
    if (i < 0) return defaultReply
    const [reply] = queue.splice(i, 1)
    return reply ?? defaultReply
  }

  async function answer(res: ServerResponse, body: MessagesBody, reply: ScriptedReply): Promise<void> {
    const blocks = blocksOf(reply)
    const stopReason = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'
    const inputTokens = reply.inputTokens ?? 100
    const outputTokens = 10
    const id = `msg_mock_${++msgSeq}`
    const model = body.model ?? 'claude-mock'
    const usage = { input_tokens: inputTokens, output_tokens: outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }
    const headers = { 'request-id': `req_mock_${msgSeq}` }

    const hold = async (): Promise<boolean> => {
      if (reply.delayMs === undefined || reply.delayMs <= 0) return true
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, reply.delayMs)
        res.once('close', () => {
          clearTimeout(timer)
          resolve()
        })
      })
      return !res.destroyed && !res.writableEnded
    }

    if (body.stream !== true) {
      if (!(await hold())) return
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
    if (!(await hold())) return
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
    send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage })
    send('message_stop', {})
    res.end()
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks).toString('utf8')
    const path = req.url ?? '/'
    const method = req.method ?? 'GET'
    const seq = requests.length + 1
    const isMessages = method === 'POST' && path.split('?')[0] === '/v1/messages'

    let body: MessagesBody | undefined
    try {
      body = raw === '' ? undefined : (JSON.parse(raw) as MessagesBody)
    } catch {
      body = undefined
    }
    const lastUserText = lastUserTextOf(body)
    const kind: RequestKind = lastUserText.includes(SUMMARY_ASK) ? 'summary' : 'main'

    if (!isMessages || body === undefined) {
      record({ seq, method, path, body, kind, lastUserText, status: 404 })
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `mock: no route ${method} ${path}` } }))
      return
    }
    const request: MockRequest = { seq, method, path, body, kind, lastUserText, status: 200 }
    record(request)
    await answer(res, body, replyFor(request))
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(err) } }))
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo

  const limit = setTimeout(() => void close(), options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS)
  limit.unref()

  let closing: Promise<void> | undefined
  function close(): Promise<void> {
    clearTimeout(limit)
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve())
      // Keep-alive sockets from a killed client would hold close() open indefinitely.
      server.closeAllConnections()
    })
    return closing
  }

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    script: (...replies) => void queue.push(...replies),
    pending: () => queue.length,
    waitForRequest(predicate, timeoutMs = 15_000) {
      return new Promise<MockRequest>((resolve, reject) => {
        const check = (): boolean => {
          const hit = requests.find(predicate)
          if (hit === undefined) return false
          done()
          resolve(hit)
          return true
        }
        const timer = setTimeout(() => {
          done()
          reject(new Error(`mock: no matching request within ${timeoutMs} ms (${requests.length} seen)`))
        }, timeoutMs)
        const wake = (): void => void check()
        const done = (): void => {
          clearTimeout(timer)
          waiters.delete(wake)
        }
        if (!check()) waiters.add(wake)
      })
    },
    close,
  }
}
