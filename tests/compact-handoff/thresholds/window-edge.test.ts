// When the conversation is known not to fit one more request.
import { describe, expect, test } from 'vitest'
import { REFUSED, UNREFUSED, isKnownNotToFitOf, isTooLongFailureOf } from '../../../packages/compact-handoff/hooks/thresholds/window-edge.js'

describe('isTooLongFailureOf', () => {
  test("an invalid request refused for its length, in the API's words or the engine's", () => {
    expect(isTooLongFailureOf('invalid_request', 'prompt is too long: 210000 tokens > 200000 maximum')).toBe(true)
    expect(isTooLongFailureOf('invalid_request', 'Context limit reached')).toBe(true)
    expect(isTooLongFailureOf('invalid_request', undefined), 'no details: the likeliest invalid request of a long session').toBe(true)
  })

  test('any other error, or an invalid request for another reason, is not', () => {
    expect(isTooLongFailureOf('overloaded', 'prompt is too long')).toBe(false)
    expect(isTooLongFailureOf('max_output_tokens', undefined)).toBe(false)
    expect(isTooLongFailureOf('invalid_request', 'image exceeds 5 MB maximum')).toBe(false)
  })

  test('reads a bounded head of long details', () => {
    expect(isTooLongFailureOf('invalid_request', `${'x'.repeat(5_000_000)} prompt is too long`)).toBe(false)
  })
})

describe('isKnownNotToFitOf', () => {
  test('a refusal in this window decides, whatever the usage', () => {
    expect(isKnownNotToFitOf(REFUSED, undefined)).toBe(true)
    expect(isKnownNotToFitOf(REFUSED, { window: 200_000, percent: 40 })).toBe(true)
  })

  test('else a usage that fills the window; an unknown one says nothing', () => {
    expect(isKnownNotToFitOf(UNREFUSED, { window: 200_000, percent: 100 })).toBe(true)
    expect(isKnownNotToFitOf(UNREFUSED, { window: 200_000, tokens: 200_000 })).toBe(true)
    expect(isKnownNotToFitOf(UNREFUSED, { window: 200_000, tokens: 199_999, percent: 99 })).toBe(false)
    expect(isKnownNotToFitOf(UNREFUSED, { window: 200_000 })).toBe(false)
    expect(isKnownNotToFitOf(UNREFUSED, undefined)).toBe(false)
  })
})
