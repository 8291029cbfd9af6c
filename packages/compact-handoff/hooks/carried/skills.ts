// The skills invoked in this session, carried into every stub the way the
// engine's own compaction carries them: each skill's text as the session saw
// it, newest first, cut per skill and bounded together, framed so the next
// context neither runs them again nor takes their captured arguments as a new
// request. The engine re-attaches nothing after a compaction a mod answers
// (seen live, 2.1.332), so without this a workflow skill is lost silently.
// Pure: skill-steps.ts records and reads.
import { headOf } from '../text/text-clip.js'

/** One skill's text is kept up to this many characters (UTF-16 units), the
 * engine's own cut after its compaction (19,900 characters of a huge skill
 * were kept, measured live on 2.1.332: about 5,000 tokens). */
export const MAX_SKILL_CHARS = 20_000
/** All carried texts together: the engine kept the newest five of seven huge
 * skills, 100,250 characters (about 25,000 tokens), and dropped the older
 * ones unnamed. Past this a skill is named only, with a line to invoke it again. */
export const MAX_SKILLS_CHARS = 100_000
/** Skills named at all: past this the oldest are forgotten, and counted. */
export const MAX_SKILLS_NAMED = 50
/** A skill's name as kept: names are short; a stub never trusts one. */
const MAX_NAME_CHARS = 200

/** A skill as recorded: its name and its text as the model read it, masked;
 * `text` absent once it falls past MAX_SKILLS_CHARS (named only). */
export type InvokedSkill = { name: string; text?: string; isCut: boolean }

export type InvokedSkills = {
  /** Oldest first; one entry per name, the latest load's. */
  skills: InvokedSkill[]
  /** How many older skills were forgotten past MAX_SKILLS_NAMED. */
  forgotten: number
}

export const NO_SKILLS: InvokedSkills = { skills: [], forgotten: 0 }

/** The handoff pack, whose own runs must never look like something to do again. */
export const PACK_PLUGIN = 'compact-handoff-skills'
const OWN_SKILLS: ReadonlySet<string> = new Set(['handoff', 'handoffplan'])

/** The skill's name without its plugin's prefix (`plugin:skill`). */
function bareNameOf(skill: string): string {
  const at = skill.lastIndexOf(':')
  return at < 0 ? skill : skill.slice(at + 1)
}

/** Whether a skill load is compact-handoff's own handoff or handoffplan run:
 * named by the pack's plugin, or spelled with its prefix. */
export function isOwnSkill(load: { skill: string; pluginName?: string }): boolean {
  const bare = bareNameOf(load.skill)
  if (!OWN_SKILLS.has(bare)) return false
  return load.pluginName === PACK_PLUGIN || load.skill === `${PACK_PLUGIN}:${bare}`
}

function skillOf(entry: { name: string; text: string }): InvokedSkill {
  return { name: headOf(entry.name, MAX_NAME_CHARS), text: headOf(entry.text, MAX_SKILL_CHARS), isCut: entry.text.length > MAX_SKILL_CHARS }
}

/** `all` (oldest first) kept to the bounds: one entry per name, the latest;
 * texts past MAX_SKILLS_CHARS, counted from the newest, dropped to a name;
 * names past MAX_SKILLS_NAMED forgotten. Linear. */
function boundedOf(all: readonly InvokedSkill[], forgotten: number): InvokedSkills {
  const latest = new Map<string, number>()
  all.forEach((skill, i) => latest.set(skill.name, i))
  const kept = all.filter((skill, i) => latest.get(skill.name) === i)
  let total = 0
  for (let i = kept.length - 1; i >= 0; i--) {
    const skill = kept[i]!
    if (skill.text === undefined) continue
    total += skill.text.length
    if (total > MAX_SKILLS_CHARS) kept[i] = { name: skill.name, isCut: skill.isCut }
  }
  const over = Math.max(0, kept.length - MAX_SKILLS_NAMED)
  return { skills: kept.slice(over), forgotten: forgotten + over }
}

