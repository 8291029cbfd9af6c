// Records each skill as the engine expands it for the model (`skill.prompt`),
// and reads the skills a stub carries (skills.ts decides): the recorded ones,
// plus any the transcript shows loaded before this mod recorded them, kept
// from then on so a later swap still carries them. The skills live in
// `$.state`; the engine lists what a module reads and writes by scanning each
// read/update for an atom declared in the same file, so every access is here.
import { atom, read, update, type EngineInterface } from 'claude-code'
import { isOwnSkill, MAX_SKILL_CHARS, NO_SKILLS, skillsInMessages, withRecovered, withSkillsLoaded, type InvokedSkills } from './skills.js'
import { maskedText } from '../text/mask-steps.js'
import { headOf } from '../text/text-clip.js'
import { changeHeld, heldOf } from '../state/held.js'

type $ = EngineInterface

const skillsAtom = atom({ plugin: 'compact-handoff', key: 'skills' } as const, NO_SKILLS)

// The same value, read with its version beside the masking of a skill as it
// loads and written back with a compare-and-set: one hop for both, not two.
const SKILLS_REF = { plugin: 'compact-handoff', key: 'skills' } as const

/** Masked past the kept length by this much, so a credential the cut reaches is
 * still whole where the masking looks; the engine's masking is then asked about
 * a bounded text, however huge the skill. */
const MASK_MARGIN_CHARS = 2_000

/** A skill's text masked as kept: the head the record keeps, and the margin. */
function maskedSkillText($: $, text: string): Promise<string> {
  return maskedText($, headOf(text, MAX_SKILL_CHARS + MASK_MARGIN_CHARS))
}

/** A skill's text as the model reads it (`skill.prompt`'s result), masked
 * before it is kept; compact-handoff's own handoff runs are never recorded. */
export async function recordSkill($: $, load: { skill: string; pluginName?: string }, text: string): Promise<void> {
  if (isOwnSkill(load)) return
  const [masked, read] = await Promise.all([maskedSkillText($, text), $.state.get(SKILLS_REF)])
  const change = (skills: InvokedSkills): InvokedSkills => withSkillsLoaded(skills, [{ name: load.skill, text: masked }])
  await changeHeld(heldOf(read, NO_SKILLS), change, (skills, ifVersion) => $.state.set(SKILLS_REF, skills, { ifVersion }), () => update($, skillsAtom, change))
}

/** The skills a stub carries now. Costs one transcript read; the recovered
 * ones are masked and recorded, since the next stub replaces the transcript.
 * `stubOpening` (swap-text.ts STUB_OPENING) tells our own stubs apart. */
export async function skillsNow($: $, stubOpening: string): Promise<InvokedSkills> {
  const [messages, recorded] = await Promise.all([$.session.messages().catch(() => []), read($, skillsAtom)])
  const known = new Set(recorded.skills.map((s) => s.name))
  const found = skillsInMessages(messages, stubOpening).filter((s) => !known.has(s.name))
  if (found.length === 0) return recorded
  const texts = await Promise.all(found.map((s) => maskedSkillText($, s.text)))
  const recovered = found.map((s, i) => ({ name: s.name, text: texts[i] ?? '' }))
  let carried = recorded
  await update($, skillsAtom, (skills) => (carried = withRecovered(skills, recovered)))
  return carried
}
