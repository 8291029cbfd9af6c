/**
 * A scripted stand-in for the Anthropic Messages API, for driving a real Claude Code
 * session offline. It answers `POST /v1/messages` (the client adds `?beta=true`) from a
 * queue of scripted replies, streams them as server-sent events when asked to, and logs
 * every request body so a test can assert what the model would have read.
 *
 * Shapes follow what Claude Code 2.1.332 was seen sending and accepting
 * (seen on Claude Code 2.1.332): `messages` carries `role: "system"` entries, and the
 * engine's summariser request is a main-loop request whose last user message asks to
 * "create a detailed summary of the conversation so far".
 *
 * Split by concern: this file parses requests, matches them to the queue and logs them;
 * mock-reply-stream.ts sends a reply; request-messages.ts reads the messages.
 */
import { appendFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sendReply, type ReplyIds } from './mock-reply-stream.js'
import { lastUserTextOf, type Message } from './request-messages.js'

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
   * The reply's text and tool calls written from the request it answers, as a model
   * writes from what it was told (the values a skill copies); they replace `text` and
   * `toolUses`.
   */
  writtenFrom?: (request: MockRequest) => Pick<ScriptedReply, 'text' | 'toolUses'>
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
  /** The body's length in characters / 4, rounded up: the tokens `maxPromptTokens` counts. */
  promptTokens: number
  method: string
  path: string
  /** `undefined` for a 404 or a body that is not JSON. */
  body: MessagesBody | undefined
  kind: RequestKind
  /** Text blocks of the last `role: "user"` message, joined by newlines. */
  lastUserText: string
  /** 200, 404, or 400 for a request refused as too long (`maxPromptTokens`). */
  status: number
}

export interface MessagesBody {
  model?: string
  stream?: boolean
  messages?: Message[]
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
  /**
   * The real API's window, at the mock's scale: a Messages request of more tokens is
   * refused as the real API refuses a prompt past the model's window, HTTP 400
   * `invalid_request_error` "prompt is too long: N tokens > M maximum", and logged with
   * status 400. Unset, nothing is refused; `refusePast` moves it while the session runs.
   *
   * Tokens are the whole body's characters / 4 (MockRequest.promptTokens): the real API
   * counts the system prompt and the tools too, and Claude Code's own estimate of a
   * message is its characters / 4, so N and M are in the units the engine trims its
   * summary's retry by (it parses the gap N - M, seen in 2.1.332's error reader).
   *
   * An answered request then reports `usage.input_tokens` scaled so that this limit maps
   * to the default model's window (WINDOW_TOKENS): a conversation at 90% of the limit reads
   * as 90% in `$.session.usage()`, as it would against the real API, and the engine's own
   * automatic compaction (above 96.7% of the window) fires only near the limit. A reply's
   * own `inputTokens` wins.
   */
  maxPromptTokens?: number
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
  /** Sets (or, `undefined`, lifts) `maxPromptTokens` for the requests that arrive from now on. */
  refusePast(tokens: number | undefined): void
  /** Resolves with the first request (already logged or arriving) that matches. */
  waitForRequest(predicate: (request: MockRequest) => boolean, timeoutMs?: number): Promise<MockRequest>
  close(): Promise<void>
}

const SUMMARY_ASK = 'create a detailed summary of the conversation so far'
const DEFAULT_TIME_LIMIT_MS = 15 * 60_000
/** The default model's context window in Claude Code 2.1.332 (claude-opus-5-5: 1M tokens). */
export const WINDOW_TOKENS = 1_000_000
/** The mock's token estimate: the request body's characters / 4. */
const CHARS_PER_TOKEN = 4

/** The real API's refusal of a prompt past the window, word for word but for the numbers. */
export function promptTooLongMessage(tokens: number, maxTokens: number): string {
  return `prompt is too long: ${tokens} tokens > ${maxTokens} maximum`
}

function matches(reply: ScriptedReply, request: MockRequest): boolean {
  const { when } = reply
  if (when === undefined) return true
  if (typeof when === 'string') return request.lastUserText.includes(when)
  if (when instanceof RegExp) return when.test(request.lastUserText)
  return when(request)
}

/** Reads the whole request and classifies it; `status` is 200 for a Messages call with a JSON body, else 404. */
async function parseRequest(req: IncomingMessage, seqOnArrival: () => number): Promise<MockRequest> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const raw = Buffer.concat(chunks).toString('utf8')
  const path = req.url ?? '/'
  const method = req.method ?? 'GET'
  let body: MessagesBody | undefined
  try {
    body = raw === '' ? undefined : (JSON.parse(raw) as MessagesBody)
  } catch {
    body = undefined
  }
  const lastUserText = lastUserTextOf(body)
  const promptTokens = Math.ceil(raw.length / CHARS_PER_TOKEN)
  const kind: RequestKind = lastUserText.includes(SUMMARY_ASK) ? 'summary' : 'main'
  const isMessages = method === 'POST' && path.split('?')[0] === '/v1/messages'
  // Numbered once the body is in, so requests read side by side never share a number.
  return { seq: seqOnArrival(), method, path, body, promptTokens, kind, lastUserText, status: isMessages && body !== undefined ? 200 : 404 }
}

