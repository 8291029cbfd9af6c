/**
 * Scripted model replies for a handoff skill turn, for driving a real session against the
 * mock API (tests/e2e, `pnpm demo`, `pnpm bench`): a Write tool_use that creates a valid
 * handoff file (and optionally a plan), then a final answer that ends with the
 * continue-prompt block and the sentinel line. The block and the sentinel are built with
 * the mod's own formatContinuePrompt/formatSentinel, and the file texts use the section
 * lists of handoff-spec.ts and protocol-contents.ts, so a protocol change shows up here rather than as a silent mismatch.
 *
 * Pure apart from path joins: no file system, no `$`.
 */
import { formatContinuePrompt, parseSkillArgs } from '../../packages/compact-handoff/tests/support/skill-protocol.js'
import { join } from 'node:path'
import { formatSentinel } from '../../packages/compact-handoff/hooks/protocol/protocol.js'
import { PLAN_SECTIONS } from '../../packages/compact-handoff/hooks/protocol/protocol-contents.js'
import { HANDOFF_SECTIONS, type HandoffSection } from '../../packages/compact-handoff/hooks/protocol/handoff-spec.js'
import { skillFallbackPromptOf } from '../../packages/compact-handoff/hooks/run/skill-command.js'
import type { ScriptedReply } from './mock-api.js'
import { carriesToolResult } from './request-messages.js'

export interface HandoffDoc {
  /** Short slug for the file names; lower-case words joined by dashes. */
  slug: string
  /** YYYY-MM-DD in the file names. */
  date: string
  /** Frontmatter `created`, ISO 8601 with a zone. */
  created: string
  focus: string
  /** The files the Files section names (its "Reopen first" list): the mod's facts call a
   * file changed this session "not in the handoff" when this list does not name it. */
  files: readonly string[]
}

/** The work `pnpm demo` scripts: binary operators went into src/parser.ts, error recovery
 * is next. The e2e suites reuse this handoff with their own slug, date and focus. */
const DEFAULT_DOC: HandoffDoc = {
  slug: 'parser-rewrite',
  date: '2026-11-29',
  created: '2026-11-29T14:05:00Z',
  focus: 'finish the parser',
  files: ['src/parser.ts', 'test/parser.test.ts', 'src/tokenizer.ts'],
}

function docOf(doc: Partial<HandoffDoc> = {}): HandoffDoc {
  return { ...DEFAULT_DOC, ...doc }
}

/** `plans/handoffs/HANDOFF_<slug>_<date>.md`-style paths relative to the project folder. */
export function handoffRelPath(doc: Partial<HandoffDoc> = {}, dir = '.claude/handoffs'): string {
  const d = docOf(doc)
  return `${dir}/HANDOFF_${d.slug}_${d.date}.md`
}

export function planRelPath(doc: Partial<HandoffDoc> = {}, dir = '.claude/handoffs'): string {
  const d = docOf(doc)
  return `${dir}/PLAN_${d.slug}_${d.date}.md`
}

/**
 * Each section as the skill would write it for the scripted parser work, in the shapes
 * skills/handoff/SKILL.md asks for: the user's words quoted, State items marked
 * [verified] with the command and its result or [unverified] with why, the dead end with
 * its error, one Next step, and Verify commands that change nothing. A paragraph is one
 * line: tests/e2e/real-model.e2e.ts cuts "Tried and ruled out" as heading, one line, blank.
 * Keyed by the spec's sections; a section the script has no words for (one just added to
 * the spec) holds "None", as a writer with nothing to say for it writes it.
 */
