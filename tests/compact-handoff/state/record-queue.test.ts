// The hot path's records: held as data and written in one flush when a reader
// waits for them; the rare ones run at once, one at a time, in the order
// queued; a failed one costs only itself.
import { describe, expect, test } from 'vitest'
import { flushHeld, holdRecord, recordLater } from '../../../packages/compact-handoff/hooks/state/record-queue.js'

/** A flush that keeps what it was given, one list per flush. */
function keptFlushes() {
  const flushes: (readonly string[])[] = []
  return { flushes, flush: async (records: readonly string[]) => void flushes.push(records) }
}

describe('the record queue', () => {
  test('run one at a time in the order queued, and flushHeld waits for every one', async () => {
    const seen: string[] = []
    let release = (): void => undefined
    const first = new Promise<void>((go) => (release = go))
    recordLater(async () => {
      seen.push('first begins')
      await first
      seen.push('first ends')
    })
    recordLater(async () => {
      seen.push('second')
    })
    let isWritten = false
    const written = flushHeld(keptFlushes().flush).then(() => (isWritten = true))
    await Promise.resolve()
    await Promise.resolve()
    expect(seen, 'the second waits for the first').toEqual(['first begins'])
    expect(isWritten).toBe(false)
    release()
    await written
    expect(seen).toEqual(['first begins', 'first ends', 'second'])
  })

  test('a failed record costs only itself', async () => {
    const seen: string[] = []
    recordLater(() => Promise.reject(new Error('state refused')))
    recordLater(async () => {
      seen.push('after')
    })
    await expect(flushHeld(keptFlushes().flush)).resolves.toBeUndefined()
    expect(seen).toEqual(['after'])
  })

  test('held records wait for a reader, then go in one flush, in order, before the reader goes on', async () => {
    const { flushes, flush } = keptFlushes()
    holdRecord('/a', flush)
    holdRecord('fix it', flush)
    await Promise.resolve()
    expect(flushes, 'nothing written before a reader').toEqual([])
    await flushHeld(flush)
    expect(flushes).toEqual([['/a', 'fix it']])
    await flushHeld(flush)
    expect(flushes, 'nothing left to flush').toHaveLength(1)
  })

  test('past 32 held records they are flushed without a reader', async () => {
    const { flushes, flush } = keptFlushes()
    for (let i = 0; i < 33; i++) holdRecord(`/f${i}`, flush)
    await flushHeld(async () => undefined)
    expect(flushes.map((f) => f.length), 'the first 32 in one flush').toEqual([32])
  })

  test('a failed flush costs only what it held: the reader goes on, later records are written', async () => {
    const { flushes, flush } = keptFlushes()
    holdRecord('/lost', flush)
    await expect(flushHeld(() => Promise.reject(new Error('state refused')))).resolves.toBeUndefined()
    holdRecord('/kept', flush)
    await flushHeld(flush)
    expect(flushes).toEqual([['/kept']])
  })
})