function sendNotFound(res: ServerResponse, request: MockRequest): void {
  res.writeHead(404, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `mock: no route ${request.method} ${request.path}` } }))
}

function sendTooLong(res: ServerResponse, request: MockRequest, maxTokens: number): void {
  res.writeHead(400, { 'content-type': 'application/json', 'request-id': `req_mock_refused_${request.seq}` })
  res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: promptTooLongMessage(request.promptTokens, maxTokens) } }))
}

/** The queue of scripted replies: the summariser gets the summary, a main request the first matching reply. */
function replyQueue(options: MockApiOptions): { queue: ScriptedReply[]; replyFor: (request: MockRequest) => ScriptedReply } {
  const queue: ScriptedReply[] = []
  const defaultReply = options.defaultReply ?? { text: 'OK (mock default reply).' }
  const summaryOf = (r: MockRequest): string =>
    typeof options.summary === 'function' ? options.summary(r) : (options.summary ?? 'Mock summary of the conversation.')
  function replyFor(request: MockRequest): ScriptedReply {
    if (request.kind === 'summary') return { text: `<analysis>Mock analysis.</analysis>\n<summary>${summaryOf(request)}</summary>` }
    const i = queue.findIndex((r) => matches(r, request))
    if (i < 0) return defaultReply
    const [reply] = queue.splice(i, 1)
    if (reply?.writtenFrom !== undefined) return { ...reply, ...reply.writtenFrom(request) }
    return reply ?? defaultReply
  }
  return { queue, replyFor }
}

/** Every request in arrival order, the JSONL log, and waits on them. */
function requestLog(logFile: string | undefined): {
  requests: MockRequest[]
  record: (request: MockRequest) => void
  waitForRequest: MockApi['waitForRequest']
} {
  const requests: MockRequest[] = []
  const waiters = new Set<() => void>()
  function record(request: MockRequest): void {
    requests.push(request)
    if (logFile !== undefined) appendFileSync(logFile, JSON.stringify(request) + '\n')
    for (const wake of waiters) wake()
  }
  function waitForRequest(predicate: (request: MockRequest) => boolean, timeoutMs = 15_000): Promise<MockRequest> {
    return new Promise<MockRequest>((resolve, reject) => {
      const check = (): boolean => {
        const hit = requests.find(predicate)
        if (hit === undefined) return false
        done()
        resolve(hit)
        return true
      }
      // A deadline, not a sleep: `wake` answers as soon as a matching request is recorded.
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
  }
  return { requests, record, waitForRequest }
}

async function listenLocal(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  return (server.address() as AddressInfo).port
}

/** Closes the server once, however often asked; it also closes itself after `timeLimitMs`. */
function closerOf(server: Server, timeLimitMs: number): () => Promise<void> {
  let closing: Promise<void> | undefined
  const limit = setTimeout(() => void close(), timeLimitMs)
  limit.unref()
  function close(): Promise<void> {
    clearTimeout(limit)
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve())
      // Keep-alive sockets from a killed client would hold close() open indefinitely.
      server.closeAllConnections()
    })
    return closing
  }
  return close
}

export async function startMockApi(options: MockApiOptions = {}): Promise<MockApi> {
  const { queue, replyFor } = replyQueue(options)
  const log = requestLog(options.logFile)
  let toolSeq = 0
  let msgSeq = 0
  const ids: ReplyIds = { nextToolId: () => `toolu_mock_${++toolSeq}`, nextMessageSeq: () => ++msgSeq }
  let maxPromptTokens = options.maxPromptTokens

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const parsed = await parseRequest(req, () => log.requests.length + 1)
    const limit = maxPromptTokens
    const isRefused = parsed.status === 200 && limit !== undefined && parsed.promptTokens > limit
    const request = isRefused ? { ...parsed, status: 400 } : parsed
    log.record(request)
    if (request.status === 404 || request.body === undefined) return sendNotFound(res, request)
    if (isRefused) return sendTooLong(res, request, limit)
    const reply = replyFor(request)
    const inputTokens = reply.inputTokens ?? (limit === undefined ? undefined : Math.round((request.promptTokens * WINDOW_TOKENS) / limit))
    await sendReply(res, request.body, inputTokens === undefined ? reply : { ...reply, inputTokens }, ids)
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(err) } }))
    })
  })
  const port = await listenLocal(server)
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: log.requests,
    script: (...replies) => void queue.push(...replies),
    pending: () => queue.length,
    refusePast: (tokens) => {
      maxPromptTokens = tokens
    },
    waitForRequest: log.waitForRequest,
    close: closerOf(server, options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS),
  }
}
