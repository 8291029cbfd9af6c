// The handoff's section outline, handed to the engine's summariser when it
// compacts the main loop instead of compact-handoff, so that even a summary
// comes out in the shape the next context knows from a handoff. A hooks module
// reaches only its own files, so the section names restate compact-handoff's
// protocol-contents.ts HANDOFF_SECTIONS; tests/compact-handoff-answer/answer-outline.test.ts holds them equal.
// Pure and free of 'claude-code' so vitest can load it under Node.

/** Each section of a handoff, in order, with what the summary puts under it. */
export const OUTLINE_SECTIONS = [
  ['Goal', 'what the user wants and what "done" looks like, in their words'],
  ['Constraints', "every standing instruction of the user's still in force, copied verbatim"],
  ['State', 'what is done, each item marked [verified] (with the command and its result) or [unverified]'],
  ['In progress', 'the exact step under way and what is half done'],
  ['Tried and ruled out', 'what failed, why, and the exact error'],
  ['Decisions', 'what was chosen, what was turned down, and why'],
  ['Open questions', 'questions for the user, and promises not yet kept'],
  ['Files', 'the files to reopen first (at most five), then the others changed'],
  ['Next step', 'one concrete action'],
  ['Verify', 'commands that change nothing, each with the result expected'],
] as const

/** The outline as one block of the instructions: one line per section. */
export const OUTLINE = [
  'Write the summary in the shape of a compact-handoff handoff, these sections in this order, each under its own "## " heading:',
  ...OUTLINE_SECTIONS.map(([name, what]) => `## ${name}: ${what}.`),
].join('\n')
