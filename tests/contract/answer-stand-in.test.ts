// compact-handoff's kit tests answer its swap with an inline stand-in for
// compact-handoff-answer (packages/compact-handoff/tests/support/answer-stand-in.ts):
// a kit test cannot load the partner mod, and an inline plugin must be
// self-contained, so the stand-in restates the answer mod's decision. This
// test runs the stand-in's own register over the same compactions as the real
// decision (route.ts routeOf and precomputeSkipOf, applied as its register.ts
// applies them) and fails where the two differ, so the kit never passes a swap
// the real answer mod would leave to the engine. It also holds the state key
// both mods name for compact-handoff's run.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { precomputeSkipOf, routeOf } from '../../packages/compact-handoff-answer/hooks/answer/route.js'
import type { RunView } from '../../packages/compact-handoff-answer/hooks/partner/run-view.js'
import { MARKER } from '../../packages/compact-handoff/hooks/protocol/protocol.js'

const ROOT = join(import.meta.dirname, '..', '..')
// Loaded by path: the stand-in is typed against the engine's declarations,
// which only the mods' own type-check programs hold.
const STAND_IN_PATH = join(ROOT, 'packages/compact-handoff/tests/support/answer-stand-in.ts')

type StateRef = { plugin: string; key: string }
type Compaction = { trigger?: string; agentId?: string; instructions?: string }
type Handler = (
  $: { state: { get(ref: StateRef): Promise<{ value: unknown; version: number }> } },
  e: Compaction,
  next: ((e: Compaction) => unknown) & { origin: { plugin: string } },
) => Promise<unknown>

/** The `plugin` and `key` of every state atom a hooks file declares. */
function atomRefsOf(relPath: string): StateRef[] {
  const text = readFileSync(join(ROOT, relPath), 'utf8')
  return [...text.matchAll(/atom\(\{ plugin: '([^']+)', key: '([^']+)' \}/g)].map((m) => ({ plugin: m[1]!, key: m[2]! }))
}

const [RUN_REF] = atomRefsOf('packages/compact-handoff-answer/hooks/partner/partner-state.ts')

async function standInHandler(): Promise<Handler> {
  const { ANSWER_STAND_IN } = (await import(STAND_IN_PATH)) as { ANSWER_STAND_IN: { register(on: (event: string, handler: Handler) => void): void } }
  const handlers: Handler[] = []
  ANSWER_STAND_IN.register((event, handler) => {
    expect(event).toBe('session.compact')
    handlers.push(handler)
  })
  expect(handlers).toHaveLength(1)
  return handlers[0]!
}

const PASSED = 'passed to the engine'

function nextFrom(raisedBy: string) {
  return Object.assign((e: Compaction) => ({ [PASSED]: e }), { origin: { plugin: raisedBy } })
}

/** What compact-handoff-answer's register.ts returns for a compaction. */
function realAnswerOf(e: Compaction, raisedBy: string, run: RunView): unknown {
  const next = nextFrom(raisedBy)
  const route = routeOf(e, raisedBy, run)
  if (route.kind === 'answer') return { messages: [{ role: 'user', text: route.stub, toolUses: [] }] }
  if (route.kind === 'precompute') {
    const skip = precomputeSkipOf(run)
    return skip === undefined ? next(e) : { skip }
  }
  return next(e)
}

/** What the stand-in returns for the same compaction, with `run` stored under
 * the answer mod's key (and nothing under any other). */
async function standInAnswerOf(handler: Handler, e: Compaction, raisedBy: string, run: RunView | undefined): Promise<unknown> {
  const $ = {
    state: {
      get: async (ref: StateRef) => ({ value: ref.plugin === RUN_REF!.plugin && ref.key === RUN_REF!.key ? run : undefined, version: 1 }),
    },
  }
  return handler($, e, nextFrom(raisedBy))
}

const TRIGGERS = [undefined, 'plugin', 'manual', 'auto', 'precompute']
const AGENTS = [undefined, 'agent-1']
const INSTRUCTIONS = [
  undefined,
  '',
  `${MARKER}\nthe stub`,
  `${MARKER}\r\nthe stub\r\nits second line`,
  `${MARKER}\n  indented stub`,
  `${MARKER}\n`,
  `${MARKER}\r\n`,
  `${MARKER}\n  \n\t`,
  MARKER,
  `${MARKER} and more\nthe stub`,
  ` ${MARKER}\nthe stub`,
  `${MARKER}\r\r\nthe stub`,
  `\n${MARKER}\nthe stub`,
  'keep the parser notes\nand the plan',
  'compact-handoff:v2\nthe stub',
]
const RAISERS = ['compact-handoff', 'sender']
const RUNS: (RunView | undefined)[] = [undefined, { kind: 'idle' }, { kind: 'writing' }, { kind: 'swapping', isCompacting: false }, { kind: 'swapping', isCompacting: true }]

describe("the kit's answer stand-in", () => {
  test("reads compact-handoff's run under the key compact-handoff writes it", () => {
    expect(RUN_REF, 'the answer mod declares one atom: the run it reads').toEqual({ plugin: 'compact-handoff', key: 'run' })
    expect(atomRefsOf('packages/compact-handoff/hooks/run/run-state.ts')).toContainEqual(RUN_REF)
  })

  test('answers, vetoes and passes exactly the compactions the real answer mod does', async () => {
    const handler = await standInHandler()
    let answered = 0
    for (const trigger of TRIGGERS) {
      for (const agentId of AGENTS) {
        for (const instructions of INSTRUCTIONS) {
          for (const raisedBy of RAISERS) {
            for (const run of RUNS) {
              const e: Compaction = { trigger, agentId, instructions }
              const real = realAnswerOf(e, raisedBy, run ?? { kind: 'idle' })
              if (typeof real === 'object' && real !== null && 'messages' in real) answered++
              expect(await standInAnswerOf(handler, e, raisedBy, run), JSON.stringify({ e, raisedBy, run })).toEqual(real)
            }
          }
        }
      }
    }
    // The cases reach every route, answers included.
    expect(answered).toBeGreaterThan(0)
  })
})
