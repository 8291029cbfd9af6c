// The hot path's records, written after the outcome or the prompt went on: one at a time,
// in the order queued, a failed one costing only itself.
import { describe, expect, test } from 'vitest'
import { recordLater, recordsWritten } from '../../../packages/compact-handoff/hooks/state/record-queue.js'

describe('the record queue', () => {
  test('run one at a time in the order queued, and recordsWritten waits for every one', async () => {
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
    const written = recordsWritten().then(() => (isWritten = true))
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
    await expect(recordsWritten()).resolves.toBeUndefined()
    expect(seen).toEqual(['after'])
  })
})
