// The plugin's options (plugin.json's `userConfig`), resolved once in
// register.ts into one typed object that is passed to whatever needs it. The
// engine fills in the default of an option the person never set; anything
// that is not a value of the option's kind reads as the default too.
// `tests/contract/options.test.ts` holds OPTION_SPECS to plugin.json and the
// READMEs' option tables to both.
//
// One reader per kind of option value. The host checks each value against
// plugin.json before `register` runs (a number out of its bounds or not a
// number, or a boolean that is not one, and the mod is not loaded; a choice
// given any other value arrives as unset: seen in `claude plugin test` on
// 2.1.332), so a reader guards only what a later host or a hand-edited
// setting lets through: it says "not a value of this kind" (undefined) and
// the caller falls back to the option's default.

/** A number or a plain decimal string ("60", "72.5"); never "70%", "0x32" or blank. */
const DECIMAL_RE = /^\s*\d+(?:\.\d+)?\s*$/

/** A percent option: a finite number (or its decimal spelling) within the manifest's bounds. */
export function percentOf(value: unknown, bounds: { min: number; max: number }): number | undefined {
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

/** Option compactionHandoff: which of the engine's compactions a fork answers. */
export type CompactionHandoff = 'auto' | 'all' | 'off'

export const COMPACTION_HANDOFF_VALUES: readonly CompactionHandoff[] = ['auto', 'all', 'off']

/** Each option's kind, bounds and default, as plugin.json declares them. */
export const OPTION_SPECS = {
  nudgePercent: { kind: 'percent', min: 1, max: 99, default: 70 },
  /** 0 is off (`thresholds/auto-handoff.ts` AUTO_HANDOFF_OFF). */
  autoHandoffPercent: { kind: 'percent', min: 0, max: 99, default: 0 },
  compactionHandoff: { kind: 'choice', values: COMPACTION_HANDOFF_VALUES, default: 'auto' },
  askAfterCompaction: { kind: 'on-off', default: false },
} as const

export type Options = {
  nudgePercent: number
  autoHandoffPercent: number
  compactionHandoff: CompactionHandoff
  askAfterCompaction: boolean
}

/** The options from `register`'s second argument. */
export function optionsOf(raw: Readonly<Record<string, unknown>>): Options {
  const { nudgePercent, autoHandoffPercent, compactionHandoff, askAfterCompaction } = OPTION_SPECS
  return {
    nudgePercent: percentOf(raw.nudgePercent, nudgePercent) ?? nudgePercent.default,
    // `+ 0` reads -0 as 0, the one off value.
    autoHandoffPercent: (percentOf(raw.autoHandoffPercent, autoHandoffPercent) ?? autoHandoffPercent.default) + 0,
    compactionHandoff: choiceOf(raw.compactionHandoff, compactionHandoff.values) ?? compactionHandoff.default,
    askAfterCompaction: onOffOf(raw.askAfterCompaction) ?? askAfterCompaction.default,
  }
}
