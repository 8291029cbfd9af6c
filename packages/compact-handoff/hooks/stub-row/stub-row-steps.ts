// The stub's row: remembered by whoever installs a stub, before the row can be
// drawn (the swap before its compaction, a fork's answer before it returns),
// and redrawn as one line at `ui.render` (stub-row.ts decides).
import type { EngineInterface } from 'claude-code'
import { fingerprintOf } from '../ownership/ownership.js'
import { mayBeStub, stubRowLineOf, stubRowOf, type StubRowKind } from './stub-row.js'
import { addStubRow, readStubRows } from './stub-row-state.js'

type $ = EngineInterface

/** Remembers `stub`, the text about to replace the conversation, and the handoff it names. */
export async function rememberStubRow($: $, kind: StubRowKind, stub: string, handoff: string, bytes: number): Promise<void> {
  const { sha256 } = await fingerprintOf(stub)
  await addStubRow($, { kind, sha256, handoff, bytes })
}

/** The line to draw for a user row holding `text`, or undefined to draw it as it is:
 * only a stub this session installed, whole, becomes its line. */
export async function stubRowLineFor($: $, text: string, columns: number | undefined): Promise<string | undefined> {
  if (!mayBeStub(text)) return undefined
  const [rows, { sha256 }] = await Promise.all([readStubRows($), fingerprintOf(text)])
  const row = stubRowOf(rows, sha256)
  return row === undefined ? undefined : stubRowLineOf(row, columns)
}
