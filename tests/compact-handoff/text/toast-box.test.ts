import { describe, expect, test } from 'vitest'
import { fitsToast, TOAST_COLUMNS, TOAST_LINES, toastLinesOf, toastWithPath } from '../../../packages/compact-handoff/hooks/text/toasts.js'

describe('the toast box', () => {
  // Both drawn live (2.1.332, 80 columns and 160 alike): the box's three lines, the third cut with "…".
  test('wraps as the terminal did: words to 40 cells, a word too long for the rest starts a line', () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${String(i).padStart(2, '0')}xx`).join(' ')
    expect(toastLinesOf(words).slice(0, 3)).toEqual(['w00xx w01xx w02xx w03xx w04xx w05xx', 'w06xx w07xx w08xx w09xx w10xx w11xx', 'w12xx w13xx w14xx w15xx w16xx w17xx'])
    expect(fitsToast(words)).toBe(false)
    const long = `${'ABCDEFGHIJ'.repeat(3)} word2 word3 ${'0123456789'.repeat(12)} END`
    expect(toastLinesOf(long).slice(0, 3)).toEqual(['ABCDEFGHIJABCDEFGHIJABCDEFGHIJ word2', 'word3', '0123456789'.repeat(4)])
    expect(fitsToast(long)).toBe(false)
  })

  test('a text of three full lines fits, one word more does not', () => {
    const three = Array.from({ length: TOAST_LINES }, () => 'x'.repeat(TOAST_COLUMNS)).join(' ')
    expect(fitsToast(three)).toBe(true)
    expect(fitsToast(`${three} y`)).toBe(false)
  })

  test('a path is kept whole when it fits, else shortened from the left until the toast does', () => {
    const short = '.claude/handoffs/HANDOFF_parser_2026-12-01.md'
    expect(toastWithPath((p) => `not resumed, nothing sent: ${p}`, short)).toBe(`not resumed, nothing sent: ${short}`)
    const deep = `${'very/deep/folder/'.repeat(12)}HANDOFF_parser_2026-12-01.md`
    const text = toastWithPath((p) => `the automatic compaction became a checked handoff: ${p}`, deep)
    expect(fitsToast(text), text).toBe(true)
    expect(text).toMatch(/…\/?[^ ]*_2026-12-01\.md$/)
  })
})
