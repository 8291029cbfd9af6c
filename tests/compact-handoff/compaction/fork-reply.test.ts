// The handoff taken out of a fork's reply: what a model puts around it goes,
// the handoff itself stays byte for byte.
import { describe, expect, test } from 'vitest'
import { forkReplyOf } from '../../../packages/compact-handoff/hooks/compaction/fork-reply.js'
import { forkReplyTextOf } from '../../support/handoff-text.js'

/** A reply that is the handoff alone, ending with one line break. */
const HANDOFF = `${forkReplyTextOf().trimEnd()}\n`

describe('forkReplyOf', () => {
  test('keeps a reply that is the handoff alone as it is, and reads its title', () => {
    expect(forkReplyOf(HANDOFF)).toEqual({ body: HANDOFF, title: 'Handoff: parser rewrite' })
  })

  test('drops lines before the title: a preamble, a frontmatter the model wrote itself', () => {
    expect(forkReplyOf(`Here is the handoff you asked for.\n\n${HANDOFF}`).body).toBe(HANDOFF)
    expect(forkReplyOf(`---\nkind: handoff\nseq: 7\n---\n\n${HANDOFF}`).body).toBe(HANDOFF)
  })

  test('takes the handoff out of a code fence around it, whatever the fence', () => {
    for (const [open, close] of [['```markdown', '```'], ['```', '```'], ['````md', '````'], ['~~~', '~~~']]) {
      expect(forkReplyOf(`${open}\n${HANDOFF}${close}\n`).body, open).toBe(HANDOFF)
      expect(forkReplyOf(`Sure:\n${open}\n${HANDOFF}${close}\n\nLet me know if anything is missing.`).body, open).toBe(HANDOFF)
    }
  })

  test('keeps a fenced block inside a section while a fence wraps the whole', () => {
    const withBlock = HANDOFF.replace('## Verify\n', '## Verify\n\n```bash\ngit status --short\n```\n')
    expect(forkReplyOf(`\`\`\`markdown\n${withBlock}\`\`\`\nDone.`).body).toBe(withBlock)
    const fourTicks = HANDOFF.replace('## Verify\n', '## Verify\n\n```\ngit log -1\n```\n')
    expect(forkReplyOf(`\`\`\`\`markdown\n${fourTicks}\`\`\`\`\n`).body).toBe(fourTicks)
  })

  test('drops a closing remark after the last section, after a blank line, a rule or a heading', () => {
    expect(forkReplyOf(`${HANDOFF}\nLet me know if you need anything else.\n`).body).toBe(HANDOFF)
    expect(forkReplyOf(`${HANDOFF}---\nThat is all.\n`).body).toBe(HANDOFF)
    expect(forkReplyOf(`${HANDOFF}## Notes\nnothing\n`).body).toBe(HANDOFF)
    expect(forkReplyOf(`${HANDOFF}\n\n\n`).body).toBe(HANDOFF)
  })

  test('keeps the last section whole: bullets after a blank line, an indented continuation, a fenced block with blank lines', () => {
    const verify = [
      '## Verify',
      'Run these:',
      '',
      '- `git status --short` → clean',
      '',
      '  (untracked files are fine)',
      '- `pnpm vitest run parser` → 12 passed',
      '',
      '```bash',
      'git log -1',
      '',
      'git diff --stat',
      '```',
      '',
    ].join('\n')
    const text = HANDOFF.slice(0, HANDOFF.indexOf('## Verify')) + verify
    expect(forkReplyOf(`${text}\nHope this helps!`).body).toBe(text)
  })

  test('starts at the first section when there is no title, and says so', () => {
    const untitled = HANDOFF.slice(HANDOFF.indexOf('## Goal'))
    expect(forkReplyOf(`Here it is:\n\n${untitled}`)).toEqual({ body: untitled })
  })

  test('gives back a reply with neither title nor section whole, trimmed, for the check to refuse', () => {
    expect(forkReplyOf('  I cannot write a handoff here.  \n')).toEqual({ body: 'I cannot write a handoff here.\n' })
  })

  test('reads CRLF line ends as line ends', () => {
    expect(forkReplyOf(`Intro\r\n\r\n${HANDOFF.replace(/\n/g, '\r\n')}\r\nBye\r\n`).body).toBe(HANDOFF)
  })

  test('takes no heading inside a preamble code block as the title', () => {
    expect(forkReplyOf(`Notes:\n    # not a title\n\n${HANDOFF}`).body).toBe(HANDOFF)
  })
})
