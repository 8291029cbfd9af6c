// Property tests for compact-handoff-answer's decision, run under Node. The
// kit tests in the mod cover the wiring; these throw many strings, random and
// hostile, at the pure function.
//
// Decided contract: the stub is everything after the marker line, verbatim (not
// trimmed), so `MARKER + '\n' + s` gives back `s` whenever `s` is not blank, and
// nothing (pass through) when it is.
import { describe, expect, test } from 'vitest'
import { MARKER } from '../../../packages/compact-handoff-answer/hooks/partner/marker.js'
import { markedStubOf, type CompactionInput } from '../../../packages/compact-handoff-answer/hooks/answer/marked-stub.js'
import { forAll, textOfPieces, type Rand } from '../../support/property.js'

/** Pieces chosen to hit the edges: line ends, Unicode blanks the trim removes
 * and one it keeps (zero-width space), lone surrogates, NUL, the marker itself
 * and near misses of it. */
const PIECES = [
  'a', 'Z', '7', ' ', '\t', '\n', '\r', '\r\n', '\v', '\f', '\u00a0', '\u2028', '\u3000', '\ufeff',
  '\u200b', '\0', '\ud800', '\udfff', 'é', '🙂', '/', ':', '`', '#', '-', MARKER, `${MARKER} `,
  ` ${MARKER}`, MARKER.toUpperCase(), MARKER.slice(0, -1), 'compact-handoff:v2',
] as const

function stringOf(rand: Rand, maxPieces = 12): string {
  return textOfPieces(rand, PIECES, maxPieces)
}

const TRIGGERS = ['plugin', undefined, 'manual', 'auto', 'precompute', '', 'Plugin'] as const

function compactionInputOf(rand: Rand): CompactionInput {
  const instructions = rand.int(2) === 0 ? stringOf(rand) : `${MARKER}${rand.pick(['\n', '\r\n'])}${stringOf(rand)}`
  return {
    trigger: rand.pick(TRIGGERS),
    agentId: rand.pick([undefined, undefined, 'agent-1', '']),
    instructions: rand.int(10) === 0 ? undefined : instructions,
  }
}

const isBlank = (s: string) => s.trim() === ''

describe('markedStubOf over any input', () => {
  test('never throws, and returns either nothing or a non-blank suffix of the instructions', () => {
    forAll(compactionInputOf, (input) => {
      const stub = markedStubOf(input)
      if (stub === undefined) return
      expect(isBlank(stub), 'a blank stub would erase the conversation').toBe(false)
      expect(input.instructions?.endsWith(stub), 'the stub is cut from the instructions, never made up').toBe(true)
    })
  })

  test('answers only a plugin compaction (or the kit\'s undefined trigger) of the main loop', () => {
    forAll(compactionInputOf, (input) => {
      const isOurs = (input.trigger === 'plugin' || input.trigger === undefined) && input.agentId === undefined
      if (!isOurs) expect(markedStubOf(input)).toBeUndefined()
    })
  })
})

describe('markedStubOf with the marker alone on the first line', () => {
  test('gives back exactly what follows an LF, untrimmed, when it is not blank', () => {
    forAll(stringOf, (s) => {
      expect(markedStubOf({ trigger: 'plugin', instructions: `${MARKER}\n${s}` })).toBe(isBlank(s) ? undefined : s)
    })
  })

  test('gives back exactly what follows a CRLF, when it is not blank', () => {
    forAll(stringOf, (s) => {
      expect(markedStubOf({ trigger: 'plugin', instructions: `${MARKER}\r\n${s}` })).toBe(isBlank(s) ? undefined : s)
    })
  })

  test('treats the kit\'s undefined trigger like the engine\'s plugin trigger', () => {
    forAll(stringOf, (s) => {
      const instructions = `${MARKER}\n${s}`
      expect(markedStubOf({ instructions })).toBe(markedStubOf({ trigger: 'plugin', instructions }))
    })
  })

  test.each([
    ['only an LF', `${MARKER}\n`],
    ['Unicode blanks', `${MARKER}\n\u00a0\u3000\ufeff\u2028\n`],
    ['blank CRLF lines', `${MARKER}\r\n \r\n\t\r\n`],
  ])('passes through a stub holding %s', (_name, instructions) => {
    expect(markedStubOf({ trigger: 'plugin', instructions })).toBeUndefined()
  })
})

describe('markedStubOf with anything else on the first line', () => {
  test('passes through whenever the first line is not exactly the marker', () => {
    forAll(
      (rand) => `${stringOf(rand, 3)}${MARKER}${stringOf(rand, 3)}\n${stringOf(rand)}`,
      (instructions) => {
        const firstLine = instructions.slice(0, instructions.indexOf('\n')).replace(/\r$/, '')
        if (firstLine !== MARKER) expect(markedStubOf({ trigger: 'plugin', instructions })).toBeUndefined()
      },
    )
  })

  test.each([
    ['text after the marker', `${MARKER} extra\nstub`],
    ['text before the marker', `x${MARKER}\nstub`],
    ['a byte-order mark before the marker', `\ufeff${MARKER}\nstub`],
    ['a zero-width space after the marker', `${MARKER}\u200b\nstub`],
    ['a lone CR as the line end', `${MARKER}\rstub`],
    ['two CRs before the LF', `${MARKER}\r\r\nstub`],
    ['a Unicode line separator as the line end', `${MARKER}\u2028stub`],
    ['the marker on the second line', `\n${MARKER}\nstub`],
    ['no line end at all', MARKER],
  ])('passes through %s', (_name, instructions) => {
    expect(markedStubOf({ trigger: 'plugin', instructions })).toBeUndefined()
  })
})