function sectionBodiesOf(d: HandoffDoc): Partial<Record<HandoffSection, string[]>> {
  return {
    Goal: [
      `Finish the parser the user started with "Add binary operators to the parser in src/parser.ts" (this handoff's focus: ${d.focus}). ` +
        'Done means `parse()` accepts the full expression grammar (literals, `+ - * /` with precedence, parentheses) and reports every syntax error with its line and column instead of throwing on the first one.',
    ],
    Constraints: ['- "Keep `parse(src: string)` as the only export; the CLI and the LSP import it."', '- "No new dependencies."'],
    State: [
      '- [verified] Binary operators, left-associative, `*` and `/` binding tighter than `+` and `-` - `pnpm test parser` -> 14 passed, 3 skipped',
      '- [verified] The tokenizer is unchanged - `git diff --stat src/tokenizer.ts` -> no output',
      '- [unverified] Unary minus after an operator (`1 * -2`) parses: written in `parsePrimary`, no test covers it yet',
    ],
    'In progress': [
      "Error recovery in `src/parser.ts`: nothing written yet. The three cases it must pass are in `test/parser.test.ts` under `describe.skip('recovery')`.",
    ],
    'Tried and ruled out': [
      'One recursive `parseBinary(level)` per precedence level: `pnpm test parser` failed on the 10,000-term case with `RangeError: Maximum call stack size exceeded`. Replaced by a loop over a precedence table.',
    ],
    Decisions: [
      '- Precedence lives in one `PRECEDENCE` map read by a loop, not one function per level (the stack overflow above); chosen by Claude.',
      '- Errors are collected in `ParseResult.errors` rather than thrown, so recovery can go on past the first; agreed with the user.',
    ],
    'Open questions': ['None.'],
    Files: ['No commits yet; the changes are in the working tree.', 'Reopen first (at most 5, most important first):', ...d.files.map((f, i) => `${i + 1}. \`${f}\``)],
    'Next step': [
      "Add the error-recovery case to `src/parser.ts`: in `parsePrimary`, on an unexpected token push `{ message, line, column }` to `errors` and skip to the next `;`, then unskip `describe('recovery')` in `test/parser.test.ts` and run `pnpm test parser`.",
    ],
    Verify: [
      '- `pnpm test parser` -> 14 passed, 3 skipped (17 passed once recovery is in)',
      '- `git status --short` -> ` M src/parser.ts` and ` M test/parser.test.ts`, nothing else',
      "- `grep -n \"describe.skip('recovery'\" test/parser.test.ts` -> one line",
    ],
  }
}

/** A handoff's title line and sections, without frontmatter: what a fork is asked to
 * write (the mod adds the frontmatter). `omit` drops required sections. */
export function handoffBodyText(doc: Partial<HandoffDoc> = {}, options: { omit?: readonly string[] } = {}): string {
  const d = docOf(doc)
  const sections = HANDOFF_SECTIONS.filter((s) => !(options.omit ?? []).includes(s))
  return [`# Handoff: ${d.focus}`, '', ...sections.flatMap((section) => [`## ${section}`, '', ...(sectionBodiesOf(d)[section] ?? ['None']), ''])].join('\n')
}

/** A handoff that passes handoff-format.ts formatProblems(…, 'handoff'). `omit` drops
 * required sections, to script a file the mod must refuse. */
export function handoffFileText(doc: Partial<HandoffDoc> = {}, options: { omit?: readonly string[] } = {}): string {
  const d = docOf(doc)
  return [
    '---',
    'kind: handoff',
    `created: ${d.created}`,
    'status: in-progress',
    `chain: HANDOFF_${d.slug}_${d.date}`,
    'seq: 1',
    'parent: none',
    `focus: ${d.focus}`,
    '---',
    '',
    handoffBodyText(d, options),
  ].join('\n')
}

/** A plan that passes formatProblems(…, 'plan'), with two phases. */
export function planFileText(doc: Partial<HandoffDoc> = {}): string {
  const d = docOf(doc)
  const body = PLAN_SECTIONS.flatMap((section) =>
    section === 'Phases'
      ? [
          '## Phases',
          '',
          '### Phase 1: Error recovery',
          '',
          'Add error recovery to src/parser.ts; files: src/parser.ts, test/parser.test.ts; verify with pnpm test parser.',
          '',
          '### Phase 2: Line and column',
          '',
          'Carry positions from the tokenizer into parse errors; verify with the position cases in test/parser.test.ts.',
          '',
        ]
      : section === 'Risks'
        ? ['## Risks', '', 'Error recovery may mask real syntax errors; keep the strict mode test green.', '']
        : [`## ${section}`, '', ...(sectionBodiesOf(d)[section] ?? ['None']), ''],
  )
  return ['---', 'kind: plan', `created: ${d.created}`, `chain: HANDOFF_${d.slug}_${d.date}`, `focus: ${d.focus}`, '---', '', `# Plan: ${d.focus}`, '', ...body].join('\n')
}

export interface SkillTurnOptions {
  /** The session's project folder (absolute); the Writes target files under it. */
  proj: string
  /** 'plan' writes a plan too and names it in the sentinel. */
  mode?: 'handoff' | 'plan'
  doc?: Partial<HandoffDoc>
  /** Folder under proj for the files; the mod accepts plans/handoffs and .claude/handoffs. */
  dir?: string
  /** The continue-prompt; a default that names the handoff path is used otherwise. */
  continuePrompt?: string
  /** Matches the skill turn's request (default: the compact-mode argument line). */
  when?: ScriptedReply['when']
  /** Handoff file text override (e.g. one with sections missing). */
  handoffText?: string
  /** Skip the Write of the handoff but still claim it in the sentinel. */
  skipHandoffWrite?: boolean
  /** Usage reported on the final answer. */
  inputTokens?: number
}

