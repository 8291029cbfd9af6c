// The scripted model for the eval cases: which case a request belongs to, the turns
// each case plays in the good and the bad variant, and which graders the bad one must fail.
import type { MockRequest, ScriptedReply, ScriptedToolUse } from '../harness/mock-api.js'
import { PARENT_HANDOFF, TOOL_OUTPUT_VALUES as V, UNVERIFIED_CLAIMS, USER_WORDS, type EvalCase } from '../support/eval-sessions.js'
import { CONTINUATION_INPUT, DASHES, JUDGE_ASK, QUOTING_INPUT, TODAY, continuePrompt, handoffText, normalReply, planText, type Variant } from './eval-handoffs.js'

// ---------------------------------------------------------------------------------------
// The scripted model: which case a request belongs to, how far its run has got, what it says.

/** Told apart by words only that case's requests carry (its prompt or its past session). */
export function caseOf(request: MockRequest): EvalCase | undefined {
  const text = JSON.stringify(request.body?.messages ?? [])
  const args = /<command-name>\/compact-handoff-skills:(\w+)<\/command-name>(?:\\n<command-args>([^<]*)<\/command-args>)?/.exec(text)
  if (text.includes('does parseRow in src/parse.js handle quoted fields?')) return 'no-fire-question'
  if (text.includes('close to the end of my context here')) return 'handoff-natural-request'
  if (args?.[1] === 'handoffplan') return 'handoffplan-phases'
  if (args?.[2] === 'compact-mode finish the quoting fix') return 'handoff-compact-mode'
  if (args?.[2] === 'the quoting fix') return 'handoff-claude-folder'
  if (args?.[2] === 'the legacy writer') return 'handoff-tool-output-values'
  if (args?.[2] === 'the red CI run') return 'handoff-ci-exit-status'
  if (text.includes(`Read ${PARENT_HANDOFF}, then reopen`)) return 'handoff-continuation'
  if (args?.[1] === 'handoff') return 'handoff-plans-folder'
  return undefined
}

const ID_PREFIX = 'toolu_eval_'

/** Scripted assistant turns already in the request: the run's step. */
export function stepOf(request: MockRequest): number {
  return (request.body?.messages ?? []).filter((m) => m.role === 'assistant' && JSON.stringify(m.content).includes(ID_PREFIX)).length
}

type Turn = { text?: string; tools?: Array<Omit<ScriptedToolUse, 'id'>> }

const write = (file_path: string, content: string): Omit<ScriptedToolUse, 'id'> => ({ name: 'Write', input: { file_path, content } })
const read = (file_path: string): Omit<ScriptedToolUse, 'id'> => ({ name: 'Read', input: { file_path } })

/** The tool-output cases' handoffs: `exact` carries the values as the tools printed them,
 * otherwise they are put in other words, as a summary would. */
function searchHandoff(exact: boolean): string {
  const inProgress = exact
    ? `Besides quoteField, \`${V.grepPath}\` line 31 joins cells without quoting (seen in \`grep -rn\`), and \`npx tsc --noEmit -p jsconfig.json\` exits 2 with \`${V.errorLine}\`.`
    : 'Besides quoteField, a legacy writer joins cells without quoting, and the type check reports a type error there.'
  return handoffText({ ...QUOTING_INPUT, focus: '"the legacy writer"', inProgress })
}

function ciHandoff(exact: boolean): string {
  const openQuestions = exact
    ? `- CI run ${V.ciRunId} on main failed in step \`${V.ciStep}\` (\`${V.ciExit}\`, i.e. exit code 2), from \`${V.lsPath}\`; the tests passed. Not looked into yet.`
    : '- CI failed on main in the type-check step; the tests passed. Not looked into yet.'
  return handoffText({ ...QUOTING_INPUT, focus: '"the red CI run"', openQuestions })
}

/** The turns each case plays. A table, one entry per case, longer than a function
 * should be on purpose: each case's turns read together with its variants. */
