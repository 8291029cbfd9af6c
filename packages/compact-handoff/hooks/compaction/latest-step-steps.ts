// Masks the turn's latest step (latest-step.ts) with the engine's own rules
// before it reaches a stub: a command or a test's output can hold a token.
import type { EngineInterface } from 'claude-code'
import { latestStepOf, latestStepSectionOf, type LatestCall } from './latest-step.js'
import { maskedText } from '../text/mask-steps.js'

type $ = EngineInterface

type Messages = Parameters<typeof latestStepOf>[0]

/** The stub's section for the latest step of `messages`, masked, or undefined
 * when that step called no tool. */
export async function latestStepSectionNow($: $, messages: Messages): Promise<string | undefined> {
  const step = latestStepOf(messages)
  if (step === undefined) return undefined
  const calls = await Promise.all(
    step.calls.map(async (call): Promise<LatestCall> => {
      const [masked, resultEnd] = await Promise.all([maskedText($, call.call), call.resultEnd === '' ? '' : maskedText($, call.resultEnd)])
      return { ...call, call: masked, resultEnd }
    }),
  )
  return latestStepSectionOf({ ...step, calls })
}
