// The work record: the work's facts (facts.ts) and the rediscovery meter
// (follow-up.ts), which work-steps.ts records from the same tool calls.
import { NO_FACTS, type Facts } from './facts.js'
import { NOT_WATCHING, type Meter } from '../meter/meter.js'

/** The work's facts and the meter, kept in one atom so a tool call that feeds
 * both costs one state write. */
export type WorkRecord = { facts: Facts; meter: Meter }

export const NO_WORK: WorkRecord = { facts: NO_FACTS, meter: NOT_WATCHING }
