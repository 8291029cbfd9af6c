// A `$.store` key built from digests: fixed length whatever the parts, within
// the engine's 256 characters.
import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { STORE_KEY_LIMIT_CHARS, sha256HexOf, storeKeyOf } from '../../../packages/compact-handoff/hooks/text/store-key.js'

describe('sha256HexOf', () => {
  test("is SHA-256 of the text's UTF-8 bytes, lowercase hex", async () => {
    for (const text of ['', 'plain', 'C:\\Users\\me', 'naïve — 日本語 😀\r\n']) expect(await sha256HexOf(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'))
  })
})

describe('storeKeyOf', () => {
  test('is the prefix and one 64-character digest per part, joined by colons, for parts of any length', async () => {
    const long = `/${'p'.repeat(999)}`
    const key = await storeKeyOf('x:', long, 'session')
    expect(key).toBe(`x:${await sha256HexOf(long)}:${await sha256HexOf('session')}`)
    for (const parts of [['/p'], [long], [`C:\\${'w'.repeat(997)}`, 's'.repeat(5_000)]]) {
      const built = await storeKeyOf('held-in:', ...parts)
      expect(built.length).toBe('held-in:'.length + parts.length * 65 - 1)
      expect(built.length).toBeLessThanOrEqual(STORE_KEY_LIMIT_CHARS)
    }
  })
})
