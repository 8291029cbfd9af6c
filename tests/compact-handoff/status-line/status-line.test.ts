// The status line's composer: the run's stage first, else the context's use
// (a hint from HINT_POINTS below nudgePercent, urgent from it on), else nothing.
import { describe, expect, test } from 'vitest'
import {
  HINT_POINTS,
  FULL_FIGURE,
  NO_FIGURE,
  NOTHING_TOLD,
  contextAdviceOf,
  contextFigureOf,
  figureAfterTurnOf,
  statusLineOf,
  withFigure,
  withStage,
} from '../../../packages/compact-handoff/hooks/status-line/status-line.js'

describe('contextFigureOf', () => {
  test('the hint begins ten points below the nudge', () => {
    expect(HINT_POINTS).toBe(10)
    expect(contextFigureOf(59.9, 70)).toEqual(NO_FIGURE)
    expect(contextFigureOf(60, 70)).toEqual({ kind: 'hint', percent: 60 })
  })

  test('is urgent from the nudge on, measured unrounded as the nudge measures it', () => {
    expect(contextFigureOf(69.6, 70)).toEqual({ kind: 'hint', percent: 70 })
    expect(contextFigureOf(70, 70)).toEqual({ kind: 'urgent', percent: 70 })
    expect(contextFigureOf(99.7, 70)).toEqual({ kind: 'urgent', percent: 100 })
  })

  test('is none with no percent (a fresh window) or a percent that is no number', () => {
    for (const percent of [undefined, Number.NaN, Number.POSITIVE_INFINITY]) expect(contextFigureOf(percent, 70)).toEqual(NO_FIGURE)
  })
})

describe('statusLineOf', () => {
  const URGENT = withFigure(NOTHING_TOLD, contextFigureOf(72, 70))

  test('says nothing when told nothing', () => {
    expect(statusLineOf(NOTHING_TOLD)).toBeUndefined()
  })

  test('shows the hint and the urgent figure', () => {
    expect(statusLineOf(withFigure(NOTHING_TOLD, contextFigureOf(62, 70)))).toBe('handoff: context 62%')
    expect(statusLineOf(URGENT)).toBe('handoff: context 72% · time for /compact-handoff')
  })

  test("puts the run's stage over the figure, and the figure back once the stage is gone", () => {
    const running = withStage(URGENT, 'replacing the conversation')
    expect(statusLineOf(running)).toBe('handoff: replacing the conversation')
    expect(statusLineOf(withStage(running, undefined))).toBe('handoff: context 72% · time for /compact-handoff')
  })

  test('a cleared figure leaves the stage alone', () => {
    const running = withStage(URGENT, 'replacing the conversation')
    expect(statusLineOf(withFigure(running, NO_FIGURE))).toBe('handoff: replacing the conversation')
    expect(statusLineOf(withStage(withFigure(running, NO_FIGURE), undefined))).toBeUndefined()
  })
})

describe('withStage and withFigure', () => {
  test('give back the same object when nothing changed, so nothing is written', () => {
    const hint = withFigure(NOTHING_TOLD, { kind: 'hint', percent: 62 })
    expect(withFigure(hint, { kind: 'hint', percent: 62 })).toBe(hint)
    expect(withFigure(NOTHING_TOLD, NO_FIGURE)).toBe(NOTHING_TOLD)
    expect(withStage(NOTHING_TOLD, undefined)).toBe(NOTHING_TOLD)
    const running = withStage(hint, 'writing')
    expect(withStage(running, 'writing')).toBe(running)
  })

  test('give back a new object on a change', () => {
    const hint = withFigure(NOTHING_TOLD, { kind: 'hint', percent: 62 })
    expect(withFigure(hint, { kind: 'hint', percent: 63 })).not.toBe(hint)
    expect(withFigure(hint, { kind: 'urgent', percent: 62 })).not.toBe(hint)
    expect(withFigure(hint, NO_FIGURE)).toEqual(NOTHING_TOLD)
  })
})

describe('a full context (a request refused as too long)', () => {
  test('advises /compact, never /compact-handoff, whose skill turn would be refused too', () => {
    expect(statusLineOf(withFigure(NOTHING_TOLD, FULL_FIGURE))).toBe('handoff: context full · /compact to go on')
    expect(contextAdviceOf(FULL_FIGURE)).not.toMatch(/compact-handoff/)
    expect(contextAdviceOf({ kind: 'urgent', percent: 72 })).toBe('context 72% · time for /compact-handoff')
  })

  test('stands until a turn is answered, whatever percent a failed turn leaves', () => {
    expect(figureAfterTurnOf(FULL_FIGURE, 72, 70, false)).toBe(FULL_FIGURE)
    expect(figureAfterTurnOf(FULL_FIGURE, 72, 70, true)).toEqual({ kind: 'urgent', percent: 72 })
    expect(figureAfterTurnOf({ kind: 'hint', percent: 62 }, 72, 70, false)).toEqual({ kind: 'urgent', percent: 72 })
  })

  test('telling it twice writes nothing', () => {
    const full = withFigure(NOTHING_TOLD, FULL_FIGURE)
    expect(withFigure(full, FULL_FIGURE)).toBe(full)
    expect(withFigure(full, NO_FIGURE)).toEqual(NOTHING_TOLD)
  })
})
