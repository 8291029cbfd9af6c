// A small property-test helper for the Node-side suites: a seeded generator
// and a loop that runs a property over many drawn values. A failure names the
// value, the seed and the run, so it can be replayed exactly.

/** A seeded generator (mulberry32), so a failing run names a seed that replays it. */
export type Rand = { int: (below: number) => number; pick: <T>(items: readonly T[]) => T }

export function randOf(seed: number): Rand {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
  const int = (below: number) => Math.floor(next() * below)
  return {
    int,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list')
      // The bound is checked above; noUncheckedIndexedAccess cannot see it.
      return items[int(items.length)] as (typeof items)[number]
    },
  }
}

/** Up to `maxPieces` draws from `pieces`, joined: text built from chosen
 * pieces meets a parser's edge cases far more often than random characters. */
export function textOfPieces(rand: Rand, pieces: readonly string[], maxPieces: number): string {
  let text = ''
  const count = rand.int(maxPieces + 1)
  for (let i = 0; i < count; i++) text += rand.pick(pieces)
  return text
}

/** Cases per property unless a test asks for another count. */
export const RUNS = 2000

export type ForAllOptions = { seed?: number; runs?: number }

/** Checks `property` over `runs` values drawn by `gen`; a failure names the value and seed. */
export function forAll<T>(gen: (rand: Rand) => T, property: (value: T) => void, options: ForAllOptions = {}): void {
  const { seed = 0x5eed, runs = RUNS } = options
  const rand = randOf(seed)
  for (let run = 0; run < runs; run++) {
    const value = gen(rand)
    try {
      property(value)
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      const shown = JSON.stringify(value)
      const excerpt = shown !== undefined && shown.length > 2000 ? `${shown.slice(0, 2000)}… (${shown.length} chars)` : shown
      throw new Error(`failed for ${excerpt} (seed ${seed}, run ${run}): ${reason}`, { cause: error })
    }
  }
}
