// What the resume and offer kit tests share. Not a test file: `claude plugin
// test` runs every *.test.ts it finds.
import { CWD, type World } from './world.js'
import { handoffText } from './texts.js'

export const DIR = '.claude/handoffs'
export const HOUR_MS = 3_600_000
/** The kit's clock starts at 1,000,000 ms (world.ts); files are stamped relative to it. */
export const NOW_MS = 1_000_000

export function withHandoffStatus(status: string, nextStep = 'Make recoverFrom() handle a closing brace, then run the parser suite.'): string {
  return handoffText().replace('status: in-progress', `status: ${status}`).replace(/## Next step\n[^\n]*\n/, `## Next step\n${nextStep}\n`)
}

/** Handoffs put on the fake disk from elsewhere (unpacked, cloned, copied):
 * no Write the mod heard wrote them. Each is `ageMs` old (negative: stamped in the future). */
export function placeOnDisk(w: World, files: { name: string; status: string; ageMs: number; next?: string }[]) {
  for (const f of files) w.files.set(`${CWD}/${DIR}/${f.name}`, { text: withHandoffStatus(f.status, f.next), mtimeMs: NOW_MS - f.ageMs })
}

export async function settle(w: World) {
  await w.clock.advance(0)
  await w.clock.settle()
}

/** The offer runs from a timer and hashes the file with crypto.subtle, whose
 * answer arrives from outside the kit's event loop: settled again, a bounded
 * number of times, until one more offer is seen (or surely is not coming). */
export async function settleOffer(w: World) {
  const offers = () => w.seen.toasts.filter((t) => t.includes('picks up your handoff of')).length
  const before = offers()
  for (let i = 0; i < OFFER_SETTLES && offers() === before; i++) await settle(w)
}
const OFFER_SETTLES = 400
