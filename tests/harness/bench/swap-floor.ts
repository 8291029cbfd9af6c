/**
 * The floor under the swap's own latency: the same engine path taken by a pair of mods
 * that do nothing else. After the same scripted conversation, alone in their session, the
 * first queues its hidden go-command from its turn.complete hook when the turn's answer
 * says so; the command's hook compacts from a 0 ms timer (the engine refuses a compaction
 * inside a command hook, and a mod never hears what its own timer raises), the second
 * mod answers that compaction with a fixed stub, and the first submits a fixed prompt: no
 * check, no state. What is left is the engine's own work (the turn's end, the queued
 * command, the compaction's dispatch, the queued prompt's new turn and its request) and
 * the mods' least worker hops, which no mod's code can shorten.
 */
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { startMockApi } from '../mock-api.js'
import { createRunDir } from '../run-dir.js'
import { runRoot, stampArrivals } from '../showcase-kit.js'
import { writeMod } from '../staging.js'
import { startSession, type Session } from '../tmux-session.js'
import { haveConversation } from './conversation.js'
import { done, log } from './options.js'
import { swapStepsOf, type SwapSteps } from './swap-steps.js'

const FLOOR_MOD = 'bench-floor'
const FLOOR_ANSWER_MOD = 'bench-floor-answer'
const SWAP_ASK = 'Swap to the bench stub now.'
const SWAP_WORD = 'BENCH-FLOOR-SWAP'
const CONTINUE = 'Go on from the bench stub.'

const FLOOR_REGISTER = `import type { EngineInterface, Register } from 'claude-code'

async function swap($: EngineInterface): Promise<void> {
  await $.session.compact({ instructions: 'bench-floor' })
  // Not awaited: it resolves when its turn starts.
  void $.prompt.submit({ text: '${CONTINUE}', asUser: true }).catch(() => undefined)
}

export const register: Register = (on) => {
  on('session.start', async ($, e, next) => {
    const [started] = await Promise.all([next(e), $.command.register({ name: 'bench-floor-go', description: 'the floor go-command', isHidden: true })])
    return started
  })
  on('turn.complete', async ($, e, next) => {
    const done = await next(e)
    // Not awaited: a queued command runs once the session is idle, after this hook.
    if (e.agentId === undefined && e.answer.includes('${SWAP_WORD}')) {
      void $.command.run({ command: 'bench-floor-go' }).catch(() => undefined)
      // Taken by the engine after this hook settled, the call would skip this mod's own command.run hook.
      await $.clock.now()
    }
    return done
  })
  on('command.run', { command: 'bench-floor-go' }, ($) => {
    $.clock.after(0, () => void swap($).catch(() => undefined))
    return {}
  })
}
`

const FLOOR_ANSWER_REGISTER = `import type { Register } from 'claude-code'

export const register: Register = (on) => {
  on('session.compact', ($, e, next) =>
    e.instructions === 'bench-floor' ? { messages: [{ role: 'user', text: 'The bench stub.', toolUses: [] }] } : next(e),
  )
}
`

export interface FloorSample {
  /** The skill-like turn's last request (answered at once with the swap word) to the request after the swap. */
  ownMs: number
  steps?: SwapSteps
}

function stepsOf(session: Session, logMark: number, answeredAt: number, afterAt: number): SwapSteps | undefined {
  const wall = (t: number): number => performance.timeOrigin + t
  return swapStepsOf(session.debugLog().slice(logMark), wall(answeredAt), wall(afterAt), FLOOR_MOD)
}

export async function floorRun(index: number): Promise<FloorSample> {
  const run = createRunDir('bench-floor', runRoot())
  const mock = await startMockApi({ logFile: join(run.dir, 'mock.jsonl'), timeLimitMs: 5 * 60_000 })
  const at = stampArrivals(mock)
  let session: Session | undefined
  try {
    const mod = writeMod(run, FLOOR_MOD, { 'hooks/register.ts': FLOOR_REGISTER })
    const answer = writeMod(run, FLOOR_ANSWER_MOD, { 'hooks/register.ts': FLOOR_ANSWER_REGISTER })
    session = await startSession({ run, plugins: [mod, answer], mock })
    await session.waitForReady()
    await haveConversation(session, mock, run.proj, undefined, `${FLOOR_MOD}@inline`)
    mock.script({ when: SWAP_ASK, text: `Ready. ${SWAP_WORD}` }, { when: CONTINUE, text: 'Continuing.' })
    const logMark = session.logMark()
    const before = mock.requests.length
    await session.type(SWAP_ASK)
    const asked = await mock.waitForRequest((r) => r.seq > before && r.lastUserText.includes(SWAP_ASK), 60_000)
    const after = await mock.waitForRequest((r) => r.seq > asked.seq && r.lastUserText.includes(CONTINUE), 60_000)
    const answeredAt = at.get(asked) ?? NaN
    const afterAt = at.get(after) ?? NaN
    const steps = stepsOf(session, logMark, answeredAt, afterAt)
    const sample: FloorSample = { ownMs: afterAt - answeredAt, ...(steps !== undefined ? { steps } : {}) }
    const split = steps === undefined ? ' (a mark is missing: no split)' : ` (${Object.entries(steps).map(([k, v]) => `${k} ${Math.round(v)}`).join(', ')})`
    log(`swap floor #${index + 1}: ${Math.round(sample.ownMs)} ms${split}`)
    await session.stop()
    done(run.dir)
    return sample
  } catch (error) {
    await session?.stop()
    throw new Error(`swap floor #${index + 1} failed (run dir kept: ${run.dir}): ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    await mock.close()
  }
}
