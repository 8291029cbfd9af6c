// Every toast the product shows, each with the widest values its callers can
// give, against the toast box: the box shows it whole. The samples are a
// Record over the table's names, so a toast added without one fails to type-check.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { repoRoot } from '../../harness/repo-root.js'
import { fitsToast, toastLinesOf, TOASTS, type Toast, type ToastName } from '../../../packages/compact-handoff/hooks/text/toasts.js'

const PATHS = [
  '.claude/handoffs/HANDOFF_parser_2026-12-01.md',
  `.claude/handoffs/HANDOFF_${'a-focus-the-model-made-long-'.repeat(4)}2026-12-01.md`,
  `${'packages/service/'.repeat(8)}.claude/handoffs/HANDOFF_parser_2026-12-01.md`,
  'C:\\Users\\someone with a long name\\projects\\the project\\.claude\\handoffs\\HANDOFF_parser_2026-12-01.md',
]
const WHY = `the skill's file failed the check: ${'a reason of the model or the engine, '.repeat(6)}`
const HOUR_MS = 3_600_000

const SAMPLES: Record<ToastName, Toast[]> = {
  unreadHandoff: PATHS.map((p) => TOASTS.unreadHandoff(p)),
  notResumed: PATHS.map((p) => TOASTS.notResumed(p)),
  offer: PATHS.flatMap((p) => [0, 30 * 60_000, 72 * HOUR_MS, 9_999 * HOUR_MS].map((ms) => TOASTS.offer(p, ms))),
  forkHandoff: PATHS.flatMap((p) => [TOASTS.forkHandoff('auto', p), TOASTS.forkHandoff('manual', p)]),
  compactionKept: [TOASTS.compactionKept(WHY)],
  compactionSummarized: [TOASTS.compactionSummarized(WHY)],
  runEdgeDigest: [TOASTS.runEdgeDigest(0, 0), TOASTS.runEdgeDigest(999_999, 999_999)],
  digestHandoff: PATHS.flatMap((p) => [TOASTS.digestHandoff('auto', p), TOASTS.digestHandoff('manual', p)]),
  compactionDigest: [TOASTS.compactionDigest(WHY)],
  compactionNothing: [TOASTS.compactionNothing(WHY)],
  nudge: [0, 71.6, 99.5, 100].map((percent) => TOASTS.nudge(percent)),
  restored: [1, 999_999].map((n) => TOASTS.restored(n, WHY)),
  runDropped: (['unchanged', 'compaction-pending', 'unsaid', 'digest', 'summary'] as const).map((context) => TOASTS.runDropped(WHY, context)),
  held: [TOASTS.held()],
  notKept: [TOASTS.notKept()],
  planLeftOut: PATHS.map((p) => TOASTS.planLeftOut(p, WHY)),
  letThrough: [TOASTS.letThrough(WHY)],
  continuePromptNotSent: PATHS.flatMap((p) => [TOASTS.continuePromptNotSent(WHY, p, true), TOASTS.continuePromptNotSent(WHY, p, false)]),
  answerModMissing: [TOASTS.answerModMissing()],
  heldCommands: [['/model'], ['/model', '/clear'], Array.from({ length: 12 }, (_, i) => `/a-command-with-a-long-name-${i} and its arguments`)].map((c) => TOASTS.heldCommands(c)),
  lateSwap: PATHS.flatMap((p) => [TOASTS.lateSwap(p, true), TOASTS.lateSwap(p, false)]),
  autoHandoffStarted: [0, 85.4, 100].map((percent) => TOASTS.autoHandoffStarted(percent)),
}

describe('every toast', () => {
  test('has samples for every name in the table', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(Object.keys(TOASTS).sort())
  })

  for (const [name, toasts] of Object.entries(SAMPLES)) {
    test(`${name} reads whole in the toast box`, () => {
      for (const toast of toasts) expect(fitsToast(toast.text), `${toast.text}\n→ ${toastLinesOf(toast.text).join(' | ')}`).toBe(true)
    })
  }

  test('a shortened path keeps its file name', () => {
    for (const toast of SAMPLES.forkHandoff) expect(toast.text).toMatch(/2026-12-01\.md$/)
  })

  test('the detail a toast cannot hold keeps every word the long toast had', () => {
    expect(TOASTS.compactionKept(WHY).detail).toContain(WHY)
    expect(TOASTS.runDropped(WHY, 'unchanged').detail).toBe(WHY)
    const many = Array.from({ length: 12 }, (_, i) => `/c${i} ${'x'.repeat(10)}`)
    expect(TOASTS.heldCommands(many).detail).toContain(many.join(', '))
    expect(TOASTS.heldCommands(['/model']).detail).toBeUndefined()
  })
})

/** Every hooks module of both mods, relative to the repository. */
function hooksFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? hooksFiles(path) : entry.name.endsWith('.ts') ? [path] : []
  })
}

test('every toast goes through the table: $.ui.toast is called from text/toast-steps.ts alone', () => {
  const callers = ['compact-handoff', 'compact-handoff-answer']
    .flatMap((mod) => hooksFiles(join(repoRoot(), 'packages', mod, 'hooks')))
    .filter((file) => readFileSync(file, 'utf8').includes('$.ui.toast('))
    .map((file) => file.slice(repoRoot().length + 1).split('\\').join('/'))
  expect(callers).toEqual(['packages/compact-handoff/hooks/text/toast-steps.ts'])
})
