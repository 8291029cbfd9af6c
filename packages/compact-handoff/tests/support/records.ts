// The ownership records a kit test's store holds, a key per record, as the mod reads them.
import { RECORD_KEY_PREFIX, recordOf, type OwnRecord } from '../../hooks/ownership/ownership.js'

export function ownRecordsIn(store: ReadonlyMap<string, unknown>): OwnRecord[] {
  return [...store].filter(([key]) => key.startsWith(RECORD_KEY_PREFIX)).flatMap(([, value]) => recordOf(value) ?? []).sort((a, b) => a.writtenAtMs - b.writtenAtMs)
}
