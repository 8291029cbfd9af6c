// Whether the conversation is known not to fit one more request: the last
// main-loop request was refused as too long in this window, or the engine's
// usage already fills the window. A fork carries the whole conversation, so
// there it would be refused the same way (2.1.332, live: 400
// invalid_request_error "prompt is too long: N tokens > M maximum"). Kept in
// `$.state` per window; a new window forgets it (window-steps.ts).

/** The refusal of this window's main-loop request as too long, when one came. */
export type WindowEdge = { kind: 'unrefused' } | { kind: 'refused' }

export const UNREFUSED: WindowEdge = { kind: 'unrefused' }
export const REFUSED: WindowEdge = { kind: 'refused' }

/** The words the API's refusal of a prompt past the window carries, and the
 * engine's own at the turn's end ("Context limit reached"). */
const TOO_LONG_RE = /too long|context limit/i
/** An error's details are matched on this many characters at most: linear, and enough for the API's sentence. */
const MAX_DETAIL_CHARS = 2_000

/** Whether a main-loop turn's failure (classic StopFailure's `error` and
 * `error_details`) was the API refusing the request for its length: an
 * invalid request whose details, when it has any, say so. */
export function isTooLongFailureOf(error: string, details: string | undefined): boolean {
  if (error !== 'invalid_request') return false
  return details === undefined || TOO_LONG_RE.test(details.slice(0, MAX_DETAIL_CHARS))
}

/** The context's use as `$.session.usage()` reports it. */
export type ContextUse = { tokens?: number; window: number; percent?: number }

/** Whether the conversation is known not to fit one more request: the
 * window's request was refused, or the usage fills the window already. An
 * unknown usage says nothing. */
export function isKnownNotToFitOf(edge: WindowEdge, use: ContextUse | undefined): boolean {
  if (edge.kind === 'refused') return true
  if (use === undefined) return false
  return (use.percent ?? 0) >= 100 || (use.tokens !== undefined && use.tokens >= use.window)
}
