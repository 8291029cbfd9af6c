// What the set-up says when a tool the demo or the tests need is missing.
import { describe, expect, test } from 'vitest'
import { SETUP_TOOLS, installHintOf, missingToolLinesOf } from './setup-tools.js'

const TMUX = SETUP_TOOLS.find((t) => t.name === 'tmux')!

describe('missingToolLinesOf', () => {
  test('says nothing when every tool is there', () => {
    expect(missingToolLinesOf([], 'linux')).toEqual([])
  })

  test('gives each missing tool one line: what needs it and how to get it, then what to do after', () => {
    const lines = missingToolLinesOf(SETUP_TOOLS, 'linux')
    expect(lines).toHaveLength(SETUP_TOOLS.length + 1)
    for (const [i, tool] of SETUP_TOOLS.entries()) {
      expect(lines[i]).toBe(`set-up: ${tool.name} is missing (${tool.neededBy}); to get it: ${installHintOf(tool.name, 'linux')}`)
      expect(lines[i]).not.toContain('\n')
    }
    expect(lines.at(-1)).toBe('set-up: then run pnpm install again.')
  })

  test('tmux is named as what the install, the demo, the bench and the real-session suite need', () => {
    expect(missingToolLinesOf([TMUX], 'darwin')[0]).toBe(
      'set-up: tmux is missing (pnpm install fetches the mod API declarations from a short session under it; pnpm demo, pnpm bench and the real-session suite drive it); to get it: brew install tmux',
    )
  })
})

describe('installHintOf', () => {
  test.each([
    ['linux', 'apt-get install tmux (Debian, Ubuntu), dnf install tmux (Fedora), or your system\'s package manager'],
    ['darwin', 'brew install tmux'],
    ['win32', 'run the set-up inside WSL, where apt-get install tmux gets it'],
    ['freebsd', 'apt-get install tmux (Debian, Ubuntu), dnf install tmux (Fedora), or your system\'s package manager'],
  ])('on %s: %s', (platform, hint) => {
    expect(installHintOf('tmux', platform)).toBe(hint)
  })
})
