// Which Write/Edit calls the mod lets run without a permission dialog: only the
// writing run's own handoff or plan file, new or written by the run, reached
// through no link; every other call keeps the session's own verdict.
import { describe, expect, test } from 'vitest'
import { runFixture } from '../../support/run-fixture.js'
import { isModeAsk, isOwnWrite, ownWriteCandidateOf, ownWriteTargetOf, type CheckedCall } from '../../../packages/compact-handoff/hooks/run/own-write.js'
import type { HandoffPath } from '../../../packages/compact-handoff/hooks/protocol/protocol-paths.js'
import { IDLE, type Phase } from '../../../packages/compact-handoff/hooks/run/run.js'

const CWD = '/srv/proj'
const HANDOFF: HandoffPath = { kind: 'handoff', relPath: '.claude/handoffs/HANDOFF_parser_2026-11-29.md' }
const ABS = `${CWD}/${HANDOFF.relPath}`

function writeOf(changes: Partial<CheckedCall> = {}, path = ABS): CheckedCall {
  return { tool: 'Write', input: { file_path: path, content: 'x' }, tool_use_id: 'tu-1', ...changes }
}

/** A run whose skill (or repair) turn has started: its turn.start was seen. */
function writing(files: HandoffPath[] = [], changes: Partial<ReturnType<typeof runFixture>> = {}): Phase {
  return { kind: 'writing', run: runFixture({ files, ...changes }), sinceMs: 0, turnId: 't-skill' }
}

describe('ownWriteCandidateOf: from the call alone', () => {
  test('takes the model\'s main-loop Write and Edit of a handoff path', () => {
    expect(ownWriteCandidateOf(writeOf(), 'engine')).toBe(ABS)
    expect(ownWriteCandidateOf(writeOf({ tool: 'Edit', input: { file_path: ABS, old_string: 'a', new_string: 'b' } }), 'engine')).toBe(ABS)
  })

  test('passes by every other call', () => {
    expect(ownWriteCandidateOf(writeOf({ tool: 'Bash', input: { command: `echo > ${ABS}` } }), 'engine'), 'another tool').toBeUndefined()
    expect(ownWriteCandidateOf(writeOf({ agentId: 'a1' }), 'engine'), "a subagent's call").toBeUndefined()
    expect(ownWriteCandidateOf(writeOf(), 'other-plugin'), "another plugin's call").toBeUndefined()
    expect(ownWriteCandidateOf(writeOf({ tool_use_id: undefined }), 'engine'), 'a query, no call').toBeUndefined()
    expect(ownWriteCandidateOf(writeOf({ ceiling: 'deny' }), 'engine'), "the organization's ceiling").toBeUndefined()
    expect(ownWriteCandidateOf(writeOf({ op: 'fs.write' }), 'engine'), "a plugin's file call").toBeUndefined()
    expect(ownWriteCandidateOf(writeOf({}, `${CWD}/src/parser.ts`), 'engine'), 'an ordinary path').toBeUndefined()
    expect(ownWriteCandidateOf(writeOf({}, `${CWD}/.claude/settings.json`), 'engine'), 'another file under .claude').toBeUndefined()
    expect(ownWriteCandidateOf(writeOf({ input: { content: 'x' } }), 'engine'), 'no path').toBeUndefined()
    expect(ownWriteCandidateOf(writeOf({ input: null }), 'engine'), 'no input').toBeUndefined()
  })
})

