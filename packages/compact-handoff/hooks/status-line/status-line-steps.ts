// The one caller of `$.ui.status` in this mod: the engine draws one status
// line per plugin, so two writers would overwrite each other. What it was told
// is kept in `$.state` (session-scoped: a hot reload keeps the line it drew);
// the line is composed in status-line.ts.
import type { EngineInterface } from 'claude-code'
import { FULL_FIGURE, NO_FIGURE, NOTHING_TOLD, figureAfterTurnOf, statusLineOf, withFigure, withStage, type StatusLineTold } from './status-line.js'

type $ = EngineInterface

// Declared here, beside its only reads and writes: the engine lists a module's
// state access by the literal refs in each file.
const STATUS_LINE_REF = { plugin: 'compact-handoff', key: 'statusLine' } as const

/** Applies `change` to what the status line was told, in one compare-and-set,
 * and draws the line only when its text changed. A change that keeps what was
 * told writes nothing. It never rejects: its callers move a run or end a turn,
 * which a line not drawn must not stop. */
async function tell($: $, change: (told: StatusLineTold) => StatusLineTold): Promise<void> {
  await tellOnce($, change).catch(() => undefined)
}

async function tellOnce($: $, change: (told: StatusLineTold) => StatusLineTold): Promise<void> {
  for (;;) {
    const held = await $.state.get(STATUS_LINE_REF)
    const found = held.value ?? NOTHING_TOLD
    const told = change(found)
    if (told === found) return
    // A miss means another write landed since the read: the change is applied
    // again to what stands now, never to this copy.
    if (!(await $.state.set(STATUS_LINE_REF, told, { ifVersion: held.version })).isSet) continue
    const line = statusLineOf(told)
    if (line !== statusLineOf(found)) $.ui.status(line)
    return
  }
}

/** What the status line was told, as read: `applyEvent` reads it beside the
 * run's phase (one hop, not two). */
export type HeldStatusLine = { told: StatusLineTold; version: number }

export async function readStatusLine($: $): Promise<HeldStatusLine> {
  const held = await $.state.get(STATUS_LINE_REF)
  return { told: held.value ?? NOTHING_TOLD, version: held.version }
}

/** The run's stage text (undefined once no run is under way), with what was
 * read beside the phase: the line is drawn the moment the phase moved, then
 * kept; a write that landed since the read is met by applying the stage again
 * to what stands now. Never rejects. */
export async function tellStage($: $, stage: string | undefined, held: HeldStatusLine): Promise<void> {
  const told = withStage(held.told, stage)
  if (told === held.told) return
  const line = statusLineOf(told)
  if (line !== statusLineOf(held.told)) $.ui.status(line)
  const isSet = await $.state.set(STATUS_LINE_REF, told, { ifVersion: held.version }).then((r) => r.isSet, () => false)
  if (!isSet) await tell($, (now) => withStage(now, stage))
}

/** The context's use at an idle main-loop turn's end, from the usage the
 * nudge read; `isAnswered`: the turn ended with the model's answer. */
export function tellContextUse($: $, percent: number | undefined, nudgePercent: number, isAnswered: boolean): Promise<void> {
  return tell($, (told) => withFigure(told, figureAfterTurnOf(told.figure, percent, nudgePercent, isAnswered)))
}

/** The main loop's request was refused as too long: the context is full. */
export function tellContextFull($: $): Promise<void> {
  return tell($, (told) => withFigure(told, FULL_FIGURE))
}

/** A new context window began (a swap or a compaction): the old figure is gone. */
export function clearContextUse($: $): Promise<void> {
  return tell($, (told) => withFigure(told, NO_FIGURE))
}
