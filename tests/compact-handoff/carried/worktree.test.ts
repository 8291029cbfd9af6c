import { describe, expect, test } from 'vitest'
import { worktreeAfter, worktreeSectionOf } from '../../../packages/compact-handoff/hooks/carried/carried.js'

describe('worktreeAfter: what a worktree call says of the session', () => {
  test('EnterWorktree enters its path and branch; ExitWorktree leaves', () => {
    expect(worktreeAfter('EnterWorktree', { worktreePath: 'C:\\src\\app\\.claude\\worktrees\\w', worktreeBranch: 'worktree-w', message: 'm' })).toEqual({ path: 'C:\\src\\app\\.claude\\worktrees\\w', branch: 'worktree-w' })
    expect(worktreeAfter('EnterWorktree', { worktreePath: '/srv/app/w', message: 'm' })).toEqual({ path: '/srv/app/w' })
    expect(worktreeAfter('ExitWorktree', { action: 'keep', worktreePath: '/srv/app/w' })).toBeNull()
  })

  test('any other shape changes nothing, and a path is bounded', () => {
    expect(worktreeAfter('EnterWorktree', 'Entered.')).toBeUndefined()
    expect(worktreeAfter('EnterWorktree', { worktreePath: '' })).toBeUndefined()
    expect(worktreeAfter('ExitWorktree', null)).toBeUndefined()
    expect(worktreeAfter('EnterWorktree', { worktreePath: 'x'.repeat(250_000) })?.path.length).toBe(1_000)
  })
})

describe('worktreeSectionOf', () => {
  test('names the path and the branch; nothing outside a worktree', () => {
    expect(worktreeSectionOf({ path: '/srv/app/w', branch: 'worktree-w' })).toMatch(/^The session is working in the git worktree \/srv\/app\/w \(branch worktree-w\), entered earlier with EnterWorktree/)
    expect(worktreeSectionOf(null)).toBeUndefined()
    expect(worktreeSectionOf(undefined)).toBeUndefined()
  })
})
