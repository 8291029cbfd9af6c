// Which of the engine's compactions a fork answers, under each value of option
// compactionHandoff, and where the main loop stood when the engine compacted.
import { describe, expect, test } from 'vitest'
import { PRECOMPUTE_SKIP, compactionRouteOf, turnPositionOf } from '../../../packages/compact-handoff/hooks/compaction/engine-compaction.js'
import { COMPACTION_HANDOFF_VALUES } from '../../../packages/compact-handoff/hooks/options/options.js'

const OPTIONS = COMPACTION_HANDOFF_VALUES
const PENDING_KINDS = ['launching', 'writing', 'checking', 'reviewed', 'swapping', 'a-kind-added-later']

describe('compactionRouteOf', () => {
  test('an automatic compaction is forked under auto and all, summarised under off', () => {
    expect(compactionRouteOf({ trigger: 'auto' }, 'auto', 'idle')).toEqual({ kind: 'fork', trigger: 'auto', focus: '' })
    expect(compactionRouteOf({ trigger: 'auto' }, 'all', 'idle')).toEqual({ kind: 'fork', trigger: 'auto', focus: '' })
    expect(compactionRouteOf({ trigger: 'auto' }, 'off', 'idle')).toEqual({ kind: 'summary' })
  })

  test("a /compact is forked under all only, its words the focus; under auto and off it is summarised", () => {
    const slash = { trigger: 'manual', instructions: '  keep the benchmarks \n' }
    expect(compactionRouteOf(slash, 'all', 'idle')).toEqual({ kind: 'fork', trigger: 'manual', focus: 'keep the benchmarks' })
    expect(compactionRouteOf({ trigger: 'manual' }, 'all', 'idle')).toEqual({ kind: 'fork', trigger: 'manual', focus: '' })
    expect(compactionRouteOf(slash, 'auto', 'idle')).toEqual({ kind: 'summary' })
    expect(compactionRouteOf(slash, 'off', 'idle')).toEqual({ kind: 'summary' })
  })

  test('while a handoff run is under way, nothing is forked: the engine summarises', () => {
    for (const runKind of PENDING_KINDS.filter((kind) => kind !== 'writing')) {
      for (const option of OPTIONS) {
        expect(compactionRouteOf({ trigger: 'auto' }, option, runKind), `${option} ${runKind}`).toEqual({ kind: 'summary' })
        expect(compactionRouteOf({ trigger: 'manual', instructions: 'x' }, option, runKind), `${option} ${runKind}`).toEqual({ kind: 'summary' })
      }
    }
  })

  test("an automatic compaction while the skill writes is the run's edge, under every option; a /compact then is summarised", () => {
    for (const option of OPTIONS) {
      expect(compactionRouteOf({ trigger: 'auto' }, option, 'writing'), option).toEqual({ kind: 'run-edge' })
      expect(compactionRouteOf({ trigger: 'manual', instructions: 'x' }, option, 'writing'), option).toEqual({ kind: 'summary' })
      expect(compactionRouteOf({ trigger: 'auto', agentId: 'a1' }, option, 'writing'), `${option}: a subagent's own`).toEqual({ kind: 'pass' })
    }
  })

  test('a precompute is vetoed whenever a fork answers the automatic compaction, and left alone under off', () => {
    expect(compactionRouteOf({ trigger: 'precompute' }, 'auto', 'idle')).toEqual({ kind: 'veto', skip: PRECOMPUTE_SKIP })
    expect(compactionRouteOf({ trigger: 'precompute' }, 'all', 'writing')).toEqual({ kind: 'veto', skip: PRECOMPUTE_SKIP })
    expect(compactionRouteOf({ trigger: 'precompute' }, 'off', 'idle')).toEqual({ kind: 'pass' })
    expect(compactionRouteOf({ trigger: 'precompute' }, 'off', 'writing'), "the answer mod's veto decides then").toEqual({ kind: 'pass' })
  })

  test("a subagent's or fork's own compaction passes, whatever its trigger and the option", () => {
    for (const trigger of ['auto', 'manual', 'precompute', 'plugin', undefined]) {
      for (const option of OPTIONS) expect(compactionRouteOf({ trigger, agentId: 'agent-1' }, option, 'idle'), `${trigger} ${option}`).toEqual({ kind: 'pass' })
    }
  })

  test("a plugin's compaction, and a trigger this build does not know, pass", () => {
    for (const option of OPTIONS) {
      expect(compactionRouteOf({ trigger: 'plugin', instructions: 'keep it' }, option, 'idle')).toEqual({ kind: 'pass' })
      expect(compactionRouteOf({}, option, 'idle')).toEqual({ kind: 'pass' })
      expect(compactionRouteOf({ trigger: 'scheduled' }, option, 'idle')).toEqual({ kind: 'pass' })
    }
  })
})

const user = (text: string) => ({ role: 'user' as const, text, toolUses: [] })
const assistant = (text: string) => ({ role: 'assistant' as const, text, toolUses: [] })
const toolResults = { role: 'user' as const, text: '', toolUses: [], toolResults: [{ tool_use_id: 't1', text: 'ok', isError: false }] }

describe('turnPositionOf', () => {
  test('a prompt just typed is the last message, and is kept by its index', () => {
    expect(turnPositionOf([user('Fix it.'), assistant('Done.'), user('Now the tests.')], 'auto')).toEqual({ kind: 'typed-prompt', index: 2 })
  })

  test('tool results on their way back, or the model having spoken last, is the middle of a turn', () => {
    expect(turnPositionOf([user('Fix it.'), assistant('Reading.'), toolResults], 'auto')).toEqual({ kind: 'mid-turn' })
    expect(turnPositionOf([user('Fix it.'), assistant('Reading.')], 'auto')).toEqual({ kind: 'mid-turn' })
  })

  test('an empty transcript is between turns', () => {
    expect(turnPositionOf([], 'auto')).toEqual({ kind: 'between-turns' })
  })

  test('a /compact runs between turns, whatever the last message is', () => {
    expect(turnPositionOf([user('Fix it.'), assistant('Done.')], 'manual')).toEqual({ kind: 'between-turns' })
    expect(turnPositionOf([user('Fix it.')], 'manual')).toEqual({ kind: 'between-turns' })
  })

  test('an empty tool-result list is no tool result: the message is a typed prompt', () => {
    expect(turnPositionOf([{ ...user('Go on.'), toolResults: [] }], 'auto')).toEqual({ kind: 'typed-prompt', index: 0 })
  })
})
