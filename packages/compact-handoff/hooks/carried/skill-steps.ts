// Records each skill as the engine expands it for the model (`skill.prompt`),
// and reads the skills a stub carries (skills.ts decides): the recorded ones,
// plus any the transcript shows loaded before this mod recorded them, kept
// from then on so a later swap still carries them.
import type { EngineInterface } from 'claude-code'
import { isOwnSkill, MAX_SKILL_CHARS, skillsInMessages, withRecovered, withSkillsLoaded, type InvokedSkills } from './skills.js'
import { changeHeldSkills, readHeldSkills, readSkills, updateSkills } from './carried-state.js'
import { maskedText } from '../text/mask-steps.js'
import { headOf } from '../text/text-clip.js'

/** Masked past the kept length by this much, so a credential the cut reaches is
 * still whole where the masking looks; the engine's masking is then asked about
 * a bounded text, however huge the skill. */
const MASK_MARGIN_CHARS = 2_000

/** A skill's text masked as kept: the head the record keeps, and the margin. */
function maskedSkillText($: $, text: string): Promise<string> {
  return maskedText($, headOf(text, MAX_SKILL_CHARS + MASK_MARGIN_CHARS))
}

type $ = EngineInterface

/** A skill's text as the model reads it (`skill.prompt`'s result), masked
 * before it is kept; compact-handoff's own handoff runs are never recorded. */
export async function recordSkill($: $, load: { skill: string; pluginName?: string }, text: string): Promise<void> {
  if (isOwnSkill(load)) return
  const [masked, held] = await Promise.all([maskedSkillText($, text), readHeldSkills($)])
  await changeHeldSkills($, held, (skills) => withSkillsLoaded(skills, [{ name: load.skill, text: masked }]))
}

/** The skills a stub carries now. Costs one transcript read; the recovered
 * ones are masked and recorded, since the next stub replaces the transcript.
 * `stubOpening` (swap-text.ts STUB_OPENING) tells our own stubs apart. */
export async function skillsNow($: $, stubOpening: string): Promise<InvokedSkills> {
  const [messages, recorded] = await Promise.all([$.session.messages().catch(() => []), readSkills($)])
  const known = new Set(recorded.skills.map((s) => s.name))
  const found = skillsInMessages(Array.isArray(messages) ? messages : [], stubOpening).filter((s) => !known.has(s.name))
  if (found.length === 0) return recorded
  const texts = await Promise.all(found.map((s) => maskedSkillText($, s.text)))
  const recovered = found.map((s, i) => ({ name: s.name, text: texts[i] ?? '' }))
  let carried = recorded
  await updateSkills($, (skills) => (carried = withRecovered(skills, recovered)))
  return carried
}
