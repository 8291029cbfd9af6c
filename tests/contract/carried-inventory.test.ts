// CONTRIBUTING's "What a compaction carries" table against the code: every row
// compact-handoff carries or names points at the function that builds it, that
// function exists, and a stub built here, from a context that holds every kind,
// holds that row's kind; a kind the stub holds is never listed as not carried.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, test } from 'vitest'
import { repoRoot } from '../harness/repo-root.js'
import { buildForkStub, buildStub, type StubContext } from '../../packages/compact-handoff/hooks/stub/swap-text.js'
import { withSkillsLoaded, NO_SKILLS } from '../../packages/compact-handoff/hooks/carried/skills.js'
import { keptPlanOf } from '../../packages/compact-handoff/hooks/carried/carried.js'
import { NO_FACTS, withRead, factsSectionOf } from '../../packages/compact-handoff/hooks/facts/facts.js'
import { NO_WORDS } from '../../packages/compact-handoff/hooks/words/user-words.js'

type Row = { kind: string; ours: string; file?: string; fn?: string }

function inventoryRows(): Row[] {
  const text = readFileSync(join(repoRoot(), 'CONTRIBUTING.md'), 'utf8')
  const start = text.indexOf('## What a compaction carries')
  const section = text.slice(start, text.indexOf('\n## ', start + 1))
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Kind') && !line.startsWith('| ---'))
    .map((line) => {
      const cells = line.split(' | ').map((c) => c.replace(/^\| ?| ?\|$/g, '').trim())
      const by = /^`([^`]+)` `([^`]+)`$/.exec(cells[5] ?? '')
      return { kind: cells[0]!, ours: cells[4]!, ...(by ? { file: by[1]!, fn: by[2]! } : {}) }
    })
}

const SKILL_LINE = 'HOUSE-RULE-7: tabs, never spaces'
const PLAN_LINE = '1. PLAN-STEP: split the parser'
const CONTEXT: StubContext = {
  running: { shells: [{ id: 'bb1', command: 'sleep 300', startedAtMs: 0 }], agents: [{ id: 'a1', task: 'scan the repo', type: 'general', startedAtMs: 0 }] },
  transcriptPath: '/home/me/.claude/projects/p/s.jsonl',
  skills: withSkillsLoaded(NO_SKILLS, [{ name: 'house-rules', text: `# House rules\n${SKILL_LINE}` }]),
  loadedTools: ['WebFetch'],
  plan: keptPlanOf({ text: `# Plan\n${PLAN_LINE}`, filePath: '/home/me/.claude/plans/p.md' }),
  worktree: { path: '/srv/app/.claude/worktrees/parser-work', branch: 'worktree-parser-work' },
}
const FACTS = factsSectionOf(withRead(NO_FACTS, 'src/notes.md'))

/** How each kind shows in a stub built from CONTEXT and FACTS. */
const IN_STUB: Record<string, (stub: string) => boolean> = {
  'Invoked skills': (stub) => stub.includes(SKILL_LINE) && stub.includes('Skill: house-rules'),
  'Background shells and subagents still running': (stub) => stub.includes('sleep 300') && stub.includes('scan the repo'),
  'The transcript pointer': (stub) => stub.includes('/home/me/.claude/projects/p/s.jsonl'),
  'Recently read files': (stub) => stub.includes('src/notes.md'),
  "A deferred tool's loaded schema": (stub) => stub.includes('ToolSearch (query "select:WebFetch")'),
  'The plan-mode plan': (stub) => stub.includes(PLAN_LINE) && stub.includes('/home/me/.claude/plans/p.md'),
  'A worktree entered': (stub) => stub.includes('/srv/app/.claude/worktrees/parser-work') && stub.includes('worktree-parser-work'),
}

const STUBS = {
  swap: buildStub({ handoff: '.claude/handoffs/HANDOFF_x.md' }, NO_WORDS, FACTS, CONTEXT),
  fork: buildForkStub({ handoff: '.claude/handoffs/HANDOFF_x.md', handoffText: '# Handoff', words: NO_WORDS, trigger: 'auto', isMidTurn: false, context: CONTEXT, ...(FACTS !== undefined ? { factsSection: FACTS } : {}) }),
}

test('the table lists the kinds, each with what compact-handoff does', () => {
  const rows = inventoryRows()
  expect(rows.length).toBeGreaterThanOrEqual(8)
  for (const row of rows) expect(['carried', 'named', 'not carried', "the engine's"], row.kind).toContain(row.ours)
})

test.each(inventoryRows().filter((r) => r.ours === 'carried' || r.ours === 'named'))('$kind: $ours by $file $fn, in the stub of a swap and of a fork', async (row) => {
  expect(row.file, 'the row names its file and function').toBeDefined()
  const module = (await import(/* @vite-ignore */ pathToFileURL(join(repoRoot(), 'packages', 'compact-handoff', 'hooks', row.file!)).href)) as Record<string, unknown>
  expect(typeof module[row.fn!], `${row.file} exports ${row.fn}`).toBe('function')
  const holds = IN_STUB[row.kind]
  expect(holds, `a check of how "${row.kind}" shows in a stub`).toBeDefined()
  expect(holds!(STUBS.swap), 'in the swap stub').toBe(true)
  expect(holds!(STUBS.fork), 'in the fork stub').toBe(true)
})

test('every kind the stub holds is a row that says so', () => {
  const rows = new Map(inventoryRows().map((r) => [r.kind, r.ours]))
  for (const kind of Object.keys(IN_STUB)) expect(['carried', 'named'], kind).toContain(rows.get(kind))
})
