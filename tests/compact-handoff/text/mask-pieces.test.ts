// Masking a text longer than the engine's redact takes (mask-pieces.ts): cut at
// seams no credential crosses, the pieces masked one by one give what masking
// the whole text at once gives; where no such seam is found, nothing is given.
import { describe, expect, test } from 'vitest'
import { MASK_SEAM_REACH_CHARS, MAX_SEAM_TRIES, nextSeamLimitOf, seamBefore, seamSurroundingsOf } from '../../../packages/compact-handoff/hooks/text/mask-pieces.js'
import { maskedWholeWith } from '../../support/recall-answer.js'
import { MAX_REDACT_CHARS } from '../../../packages/compact-handoff/hooks/text/text-clip.js'
import { holdsPieceOf, jwtOf, pemBodyLinesOf, pemKeyOf } from '../../../packages/compact-handoff/tests/support/credentials.js'
import { engineMaskOf, redactStandIn } from '../../support/engine-mask.js'

/** Plain log lines, `chars` of them (newlines counted), none holding a credential. */
function logLinesOf(chars: number, tag = 'log'): string {
  const lines: string[] = []
  let size = 0
  for (let i = 0; size < chars; i++) {
    const line = `${tag} ${String(i).padStart(6, '0')} request handled in 12 ms, status 200`.padEnd(79, '.')
    lines.push(line)
    size += line.length + 1
  }
  return `${lines.join('\n')}\n`.slice(0, chars)
}

/** The stand-in redact, counting its calls and refusing a text over MAX_REDACT_CHARS. */
function countingRedact(): { mask: (text: string) => string; calls: number[] } {
  const calls: number[] = []
  return {
    calls,
    mask: (text) => {
      calls.push(text.length)
      return redactStandIn(text)
    },
  }
}

describe('maskedWholeWith', () => {
  test('a text the engine takes at once goes to it whole, in one call', () => {
    const { mask, calls } = countingRedact()
    const text = `${logLinesOf(50_000)}${pemKeyOf(25, 1)}\n`
    expect(maskedWholeWith(text, mask)).toBe(engineMaskOf(text))
    expect(calls).toEqual([text.length])
  })

  test('a PEM key at every place around where a cut at the limit would fall: masked as the whole text masks it', () => {
    const pem = pemKeyOf(40, 2)
    for (let at = MAX_REDACT_CHARS - pem.length - 400; at <= MAX_REDACT_CHARS + 400; at += 300) {
      const text = `${logLinesOf(at)}\n${pem}\n${logLinesOf(70_000, 'tail')}`
      const masked = maskedWholeWith(text, redactStandIn)
      expect(masked, `the key at ${at}`).toBe(engineMaskOf(text))
      for (const line of pemBodyLinesOf(pem)) expect(masked).not.toContain(line)
    }
  })

  test('a bearer token across the limit in one line longer than a piece: masked as the whole line masks it', () => {
    const jwt = jwtOf(3_000, 3)
    for (const shift of [-2_900, -1_500, -20, 0, 700]) {
      const head = 'x'.repeat(MAX_REDACT_CHARS + shift - 40)
      const text = `${head} > Authorization: Bearer ${jwt} < ${'y'.repeat(150_000)}`
      const masked = maskedWholeWith(text, redactStandIn)
      expect(masked, `shifted ${shift}`).toBe(engineMaskOf(text))
      expect(holdsPieceOf(masked ?? '', jwt)).toBe(false)
    }
  })

  test('keys and tokens spread through 1.5 MB of output: masked as the whole masks them, in pieces the engine takes', () => {
    const parts: string[] = []
    // Each gap leaves room for a seam's surroundings free of credentials (2 × MASK_SEAM_REACH_CHARS).
    for (let i = 0; i < 40; i++) parts.push(logLinesOf(2 * MASK_SEAM_REACH_CHARS + 1_000 + 997 * i, `p${i}`), i % 2 === 0 ? pemKeyOf(30, i) : `> Authorization: Bearer ${jwtOf(1_800, i)}`)
    const text = parts.join('\n')
    const { mask, calls } = countingRedact()
    expect(maskedWholeWith(text, mask)).toBe(engineMaskOf(text))
    expect(Math.max(...calls)).toBeLessThanOrEqual(MAX_REDACT_CHARS)
    expect(calls.length, 'a few calls per piece').toBeLessThan((MAX_SEAM_TRIES + 1) * Math.ceil(text.length / (2 * MASK_SEAM_REACH_CHARS)))
  })

  test('no seam free of credentials near the limit: nothing is given, never a guess', () => {
    const text = 'export API_TOKEN=abc123def456\n'.repeat(5_000)
    expect(text.length).toBeGreaterThan(MAX_REDACT_CHARS)
    expect(maskedWholeWith(text, redactStandIn)).toBeUndefined()
  })

  test('linear: 8 MB of one line and of short lines each masked in bounded time', () => {
    for (const text of ['z'.repeat(8 * 1_048_576), logLinesOf(8 * 1_048_576)]) {
      const started = Date.now()
      expect(maskedWholeWith(text, (t) => t)).toBe(text)
      expect(Date.now() - started).toBeLessThan(5_000)
    }
  })
})

describe('the seams', () => {
  test("the first tried: the last line's start a piece reaches, never nearer its start than two reaches", () => {
    const text = logLinesOf(400_000)
    const from = 80
    const seam = seamBefore(text, from, from + MAX_REDACT_CHARS)!
    expect(text[seam - 1], "at a line's start").toBe('\n')
    expect(seam - from).toBeLessThanOrEqual(MAX_REDACT_CHARS)
    expect(seam - from).toBeGreaterThan(MAX_REDACT_CHARS - 80)
    expect(seamBefore(text, from, from + 2 * MASK_SEAM_REACH_CHARS), 'no room left').toBeUndefined()
  })

  test('inside a line longer than a piece, and never between the halves of a character', () => {
    const text = '🙂'.repeat(200_000)
    for (const limit of [MAX_REDACT_CHARS, MAX_REDACT_CHARS - 1, 70_001]) {
      const seam = seamBefore(text, 0, limit)!
      expect(seam % 2, `seam ${seam} between two characters`).toBe(0)
      expect(seam).toBeLessThanOrEqual(limit)
    }
  })

  test('after a credential in its surroundings, the next seam is tried where its surroundings end before the credential', () => {
    const pem = pemKeyOf(30, 4)
    const text = `${logLinesOf(90_000)}${pem}\n${logLinesOf(100_000)}`
    const seam = seamBefore(text, 0, MAX_REDACT_CHARS)!
    const around = seamSurroundingsOf(text, seam)
    const limit = nextSeamLimitOf(seam, around, redactStandIn(around))
    expect(limit + MASK_SEAM_REACH_CHARS).toBeLessThanOrEqual(90_000)
    const next = seamBefore(text, 0, limit)!
    expect(redactStandIn(seamSurroundingsOf(text, next)), 'clean there').toBe(seamSurroundingsOf(text, next))
  })
})
