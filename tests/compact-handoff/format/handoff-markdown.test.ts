// The format's one Markdown reader on the corners where CommonMark (remark,
// the validator's parser) may read a line otherwise: each is refused, or read
// as remark reads it. The generated differential test
// (tests/contract/format-differential.test.ts) holds the same over mutated
// documents; these name the corners one by one.
import { describe, expect, test } from 'vitest'
import { bodyLinesOf, linesOf } from '../../../packages/compact-handoff/hooks/format/handoff-markdown.js'
import { parseMarkdown, plainTextOf } from '../../../packages/handoff-tools/src/validate.js'

function readingOf(text: string): { headings: string[]; refused: number[] } {
  const { body, refusals } = bodyLinesOf(linesOf(text).lines, 0)
  return { headings: body.flatMap((l) => (l.kind === 'heading' ? [`${l.line} ${l.depth} ${l.text}`] : [])), refused: refusals.map((r) => r.line) }
}

function remarkHeadingsOf(text: string): string[] {
  return parseMarkdown(text).children.flatMap((n) => (n.type === 'heading' ? [`${n.position?.start.line} ${n.depth} ${plainTextOf(n)}`] : []))
}

/** Each corner, and the line the reader refuses (undefined: it reads it as remark does). */
const CORNERS: readonly [string, string, number | undefined][] = [
  ['a setext underline under text', 'Goal\n---\n\ntext', 2],
  ['an `=` underline under text', 'Goal\n===\n', 2],
  ['a single `-` under text', 'Goal\n-\n', 2],
  ['a thematic break after a blank line', 'text\n\n---\n## Goal\nx', undefined],
  ['a heading after one to three spaces', '   ## Goal\nx', 1],
  ['a heading after a tab', '\t## Goal\nx', undefined],
  ['a heading after a space and a tab', ' \t## Goal\nx', undefined],
  ['a heading in a quote', '> ## Goal\n> x\n\n## Next\ny', undefined],
  ['a heading in a list item', '- ## Goal\n  x\n\n## Next\ny', undefined],
  ['a heading in a closed fence', '```\n## Goal\n```\n## Next\ny', undefined],
  ['a heading in a longer fence closed by a short run', '````\n```\n## Goal\n````\n', undefined],
  ['an unclosed fence', '## Goal\nx\n```\n## Next\ny', 3],
  ['a backtick fence whose info string holds a backtick', '```x`\n## Goal\ny', undefined],
  ['a fence after blanks in a list item, closed at column 0', '- item\n  ```\n  code\n```\n## Goal\nx', 4],
  ['a fence after blanks closed more indented', '- item\n  ```\n  code\n     ```\n## Goal\nx', 4],
  ['a fence after blanks, every line as indented', '- item\n  ```\n  ## not a heading\n  ```\n## Goal\nx', undefined],
  ['a heading in a closed HTML comment', '<!--\n## Goal\n-->\n## Next\ny', undefined],
  ['a heading in an HTML comment opened after blanks', '- x\n  <!--\n## Goal\n-->\n', 3],
  ['`<!-->`, a whole comment', '<!-->\n## Goal\nx', undefined],
  ['a heading right under an HTML line', '<div>\n## Goal\n</div>\n\n## Next\ny', 2],
  ['a heading after an HTML block and a blank line', '<div>\nx\n</div>\n\n## Goal\ny', undefined],
  ['an HTML comment opened under an inline tag, which CommonMark opens', 'text\n<br/>\n<!-- x\n\n## Goal\n-->\n', 5],
  ['an HTML comment in a comment that may not be one', '<div>\n<!-- x\n\n<script>\n-->\n## Goal\n</script>\n', 4],
  ['a heading after a closed block inside an HTML block', '<details>\n<pre>\n</pre>\n## Goal\n\n', 4],
  ['a fence right under an HTML line', '<details>\n```\n## Goal\n```\n', 2],
  ['a heading with closing hashes', '## Goal ##\nx', undefined],
  ['an empty heading', '##\nx', undefined],
  ['a tab after the hashes', '##\tGoal\nx', undefined],
  ['seven hashes', '####### Goal\nx', undefined],
]

describe('each corner is refused, or read as remark reads it', () => {
  test.each(CORNERS)('%s', (_name, text, refusedLine) => {
    const { headings, refused } = readingOf(text)
    if (refusedLine === undefined) {
      expect(refused).toEqual([])
      expect(headings).toEqual(remarkHeadingsOf(text))
    } else expect(refused).toContain(refusedLine)
  })
})
