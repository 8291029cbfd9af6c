// The one caller of `$.ui.status` in this mod: the engine draws one status
// line per plugin, so two writers would overwrite each other. What it was told
// is kept in `$.state` (session-scoped: a hot reload keeps the line it drew);
// the line is composed in status-line.ts.
import type { EngineInterface } from 'claude-code'
import { FULL_FIGURE, NO_FIGURE, NOTHING_TOLD, contextFigureOf, figureAfterTurnOf, statusLineOf, withFigure, withStage, type StatusLineTold } from './status-line.js'

type $ = EngineInterface

// Declared here, beside its only reads and writes: the engine lists a module's
// state access by the literal refs in each file.
const STATUS_LINE_REF = { plugin: 'compact-handoff', key: 'statusLine' } as const

/** What the status line was told, as read, with the version a write back
 * must meet: `applyEvent` reads it beside the phase (one hop, not two). The
 * shape of state/held.ts `Held`, spelled here: this folder imports nothing
 * outside itself (tests/contract/status-line-owner). */
export type HeldStatusLine = { value: StatusLineTold; version: number }

// Whether a context figure may stand told, so that a turn's end with none to
// tell and none told, the common case, reads nothing. A module variable that
// starts raised (a hot reload empties it); a write of a figure raises it as it
// goes out, a read that found none lowers it unless such a write went out since
// (the engine takes a module's calls in order).
let mayHoldFigure = true
let figureWrites = 0

export async function readStatusLine($: $): Promise<HeldStatusLine> {
  const writesBefore = figureWrites
  const held = await $.state.get(STATUS_LINE_REF)
  const value = held.value ?? NOTHING_TOLD
  if (value.figure.kind === 'none' && writesBefore === figureWrites) mayHoldFigure = false
  return { value, version: held.version }
}

/** Applies `change` to what the line was told, as `first` holds it, in one
 * compare-and-set, and draws the line only when its text changed: at once
 * with `isDrawnFirst` (a run's stage shows the moment the phase moved), else
 * once written (a line drawn from a copy another write overtook would stay on
 * screen). A change that keeps what was told writes nothing. A miss, or a
 * first write refused, applies the change again to what stands now, read
 * again. It never rejects: its callers move a run or end a turn, which a line
 * not drawn must not stop. */
async function tellHeld($: $, first: HeldStatusLine, change: (told: StatusLineTold) => StatusLineTold, isDrawnFirst = false): Promise<void> {
  let held: HeldStatusLine | undefined = first
  for (let isFirst = true; held !== undefined; isFirst = false) {
    const told = change(held.value)
    if (told === held.value) return
    const line = statusLineOf(told)
    const isNew = line !== statusLineOf(held.value)
    const drawsNow = isDrawnFirst && isFirst
    if (drawsNow && isNew) $.ui.status(line)
    if (told.figure.kind !== 'none') {
      figureWrites++
      mayHoldFigure = true
    }
    const isSet = await $.state.set(STATUS_LINE_REF, told, { ifVersion: held.version }).then((r) => r.isSet, () => (isFirst ? false : undefined))
    if (isSet === undefined) return
    if (isSet) {
      if (!drawsNow && isNew) $.ui.status(line)
      return
    }
    held = await readStatusLine($).catch(() => undefined)
  }
}

function tell($: $, change: (told: StatusLineTold) => StatusLineTold): Promise<void> {
  return readStatusLine($).then((held) => tellHeld($, held, change), () => undefined)
}

/** The run's stage text (undefined once no run is under way), with what was
 * read beside the phase. Never rejects. */
export function tellStage($: $, stage: string | undefined, held: HeldStatusLine): Promise<void> {
  return tellHeld($, held, (told) => withStage(told, stage), true)
}

/** The context's use at an idle main-loop turn's end; `isAnswered`: the turn
 * ended with the model's answer (a full context stays full until one is). No
 * figure to tell and none told: nothing is read. Never rejects. */
export function tellContextUse($: $, percent: number | undefined, nudgePercent: number, isAnswered: boolean): Promise<void> {
  if (!mayHoldFigure && contextFigureOf(percent, nudgePercent).kind === 'none') return Promise.resolve()
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
