// The work record: the work's facts (evidence.ts) and the rediscovery meter
// (follow-up.ts), which work-steps.ts records from the same tool calls.
import { NO_EVIDENCE, type Evidence } from './evidence.js'
import { NOT_WATCHING, type FollowUp } from './follow-up.js'

/** The work's facts and the meter, kept in one atom so a tool call that feeds
 * both costs one state write. */
export type WorkRecord = { facts: Evidence; followUp: FollowUp }

export const NO_WORK: WorkRecord = { facts: NO_EVIDENCE, followUp: NOT_WATCHING }
