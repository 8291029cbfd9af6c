// The stubs this session installed, in `$.state` (stub-row.ts StubRow). Every
// access to the atom lives here, beside its declaration (the engine lists a
// module's state reads and writes from them).
import { atom, read, update, type EngineInterface } from 'claude-code'
import { withStubRow, type StubRow, type StubRows } from './stub-row.js'

type $ = EngineInterface

const stubRowsAtom = atom({ plugin: 'compact-handoff', key: 'stubRows' } as const, [] as StubRows)

/** Read while the row draws: the engine redraws the row when it changes. */
export function readStubRows($: $): Promise<StubRows> {
  return read($, stubRowsAtom)
}

export async function addStubRow($: $, row: StubRow): Promise<void> {
  await update($, stubRowsAtom, (rows) => withStubRow(rows, row))
}
