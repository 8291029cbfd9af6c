// The digest through the mod's own steps (digest-steps.ts maskedDigestNow),
// reached as the engine reaches it: a fork refused as too long sends the
// digest in a request of its own. Its leading sections come from the mod's
// records, and every text it shows is masked by the engine's redact (answered
// beneath by world.ts as the engine masks) before it can reach that request.
import { describe, expect } from 'claude-code/testing'
import type { SessionMessage } from 'claude-code'
// Every test here carries a loaded machine's timeout (support/loaded-test.ts says why).
import { test } from '../support/loaded-test.js'
import { world, type ForkAnswer } from '../support/world.js'
import { FIRST_WORDS, REPLY, compactAuto, sessionWithWork } from '../support/fork-support.js'
import { DIGEST_OPENING } from '../../hooks/compaction/digest.js'

/** The fork's request refused as the API refuses a prompt past the window. */
const TOO_LONG: ForkAnswer = { reason: 'api-error', status: 400, error: 'invalid_request' }
const TOKEN = 'sk-live-4f9a8b7c6d5e'
const MESSAGES: SessionMessage[] = [
  { role: 'user', text: 'Check that the API answers with my key.', toolUses: [] },
  { role: 'assistant', text: 'Calling it.', toolUses: [{ tool_use_id: 't1', tool: 'Bash', input: { command: `curl -v -H "Authorization: Bearer ${TOKEN}" https://api.example.com` } }] },
  { role: 'user', text: '', toolUses: [], toolResults: [{ tool_use_id: 't1', text: `> GET / HTTP/1.1\n> Authorization: Bearer ${TOKEN}\n< HTTP/1.1 200 OK`, isError: false }] },
  { role: 'assistant', text: 'It answers.', toolUses: [] },
]

describe('maskedDigestNow', () => {
  test("masks a bearer token in a call's command and in its output, and leads with the user's recorded words", async ($, on) => {
    const w = world(on, { forks: [TOO_LONG], completes: [REPLY] })
    await sessionWithWork($)
    await compactAuto($, MESSAGES)
    const prompt = w.seen.completes[0]?.prompt ?? ''
    expect(prompt, 'the digest rides in the request').toContain(DIGEST_OPENING)
    expect(prompt).toContain('--- The assistant called Bash (message 2 of 4): curl -v -H "Authorization: Bearer [REDACTED]" https://api.example.com  → exit 0')
    expect(prompt).toContain('> Authorization: Bearer [REDACTED]\n< HTTP/1.1 200 OK')
    expect(prompt, 'never the token').not.toContain(TOKEN)
    const digest = prompt.slice(prompt.indexOf(DIGEST_OPENING))
    expect(digest.indexOf(FIRST_WORDS), "the user's words, recorded at prompt.submit, ahead of the entries").toBeGreaterThan(0)
    expect(digest.indexOf(FIRST_WORDS)).toBeLessThan(digest.indexOf('--- The assistant wrote (message 4 of 4)'))
  })

  test('masks each text on its own where the masking of texts joined in one call reached across the line between two', async ($, on) => {
    const w = world(on, { forks: [TOO_LONG], completes: [REPLY] })
    await sessionWithWork($)
    const before = w.seen.redactions
    // Joined, "Bearer" at a command's end and the output's first word after it read as one credential, the line between them masked away.
    await compactAuto($, [
      { role: 'assistant', text: '', toolUses: [{ tool_use_id: 't1', tool: 'Bash', input: { command: 'echo Authorization: Bearer' } }] },
      { role: 'user', text: '', toolUses: [], toolResults: [{ tool_use_id: 't1', text: 'Authorization: Bearer', isError: false }] },
      { role: 'assistant', text: `Now with the key: Authorization: Bearer ${TOKEN}`, toolUses: [] },
    ])
    const prompt = w.seen.completes[0]?.prompt ?? ''
    expect(prompt).toContain('--- The assistant called Bash (message 1 of 3): echo Authorization: Bearer  → exit 0\nIts output:\n```\nAuthorization: Bearer\n```')
    expect(prompt).toContain('Now with the key: Authorization: Bearer [REDACTED]')
    expect(prompt).not.toContain(TOKEN)
    expect(w.seen.redactions - before, 'the joined call, then one per text').toBeGreaterThan(3)
  })
})
