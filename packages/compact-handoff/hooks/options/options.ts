// The plugin's options (plugin.json's `userConfig`), resolved once in
// register.ts into one typed object that is passed to whatever needs it. The
// engine fills in the default of an option the person never set; anything
// that is not a value of the option's kind reads as the default too.
// `tests/contract/options.test.ts` holds OPTION_SPECS to plugin.json and the
// READMEs' option tables to both.
import { choiceOf, onOffOf, percentOf } from './option-values.js'

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
