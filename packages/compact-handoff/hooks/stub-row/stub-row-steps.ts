// The stub's row: remembered by whoever installs a stub, before the row can be
// drawn (the swap before its compaction, a fork's answer before it returns),
// and redrawn as one line at `ui.render` (stub-row.ts decides). The stubs this
// session installed live in `$.state`; every access to the atom is here,
// beside its declaration (the engine lists a module's state reads and writes
// from them).
import { atom, read, update, type EngineInterface } from 'claude-code'
import { fingerprintOf } from '../ownership/ownership.js'
import { mayBeStub, stubRowLineOf, stubRowOf, withStubRow, type StubRowKind, type StubRows } from './stub-row.js'

type $ = EngineInterface

const stubRowsAtom = atom({ plugin: 'compact-handoff', key: 'stubRows' } as const, [] as StubRows)

/** Remembers `stub`, the text about to replace the conversation, and the handoff it names. */
export async function rememberStubRow($: $, kind: StubRowKind, stub: string, handoff: string, bytes: number): Promise<void> {
  const { sha256 } = await fingerprintOf(stub)
  await update($, stubRowsAtom, (rows) => withStubRow(rows, { kind, sha256, handoff, bytes }))
}

/** The line to draw for a user row holding `text`, or undefined to draw it as it is:
 * only a stub this session installed, whole, becomes its line. The rows are
 * read while the row draws: the engine redraws the row when they change. */
export async function stubRowLineFor($: $, text: string, columns: number | undefined): Promise<string | undefined> {
  if (!mayBeStub(text)) return undefined
  const [rows, { sha256 }] = await Promise.all([read($, stubRowsAtom), fingerprintOf(text)])
  const row = stubRowOf(rows, sha256)
  return row === undefined ? undefined : stubRowLineOf(row, columns)
}