export function script(variant: Variant): Record<EvalCase, Turn[]> {
  const plansHandoff = `plans/handoffs/HANDOFF_csv-quoting_${TODAY}.md`
  const good = handoffText(QUOTING_INPUT)
  if (variant === 'good') {
    const compactPath = plansHandoff
    return {
      'handoff-plans-folder': [{ tools: [write(plansHandoff, good)] }, { text: normalReply(plansHandoff) }],
      'handoff-claude-folder': [
        { tools: [write(`.claude/handoffs/HANDOFF_csv-quoting_${TODAY}.md`, handoffText({ ...QUOTING_INPUT, focus: '"the quoting fix"' }))] },
        { text: 'Claude Code refused the write into .claude/handoffs/ (it asks before writing there); nothing was written.' },
      ],
      'handoff-compact-mode': [
        { tools: [write(compactPath, handoffText({ ...QUOTING_INPUT, focus: '"finish the quoting fix"' }))] },
        {
          text: ['PASTE THIS INTO YOUR NEXT SESSION:', DASHES, continuePrompt(compactPath, 'the quote fix in src/format.js.'), DASHES, `COMPACT-HANDOFF-READY: ${compactPath}`].join('\n'),
        },
      ],
      'handoff-continuation': [
        { tools: [write(`plans/handoffs/HANDOFF_csv-line-breaks_${TODAY}.md`, handoffText(CONTINUATION_INPUT))] },
        { text: normalReply(`plans/handoffs/HANDOFF_csv-line-breaks_${TODAY}.md`) },
      ],
      'handoff-natural-request': [
        { tools: [{ name: 'Skill', input: { skill: 'compact-handoff-skills:handoff' } }] },
        { tools: [write(plansHandoff, good)] },
        { text: normalReply(plansHandoff) },
      ],
      'handoffplan-phases': [
        {
          tools: [
            write(plansHandoff, handoffText({ ...QUOTING_INPUT, nextStep: "Start Phase 1 of the plan: in src/format.js make quoteField use `replaceAll('\"', '\"\"')`." })),
            write(`plans/handoffs/PLAN_csv-quoting_${TODAY}.md`, planText(QUOTING_INPUT.chain)),
          ],
        },
        { text: normalReply(plansHandoff) },
      ],
      'handoff-tool-output-values': [{ tools: [write(plansHandoff, searchHandoff(true))] }, { text: normalReply(plansHandoff) }],
      'handoff-ci-exit-status': [{ tools: [write(plansHandoff, ciHandoff(true))] }, { text: normalReply(plansHandoff) }],
      'no-fire-question': [
        { text: 'No. parseRow splits the line on every comma, so a quoted field such as "Smith, Jr." is cut in two. I changed nothing.' },
      ],
    }
  }
  return {
    // Right place, wrong content: the format and what-matters graders must catch it.
    'handoff-plans-folder': [
      {
        tools: [
          write(
            plansHandoff,
            handoffText({
              ...QUOTING_INPUT,
              constraints: ['- Keep the formatRow API stable.', `- ${USER_WORDS.withdrawn}`],
              state: [`- [verified] ${UNVERIFIED_CLAIMS.parseRow}`],
              nextStep: '- Fix quoting\n- Then handle CRLF',
              verify: ['- `git add -A && node --test` -> passes'],
            })
              .replace('seq: 1\n', '')
              .replace(/\n## Tried and ruled out\n[^#]*/, '\n')
              .replace('## Open questions\nNone\n', '## Open questions\n\n'),
          ),
        ],
      },
      { text: `Wrote ${plansHandoff}.` },
    ],
    // Right content, wrong folder.
    'handoff-claude-folder': [
      { tools: [write(`HANDOFF_csv-quoting_${TODAY}.md`, handoffText({ ...QUOTING_INPUT, focus: '"the quoting fix"' }))] },
      { text: normalReply(`HANDOFF_csv-quoting_${TODAY}.md`) },
    ],
    // Edits a project file, loses the focus quotes, and ends without the sentinel.
    'handoff-compact-mode': [
      { tools: [read('src/format.js')] },
      { tools: [{ name: 'Edit', input: { file_path: 'src/format.js', old_string: `field.replace('"', '""')`, new_string: `field.replaceAll('"', '""')` } }] },
      { tools: [write(plansHandoff, handoffText({ ...QUOTING_INPUT, focus: 'finish the quoting fix' }))] },
      { text: ['PASTE THIS INTO YOUR NEXT SESSION:', DASHES, continuePrompt(plansHandoff, 'run the tests.'), DASHES, 'Shall I commit the fix too?'].join('\n') },
    ],
    // Overwrites its parent instead of continuing the chain, and drops what it should carry.
    'handoff-continuation': [
      { tools: [read(PARENT_HANDOFF)] },
      {
        tools: [
          write(
            PARENT_HANDOFF,
            handoffText({
              ...CONTINUATION_INPUT,
              chain: 'HANDOFF_csv-quoting_2026-11-27',
              seq: 1,
              parent: 'none',
              openQuestions: 'None',
              state: [`- [verified] ${UNVERIFIED_CLAIMS.readme}`],
            }),
          ),
        ],
      },
      { text: normalReply(PARENT_HANDOFF) },
    ],
    // Never loads the skill: free-form notes in the project root.
    'handoff-natural-request': [
      { tools: [write('HANDOFF_notes.md', '# Notes\n\nWe were fixing CSV quoting; use replaceAll next. Keep the API stable.\n')] },
      { text: 'Saved my notes to HANDOFF_notes.md.' },
    ],
    // A handoff and no plan; its next step does not point at a phase.
    'handoffplan-phases': [{ tools: [write(plansHandoff, good)] }, { text: normalReply(plansHandoff) }],
    // The right file, every value put in other words.
    'handoff-tool-output-values': [{ tools: [write(plansHandoff, searchHandoff(false))] }, { text: normalReply(plansHandoff) }],
    'handoff-ci-exit-status': [{ tools: [write(plansHandoff, ciHandoff(false))] }, { text: normalReply(plansHandoff) }],
    // Fires on a plain question.
    'no-fire-question': [
      { tools: [{ name: 'Skill', input: { skill: 'compact-handoff-skills:handoff' } }] },
      { tools: [write(plansHandoff, good)] },
      { text: normalReply(plansHandoff) },
    ],
  }
}

/** Every scripted turn, keyed to its case and step, each used once, and only
 * while `isCurrent` says this variant's run is the one under way. */
export function repliesFor(variant: Variant, isCurrent: () => boolean): ScriptedReply[] {
  let n = 0
  return Object.entries(script(variant)).flatMap(([name, turns]) =>
    turns.map((turn, step) => ({
      text: turn.text,
      toolUses: turn.tools?.map((t) => ({ ...t, id: `${ID_PREFIX}${variant}_${++n}` })),
      when: (r: MockRequest) => isCurrent() && !r.lastUserText.startsWith(JUDGE_ASK) && caseOf(r) === name && stepOf(r) === step,
    })),
  )
}

/** What a bad run must fail, per case; every other grader that needs no model must pass. */
export const BAD_FAILS: Record<EvalCase, string[]> = {
  'handoff-plans-folder': [
    'frontmatter-keys',
    'handoff-sections-in-order-none-empty',
    'constraints-verbatim',
    'withdrawn-instruction-left-out',
    'parse-claim-marked-unverified',
    'next-step-is-the-quote-fix',
    'verify-commands-change-nothing',
    'reply-has-continue-prompt',
  ],
  'handoff-claude-folder': ['handoff-write-aims-at-claude-handoffs', 'no-handoff-elsewhere'],
  'handoff-compact-mode': ['frontmatter-keys', 'reply-ends-with-block-and-sentinel', 'half-done-change-kept', 'no-edit-outside-plans-handoffs'],
  'handoff-continuation': [
    'handoff-in-plans-handoffs',
    'handoff-named-by-the-rule',
    'frontmatter-keys',
    'parent-handoff-unchanged',
    'open-question-carried-forward',
    'readme-claim-marked-unverified',
  ],
  'handoff-natural-request': [
    'handoff-in-plans-handoffs',
    'handoff-named-by-the-rule',
    'no-handoff-elsewhere',
    'frontmatter-keys',
    'handoff-sections-in-order-none-empty',
    'constraints-verbatim',
    'skill-fired',
  ],
  'handoffplan-phases': [
    'plan-in-plans-handoffs',
    'plan-and-handoff-share-slug-and-date',
    'plan-frontmatter-keys',
    'plan-sections-in-order',
    'handoff-next-step-starts-phase-1',
  ],
  'handoff-tool-output-values': ['path-from-grep-output', 'error-code-verbatim', 'error-message-prefix-verbatim', 'error-position-verbatim'],
  'handoff-ci-exit-status': ['ci-run-id-verbatim', 'failing-step-verbatim', 'exit-status-verbatim', 'script-path-verbatim'],
  'no-fire-question': ['no-handoff-or-plan-written', 'reply-is-not-a-handoff', 'skill-not-fired'],
}

// ---------------------------------------------------------------------------------------
