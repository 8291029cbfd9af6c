import { afterEach, describe, expect, it } from 'vitest'
import { startMockApi, WINDOW_TOKENS, type MockApi } from './mock-api.js'

let mock: MockApi | undefined

afterEach(async () => {
  await mock?.close()
  mock = undefined
})

function post(api: MockApi, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${api.url}/v1/messages?beta=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
}

/** A request body of exactly `chars` characters once serialised. */
function bodyOf(chars: number): Record<string, unknown> {
  const base = { model: 'm', messages: [{ role: 'user', content: '' }] }
  const pad = chars - JSON.stringify(base).length
  return { ...base, messages: [{ role: 'user', content: 'x'.repeat(pad) }] }
}

describe('maxPromptTokens', () => {
  it('refuses a request past it as the real API does, logs it with status 400, and consumes no scripted reply', async () => {
    mock = await startMockApi({ maxPromptTokens: 100 })
    mock.script({ text: 'ANSWER' })
    const res = await post(mock, bodyOf(404))
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 101 tokens > 100 maximum' } })
    expect(mock.requests.map((r) => [r.status, r.promptTokens])).toEqual([[400, 101]])
    expect(mock.pending()).toBe(1)
  })

  it('answers a request at it, reporting input tokens scaled so that the limit is the window', async () => {
    mock = await startMockApi({ maxPromptTokens: 100 })
    const res = await post(mock, bodyOf(200))
    expect(res.status).toBe(200)
    const reply = (await res.json()) as { usage: { input_tokens: number } }
    expect(reply.usage.input_tokens).toBe(WINDOW_TOKENS / 2)
  })

  it('moves with refusePast, and refuses nothing once lifted', async () => {
    mock = await startMockApi()
    expect((await post(mock, bodyOf(4_000))).status).toBe(200)
    mock.refusePast(10)
    expect((await post(mock, bodyOf(4_000))).status).toBe(400)
    mock.refusePast(undefined)
    const res = await post(mock, bodyOf(4_000))
    expect(res.status).toBe(200)
    expect(((await res.json()) as { usage: { input_tokens: number } }).usage.input_tokens, "a reply's own figure when nothing is refused").toBe(100)
  })
})
