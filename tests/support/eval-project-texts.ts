/**
 * What the csv project (skills/evals/_project) held and printed at the moments the past
 * sessions in eval-histories.ts look at it: src/format.js before and halfway through the
 * quoting fix, the tests added to test/format.test.js, and `node --test` output. Both quoting
 * sessions and the continuation read the same files, so each text is written once here.
 * csvkit.sh writes the same source and tests for the scaffolds and no test compares the two:
 * keep them in step by hand.
 *
 * Pure: no file system.
 */

export const FORMAT_BEFORE = `// Formats one row of fields as a CSV line.

export function formatRow(fields) {
  return fields.map(String).join(',')
}
`

export const FORMAT_HALF_DONE = `// Formats one row of fields as a CSV line (RFC 4180 quoting).

function quoteField(value) {
  const field = String(value)
  if (!/[",]/.test(field)) return field
  return \`"\${field.replace('"', '""')}"\`
}

export function formatRow(fields) {
  return fields.map(quoteField).join(',')
}
`

export const QUOTE_TESTS = `

test('quotes a field that holds a comma', () => {
  assert.equal(formatRow(['Smith, Jr.', 'x']), '"Smith, Jr.",x')
})

test('doubles embedded quotes', () => {
  assert.equal(formatRow(['say "hi"']), '"say ""hi"""')
})
`

export const LINE_BREAK_TEST = `

test('quotes a field that holds a line break', () => {
  assert.equal(formatRow(['two\\r\\nlines', 'x']), '"two\\r\\nlines",x')
})
`

/** The Read tool's answer: the file with right-aligned line numbers and a tab. */
export function numbered(text: string): string {
  return text
    .replace(/\n$/, '')
    .split('\n')
    .map((line, i) => `${String(i + 1).padStart(6)}\t${line}`)
    .join('\n')
}

export function testRun(pass: number, failures: Array<{ n: number; name: string; expected: string; actual: string }>): string {
  const lines: string[] = []
  let n = 0
  const names = ['joins plain fields with commas', 'quotes a field that holds a comma', 'doubles embedded quotes', 'quotes a field that holds a line break']
  for (const name of names.slice(0, pass + failures.length)) {
    n++
    const failure = failures.find((f) => f.n === n)
    if (failure === undefined) {
      lines.push(`ok ${n} - ${name}`)
      continue
    }
    lines.push(
      `not ok ${n} - ${failure.name}`,
      '  ---',
      "  failureType: 'testCodeFailure'",
      '  error: |-',
      '    Expected values to be strictly equal:',
      '    + actual - expected',
      `    + ${failure.actual}`,
      `    - ${failure.expected}`,
      "  code: 'ERR_ASSERTION'",
      '  ...',
    )
  }
  lines.push(`1..${n}`, `# tests ${n}`, `# pass ${pass}`, `# fail ${failures.length}`)
  return lines.join('\n')
}

export const QUOTE_FAILURE = { n: 3, name: 'doubles embedded quotes', expected: `'"say ""hi"""'`, actual: `'"say ""hi""'` }
