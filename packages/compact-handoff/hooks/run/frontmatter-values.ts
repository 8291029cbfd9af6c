// The frontmatter values code writes, which the model cannot know: when the
// handoff was created (the model has no clock unless it runs one) and where it
// sits in its chain. The skill is told them and copies them (protocol.ts
// SkillValues); a fork's file is written with them (fork-handoff.ts).
import { NEW_CHAIN, type SkillValues } from '../protocol/protocol.js'
import { NO_PARENT } from '../protocol/protocol-contents.js'
import { frontmatterOf } from '../format/frontmatter.js'
import { ownTextOf, type CheckedLastHandoff } from '../stub/swap-text.js'

/** ISO 8601 in UTC to the second, the form the skills write. */
export function createdValueOf(nowMs: number): string {
  return `${new Date(nowMs).toISOString().slice(0, 19)}Z`
}

const POSITIVE_INT_RE = /^[1-9]\d{0,8}$/

/** Where a new handoff sits in its chain. The parent is this session's last
 * swap, resume or fork's handoff, when its file is the person's own now and
 * says where in its chain it stands; otherwise a new chain starts. A
 * stranger's file never hands its chain on: a later resume would name that
 * chain's plan as the person's. */
export type ChainValues = Pick<SkillValues, 'chain' | 'seq' | 'parent'>

export function chainValuesOf(lastHandoff: CheckedLastHandoff): ChainValues {
  const first = { chain: NEW_CHAIN, seq: 1, parent: NO_PARENT }
  if (lastHandoff.kind !== 'handoff') return first
  const parentText = ownTextOf(lastHandoff.handoff)
  if (parentText === undefined) return first
  const fields = frontmatterOf(parentText)
  const chain = fields?.get('chain')
  const seq = fields?.get('seq') ?? ''
  if (chain === undefined || chain === '' || !POSITIVE_INT_RE.test(seq)) return first
  return { chain, seq: Number(seq) + 1, parent: lastHandoff.handoff.relPath }
}
