// One reader per kind of option value. The manifest bounds what /config and
// `--config` accept, but a hand-edited setting can still arrive as anything,
// so each reader says "not a value of this kind" (undefined) and the caller
// falls back to the option's default.

/** A number or a plain decimal string ("60", "72.5"); never "70%", "0x32" or blank. */
const DECIMAL_RE = /^\s*\d+(?:\.\d+)?\s*$/

export type PercentBounds = { min: number; max: number }

/** A percent option: a finite number (or its decimal spelling) within the manifest's bounds. */
export function percentOf(value: unknown, bounds: PercentBounds): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && DECIMAL_RE.test(value) ? Number(value) : NaN
  return Number.isFinite(n) && n >= bounds.min && n <= bounds.max ? n : undefined
}

/** An on/off option: only a boolean is one; the string "true" is not. */
export function onOffOf(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined
}

/** A choice option: one of its values exactly (no other case, no trimming). */
export function choiceOf<T extends string>(value: unknown, values: readonly T[]): T | undefined {
  return values.find((known) => known === value)
}