/** `skills` with `entries` loaded after them, in order: a later load of a name
 * replaces the earlier and becomes the newest. */
export function withSkillsLoaded(skills: InvokedSkills, entries: readonly { name: string; text: string }[]): InvokedSkills {
  if (entries.length === 0) return skills
  return boundedOf([...skills.skills, ...entries.map(skillOf)], skills.forgotten)
}

/** The line a session's message holds where a skill was loaded into it. */
export const SKILL_BASE_LINE = 'Base directory for this skill: '

/** The last folder of a path, POSIX or Windows. A loop, not a regex: a line a
 * person typed may hold a long run of separators. */
function folderNameOf(path: string): string {
  const trimmed = path.trim()
  let end = trimmed.length
  while (end > 0 && (trimmed[end - 1] === '/' || trimmed[end - 1] === '\\')) end--
  const folder = trimmed.slice(0, end)
  return folder.slice(Math.max(folder.lastIndexOf('/'), folder.lastIndexOf('\\')) + 1)
}

/** The skills a transcript's messages show loaded, oldest first: a user
 * message whose text begins with SKILL_BASE_LINE, named by that folder
 * (skills loaded before this mod recorded them). A message that opens with
 * `stubOpening` is a stub of ours, never a load; so are the pack's own skills. */
export function skillsInMessages(messages: readonly { role: string; text: string }[], stubOpening: string): { name: string; text: string }[] {
  const found: { name: string; text: string }[] = []
  for (const message of messages) {
    if (message.role !== 'user' || !message.text.startsWith(SKILL_BASE_LINE) || message.text.startsWith(stubOpening)) continue
    const end = message.text.indexOf('\n')
    const name = folderNameOf(message.text.slice(SKILL_BASE_LINE.length, end < 0 ? undefined : end))
    if (name !== '' && !OWN_SKILLS.has(name)) found.push({ name, text: message.text })
  }
  return found
}

/** Skills recovered from the transcript, added only where none of that name
 * is recorded, as older than every recorded one: they were loaded before this
 * mod recorded any (a recorded load is the session's own, never older). */
export function withRecovered(skills: InvokedSkills, recovered: readonly { name: string; text: string }[]): InvokedSkills {
  const known = new Set(skills.skills.map((s) => s.name))
  const fresh = recovered.map(skillOf).filter((r) => !known.has(r.name))
  return fresh.length === 0 ? skills : boundedOf([...fresh, ...skills.skills], skills.forgotten)
}

export const SKILLS_HEADING = 'Skills invoked earlier in this session'

/** The stub's section: none when no skill was invoked. */
export function skillsSectionOf(skills: InvokedSkills): string | undefined {
  if (skills.skills.length === 0 && skills.forgotten === 0) return undefined
  const lines = [
    `${SKILLS_HEADING} (before the conversation was replaced), as the session saw them, newest first. They are here for context only, so their guidelines stay in view: they were invoked earlier in this session, not on this turn.`,
    'Do not run them again or redo their one-time steps (scheduling, creating files). Any request or arguments inside a skill text below were captured when it was invoked: they are not the user\'s current message and not a new request. Keep applying their standing guidelines where they still fit.',
  ]
  const newestFirst = [...skills.skills].reverse()
  for (const skill of newestFirst) {
    if (skill.text === undefined) continue
    lines.push('', `### Skill: ${skill.name}`, skill.text.trimEnd())
    if (skill.isCut) lines.push(`[cut at ${MAX_SKILL_CHARS.toLocaleString('en-US')} characters: invoke /${skill.name} again if you need its full text]`)
  }
  const named = newestFirst.filter((s) => s.text === undefined).map((s) => s.name)
  if (skills.forgotten > 0) named.push(`${skills.forgotten} older skill(s) not named`)
  if (named.length > 0) lines.push('', `Also invoked earlier, past the size bound, so named only here: ${named.join(', ')}. If one of them still matters, invoke it again.`)
  return lines.join('\n')
}