export interface SkillTurn {
  /** Replies to queue with mock.script(...replies), in order. */
  replies: ScriptedReply[]
  /** Paths as the sentinel names them, relative to proj. */
  handoffPath: string
  planPath: string | undefined
  /** Absolute paths of the files the Writes create. */
  handoffFile: string
  planFile: string | undefined
  continuePrompt: string
  /** The whole final answer text (ending with the block and the sentinel). */
  finalText: string
}

let turnSeq = 0

/** The default matcher: the skill turn's request carries `compact-mode`. */
export const SKILL_TURN_WHEN = /compact-mode/

const SKILL_ARGS_RE = /compact-mode run=[^\n<`]*/g

/** Stands for the arguments in the fallback prompt built below (no arguments hold a NUL). */
const ARGS_MARK = '\u0000'
/** What follows the arguments in the prompt the mod submits when it cannot run
 * the skill's command (skill-command.ts), taken from the mod's own words. */
const FALLBACK_AFTER_ARGS = skillFallbackPromptOf('handoff', undefined, ARGS_MARK).split(ARGS_MARK)[1]!

/** Whether `text` (a request's last user text) is the skill's turn for `focus`:
 * it carries the arguments the mod passes (compact-mode, the values, then the
 * focus), as the command's arguments or quoted in the mod's fallback prompt. */
export function isSkillTurnFor(text: string, focus: string): boolean {
  return [...text.matchAll(SKILL_ARGS_RE)].some((m) => {
    const end = m[0].indexOf(FALLBACK_AFTER_ARGS)
    return parseSkillArgs(end === -1 ? m[0] : m[0].slice(0, end))?.focus === focus
  })
}

/**
 * The replies for one skill turn: a Write per file (one tool_use per request, so each
 * reply answers the request that follows the previous tool result), then the final
 * answer. The first reply matches the skill's request; the later ones answer whatever
 * main-loop request comes next, which is the tool result.
 */
export function skillTurn(options: SkillTurnOptions): SkillTurn {
  const mode = options.mode ?? 'handoff'
  const dir = options.dir ?? '.claude/handoffs'
  const handoffPath = handoffRelPath(options.doc, dir)
  const planPath = mode === 'plan' ? planRelPath(options.doc, dir) : undefined
  const handoffFile = join(options.proj, handoffPath)
  const planFile = planPath === undefined ? undefined : join(options.proj, planPath)
  const continuePrompt =
    options.continuePrompt ??
    (mode === 'plan'
      ? `Read ${handoffPath} and ${planPath}, then start Phase 1 of the plan.`
      : `Read ${handoffPath} and continue from its Next step.`)

  const tag = `${Date.now().toString(36)}_${++turnSeq}`
  const writes: ScriptedReply[] = []
  if (options.skipHandoffWrite !== true) {
    writes.push({
      toolUses: [{ id: `toolu_handoff_${tag}`, name: 'Write', input: { file_path: handoffFile, content: options.handoffText ?? handoffFileText(options.doc) } }],
    })
  }
  if (planFile !== undefined) {
    writes.push({ toolUses: [{ id: `toolu_plan_${tag}`, name: 'Write', input: { file_path: planFile, content: planFileText(options.doc) } }] })
  }
  const paths = planPath === undefined ? [handoffPath] : [handoffPath, planPath]
  const finalText = [
    `Wrote the handoff to ${handoffPath}${planPath === undefined ? '' : ` and the plan to ${planPath}`}.`,
    '',
    formatContinuePrompt(continuePrompt),
    '',
    formatSentinel({ kind: 'ready', paths }),
  ].join('\n')
  const final: ScriptedReply = { text: finalText, ...(options.inputTokens === undefined ? {} : { inputTokens: options.inputTokens }) }
  const replies = [...writes, final]
  // Each reply after the first answers the request carrying the previous Write's result,
  // so an unrelated request arriving meanwhile cannot take it.
  for (let i = 1; i < replies.length; i++) {
    const id = writes[i - 1]?.toolUses?.[0]?.id
    if (id !== undefined) replies[i] = { ...replies[i], when: (r) => carriesToolResult(r, id) }
  }
  replies[0] = { ...replies[0], when: options.when ?? SKILL_TURN_WHEN }
  return { replies, handoffPath, planPath, handoffFile, planFile, continuePrompt, finalText }
}

/** A skill turn that gives up: one answer ending with the FAILED sentinel. */
export function failedSkillTurn(reason: string, when: ScriptedReply['when'] = SKILL_TURN_WHEN): ScriptedReply {
  return { when, text: `I could not write a handoff.\n\n${formatSentinel({ kind: 'failed', reason })}` }
}
