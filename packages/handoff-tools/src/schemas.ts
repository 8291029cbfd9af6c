// The zod schemas of the three frontmatters this project writes or reads: a
// SKILL.md's (what Claude Code 2.1.332 reads, per its embedded schema) and a
// handoff's and a plan's (the protocol's keys). Frontmatter arrives as the
// output of a YAML parser, so every value starts as `unknown`.
import { z } from 'zod'
import {
  HANDOFF_STATUSES,
  NO_PARENT,
  isChainValue,
  isCreatedValue,
  isFocusValue,
  isSeqValue,
  parentRelPathOf,
} from '../../compact-handoff/hooks/protocol/protocol-contents.js'

const toolList = z.union([z.string(), z.array(z.string())])

/** A SKILL.md frontmatter. Unknown keys are refused: the engine ignores them,
 * so a misspelt key (`user_invocable`) would silently do nothing. The
 * description is required because it is all the model sees when it decides
 * whether to use the skill. */
export const skillFrontmatterSchema = z
  .strictObject({
    name: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase words joined by hyphens').max(64).optional(),
    description: z.string().trim().min(1),
    'argument-hint': z.string().optional(),
    'disable-model-invocation': z.boolean().optional(),
    'user-invocable': z.boolean().optional(),
    'allowed-tools': toolList.optional(),
    'disallowed-tools': toolList.optional(),
    model: z.string().optional(),
    effort: z.string().optional(),
    shell: z.enum(['bash', 'powershell']).optional(),
    when_to_use: z.string().optional(),
    paths: toolList.optional(),
    hooks: z.record(z.string(), z.unknown()).optional(),
    context: z.enum(['inline', 'fork']).optional(),
    agent: z.string().optional(),
    background: z.boolean().optional(),
  })
  .superRefine((skill, ctx) => {
    for (const key of ['agent', 'background'] as const) {
      if (skill[key] !== undefined && skill.context !== 'fork') {
        ctx.addIssue({ code: 'custom', path: [key], message: `only applies with "context: fork"` })
      }
    }
  })

export type SkillFrontmatter = z.infer<typeof skillFrontmatterSchema>

/** What a check knows beyond the text: the project, the absolute path of the
 * folder the session runs in, against which `parent` is read. */
export type ValidateContext = { projectDir: string }

const created = z.string().refine(isCreatedValue, { error: 'must be a date or an ISO 8601 time, like 2026-11-29T14:05:00Z or 2026-11-29' })
const chain = z.string().refine(isChainValue, {
  error: "must be the chain's first handoff file name without .md",
})
const focus = z.string().refine(isFocusValue, 'must say the focus, or "none"')

/** A handoff's frontmatter, read with YAML's failsafe schema as the mod's flat
 * reader sees it: every scalar is a string. `parent` comes out as the protocol
 * means it, NO_PARENT or the parent's path relative to the project. */
export function handoffFrontmatterSchema(context: ValidateContext) {
  return z
    .object({
      kind: z.literal('handoff', { error: 'must be "handoff" in a handoff file' }),
      created,
      status: z.enum(HANDOFF_STATUSES),
      chain,
      seq: z.string().refine(isSeqValue, 'must be a whole number from 1').transform(Number),
      parent: z.string().transform((value, ctx) => {
        const parent = parentRelPathOf(value, context.projectDir)
        if (parent !== undefined) return parent
        ctx.addIssue({
          code: 'custom',
          message: `must be "${NO_PARENT}" or the path of a handoff in plans/handoffs/ or .claude/handoffs/ of the project, like plans/handoffs/HANDOFF_<slug>_<date>.md`,
        })
        return z.NEVER
      }),
      focus,
    })
    .superRefine((handoff, ctx) => {
      if ((handoff.seq === 1) !== (handoff.parent === NO_PARENT)) {
        ctx.addIssue({ code: 'custom', path: ['seq'], message: `seq ${handoff.seq} disagrees with parent "${handoff.parent}": a first handoff has seq 1 and parent ${NO_PARENT}` })
      }
    })
}

export const planFrontmatterSchema = z.object({ kind: z.literal('plan', { error: 'must be "plan" in a plan file' }), created, chain, focus })

export type HandoffFrontmatter = z.infer<ReturnType<typeof handoffFrontmatterSchema>>
export type PlanFrontmatter = z.infer<typeof planFrontmatterSchema>
