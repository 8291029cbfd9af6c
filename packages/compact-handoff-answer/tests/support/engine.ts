// The engine beneath the plugins for this mod's kit tests. Not a test file:
// `claude plugin test` runs every *.test.ts it finds.
import type { On, SessionCompactInput, SessionMessage } from 'claude-code'

export const ENGINE_SUMMARY: SessionMessage = { role: 'user', text: 'summary written by the engine', toolUses: [] }

/** Stands in for core beneath every plugin: records each compaction that
 * reaches it and answers with a summary the mod never produces, or with
 * `{ skip }` when given one. */
export function engine(on: On, options: { skip?: string } = {}): { reached: SessionCompactInput[] } {
  const reached: SessionCompactInput[] = []
  on('session.compact', (_$, e) => {
    reached.push(e)
    return options.skip === undefined ? { messages: [ENGINE_SUMMARY] } : { skip: options.skip }
  })
  return { reached }
}
