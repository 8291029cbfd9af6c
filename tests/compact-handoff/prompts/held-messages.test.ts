// Messages a run held when the session ended with no prompt box (kept in the
// mod's store per folder), and what a prompt with attachments is told.
import { describe, expect, test } from 'vitest'
import { MAX_KEPT_PROJECTS, keptListOf, letThroughTextOf, restoredToastOf, takeKept, withKept } from '../../../packages/compact-handoff/hooks/prompts/held-messages.js'

const AT = '2026-11-30T10:00:00.000Z'

describe('the kept list', () => {
  test('reads only well-formed entries from what the store holds', () => {
    const good = { cwd: '/p', messages: ['a'], endedAt: AT }
    expect(keptListOf(undefined)).toEqual([])
    expect(keptListOf({ cwd: '/p' })).toEqual([])
    expect(keptListOf([good, { cwd: '/q', messages: [1], endedAt: AT }, null, 'x', { cwd: '/r', messages: [] }])).toEqual([good])
  })

  test('adds to what a folder already kept, in order, and moves it to the newest place', () => {
    const list = withKept(withKept([], '/p', ['one'], AT), '/q', ['other'], AT)
    const added = withKept(list, '/p', ['two', 'three'], '2026-11-30T11:00:00.000Z')
    expect(added).toEqual([
      { cwd: '/q', messages: ['other'], endedAt: AT },
      { cwd: '/p', messages: ['one', 'two', 'three'], endedAt: '2026-11-30T11:00:00.000Z' },
    ])
  })

  test(`keeps the newest ${MAX_KEPT_PROJECTS} folders`, () => {
    let list = keptListOf([])
    for (let i = 0; i < MAX_KEPT_PROJECTS + 3; i++) list = withKept(list, `/p${i}`, [`m${i}`], AT)
    expect(list.length).toBe(MAX_KEPT_PROJECTS)
    expect(list[0]?.cwd).toBe('/p3')
  })

  test('takes one folder out, leaving the others', () => {
    const list = withKept(withKept([], 'C:\\Users\\me\\proj', ['win'], AT), '/p', ['posix'], AT)
    expect(takeKept(list, 'C:\\Users\\me\\proj')).toEqual({ kept: list[0], rest: [list[1]] })
    expect(takeKept(list, '/elsewhere')).toEqual({ kept: undefined, rest: list })
    expect(restoredToastOf(list[0]!)).toBe(`compact-handoff: 1 message(s) you typed during a handoff run, held when the session here ended (${AT}), are back in the prompt box.`)
  })
})

describe('a prompt with attachments let through', () => {
  test.each([
    [['image'], 'an image'],
    [['document'], 'a document'],
    [['audio'], 'an audio clip'],
    [['image', 'document'], '2 attachments (image, document)'],
  ])('names %j as %s and says what a swap would keep', (kinds, words) => {
    const text = letThroughTextOf(kinds)
    expect(text).toContain(`your message carries ${words}, which a plugin cannot hold and send again, so it went to Claude now instead of being held.`)
    expect(text).toContain('the new context keeps your words but not the attachment or the answer')
  })
})
