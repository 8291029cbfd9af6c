// The ownership records a kit test's store holds, however they are laid out: a
// key per record, and an earlier version's one list, merged as the mod reads them.
import { LEGACY_RECORDS_KEY, RECORD_KEY_PREFIX, mergedRecords, recordOf, recordsOf, type OwnRecord } from '../../hooks/ownership/ownership.js'

export function ownRecordsIn(store: ReadonlyMap<string, unknown>): OwnRecord[] {
  const own = [...store].filter(([key]) => key.startsWith(RECORD_KEY_PREFIX)).flatMap(([, value]) => recordOf(value) ?? [])
  return mergedRecords([recordsOf(store.get(LEGACY_RECORDS_KEY)), own])
}
