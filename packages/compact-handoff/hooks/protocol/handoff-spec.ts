// The handoff spec: the one definition of a handoff's shape. Its sections, in
// their order, what each holds, and how many there are. Everything that can is
// built from it (the fork's prompt, the summariser's outline, both format
// checks, the scripted good handoffs of the tests); the files other tools read
// (the fixtures, the eval cases' section grader, the fork eval's prompts) are
// written from it by `pnpm gen` (tests/harness/generated.ts); what is prose
// (the skills' Markdown, the eval histories, the READMEs' counts) is held to it
// by tests/contract/handoff-spec.test.ts, which names the file to change.

/** Section headings (level 2, in this order) every handoff has, each with what
 * it holds in a phrase: the wording the fork's prompt and the summariser's
 * outline both use. A section with nothing to say holds "None". */
export const HANDOFF_SPEC = [
  { name: 'Goal', holds: 'what the user wants and what "done" looks like, in their words' },
  { name: 'Constraints', holds: "every standing instruction of the user's still in force, copied verbatim" },
  { name: 'State', holds: 'what is done, each item marked [verified] (with the command and its result) or [unverified]' },
  { name: 'In progress', holds: 'the exact step under way and what is half done' },
  { name: 'Tried and ruled out', holds: 'what failed, why, and the exact error' },
  { name: 'Decisions', holds: 'what was chosen, what was turned down, and why' },
  { name: 'Open questions', holds: 'questions for the user, and promises not yet kept' },
  { name: 'Files', holds: 'the files to reopen first (at most five), then the others changed' },
  { name: 'Next step', holds: 'one concrete action' },
  { name: 'Verify', holds: 'commands that change nothing, each with the result expected' },
] as const

export type HandoffSection = (typeof HANDOFF_SPEC)[number]['name']

export const HANDOFF_SECTIONS: readonly HandoffSection[] = HANDOFF_SPEC.map((section) => section.name)

export const HANDOFF_SECTION_HOLDS: Readonly<Record<HandoffSection, string>> = Object.fromEntries(
  HANDOFF_SPEC.map((section) => [section.name, section.holds]),
) as Record<HandoffSection, string>

/** "ten": how many sections a handoff has, as the fork's prompt, the skills
 * and the READMEs say it (tests/compact-handoff/protocol holds it to the spec). */
export const HANDOFF_SECTION_COUNT_WORD = 'ten'
