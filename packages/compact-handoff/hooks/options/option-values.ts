// One reader per kind of option value. The host checks each value against
// plugin.json before `register` runs (a number out of its bounds or not a
// number, or a boolean that is not one, and the mod is not loaded; a choice
// given any other value arrives as unset: seen in `claude plugin test` on
// 2.1.332), so a reader guards only what a later host or a hand-edited
// setting lets through: it says "not a value of this kind" (undefined) and
// the caller falls back to the option's default.

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
