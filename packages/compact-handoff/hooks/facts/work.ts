// The work record: the work's facts (facts.ts) and the rediscovery meter
// (meter/meter.ts), which work-steps.ts records from the same tool calls.
import { NO_FACTS, type Facts } from './facts.js'
import { NOT_WATCHING, type Meter } from '../meter/meter.js'

/** The work's facts and the meter, kept in one atom so a catch-up that feeds
 * both costs one state write; `through`, the id of the newest call folded in
 * (transcript-calls.ts), so the next catch-up reads on from it. */
export type WorkRecord = { facts: Facts; meter: Meter; through?: string }

export const NO_WORK: WorkRecord = { facts: NO_FACTS, meter: NOT_WATCHING }

/** `work` with `facts` and `meter`; the same record when neither changed, so
 * nothing is written for a call that records nothing new. */
export function workWith(work: WorkRecord, facts: Facts, meter: Meter): WorkRecord {
  return facts === work.facts && meter === work.meter ? work : { ...work, facts, meter }
}