describe('ownWriteTargetOf: a writing run and a handoff path of its folder', () => {
  test("names the file while the run's skill turn runs", () => {
    expect(ownWriteTargetOf(writing(), ABS)).toEqual(HANDOFF)
    expect(ownWriteTargetOf(writing(), `${CWD}/plans/handoffs/PLAN_x_2026-11-29.md`)).toEqual({ kind: 'plan', relPath: 'plans/handoffs/PLAN_x_2026-11-29.md' })
  })

  test('names nothing with no run, at another stage, or outside the run\'s folder', () => {
    expect(ownWriteTargetOf(IDLE, ABS), 'no run').toBeUndefined()
    const run = runFixture()
    expect(ownWriteTargetOf({ kind: 'launching', run, sinceMs: 0 }, ABS), 'launching').toBeUndefined()
    // A task notification or another plugin's prompt can run first, while the run waits for its turn.
    expect(ownWriteTargetOf({ kind: 'writing', run, sinceMs: 0 }, ABS), "writing, before the skill's turn started").toBeUndefined()
    expect(ownWriteTargetOf({ kind: 'reviewed', run, sinceMs: 0, swap: { handoff: HANDOFF.relPath, continuePrompt: 'go', refusals: 0 } }, ABS), 'reviewed').toBeUndefined()
    expect(ownWriteTargetOf(writing(), `/srv/other/${HANDOFF.relPath}`), 'another project').toBeUndefined()
    expect(ownWriteTargetOf(writing(), `${CWD}/.claude/handoffs/sub/HANDOFF_x_2026-11-29.md`), 'a deeper folder').toBeUndefined()
    expect(ownWriteTargetOf(writing(), `${CWD}/.claude/handoffs/../settings/HANDOFF_x_2026-11-29.md`), 'dots out of the folder').toBeUndefined()
  })

  test('reads a Windows session folder by Windows rules', () => {
    const phase = writing([], { cwd: 'C:\\Users\\me\\proj', cwdRealPath: 'C:\\Users\\me\\proj', ignoresCase: true })
    expect(ownWriteTargetOf(phase, 'c:\\users\\ME\\proj\\.CLAUDE\\handoffs\\HANDOFF_x_2026-11-29.md')).toEqual({ kind: 'handoff', relPath: '.claude/handoffs/HANDOFF_x_2026-11-29.md' })
  })
})

describe("isModeAsk: only the permission mode's own ask is lifted", () => {
  test('an ask with no rule, hook, setting, plugin or ceiling behind it', () => {
    expect(isModeAsk({ decision: 'ask' })).toBe(true)
    expect(isModeAsk({ decision: 'ask', reason: 'Claude requested permissions to write to .claude/handoffs/HANDOFF_x.md' })).toBe(true)
  })

  test('keeps every other ask, an allow and a deny as they are', () => {
    expect(isModeAsk({ decision: 'ask', rule: 'Write(.claude/handoffs/**)' }), "the person's ask rule").toBe(false)
    expect(isModeAsk({ decision: 'ask', reason: 'secret found', hook: 'PreToolUse' }), "a PreToolUse hook's ask").toBe(false)
    expect(isModeAsk({ decision: 'ask', setting: 'permissions.blockReadsOutsideWorkingDirectories' }), "an option's own check").toBe(false)
    expect(isModeAsk({ decision: 'ask', plugin: 'secret-guard' }), "another plugin's ask").toBe(false)
    expect(isModeAsk({ decision: 'ask', ceiling: 'ask' }), "the organization's ceiling").toBe(false)
    expect(isModeAsk({ decision: 'ask', source: 'a field this build does not name' }), 'anything unknown: fail closed').toBe(false)
    expect(isModeAsk({ decision: 'allow' })).toBe(false)
    expect(isModeAsk({ decision: 'deny' })).toBe(false)
  })
})

describe("isOwnWrite: the one rule's verdict on disk (tests/compact-handoff/disk/disk-rule.test.ts holds the rule)", () => {
  const run = (files: HandoffPath[] = []) => runFixture({ files })

  test('allows a new file where every part on the way is where it says', () => {
    expect(isOwnWrite(run(), HANDOFF, { kind: 'absent' })).toBe(true)
  })

  test('allows a file this run wrote, and no existing file it did not', () => {
    expect(isOwnWrite(run([HANDOFF]), HANDOFF, { kind: 'present' })).toBe(true)
    expect(isOwnWrite(run(), HANDOFF, { kind: 'present' }), 'a handoff someone else left').toBe(false)
    expect(isOwnWrite(runFixture({ files: [{ ...HANDOFF, wrote: 'edited' }] }), HANDOFF, { kind: 'present' }), 'one this run only Edited: still the stranger\'s text').toBe(false)
  })

  test('refuses whatever the rule refuses, even a file this run wrote', () => {
    expect(isOwnWrite(run([HANDOFF]), HANDOFF, { kind: 'refused', why: '.claude/handoffs is a symbolic link' })).toBe(false)
  })
})
