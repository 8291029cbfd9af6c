# Sourced by each case's scaffold.sh (not a case: it has no case.yaml). Builds "csvkit", a
# tiny CSV library, in the current directory (the eval run's empty working folder), at the
# point where the case's past session (its history.jsonl) stopped:
#
#   csvkit_project quoting [--plans]   RFC 4180 quoting half done: quoteField doubles only the
#                                      first embedded quote, and the new test for it fails
#   csvkit_project crlf --plans        quoting fixed and committed, an earlier handoff in
#                                      plans/handoffs/, a failing test for line breaks
#
# --plans adds a plans/ folder, which is what tells the handoff skills to write into
# plans/handoffs/ rather than .claude/handoffs/. Commits carry fixed authors and dates, so the
# hashes the histories quote are the hashes `git log` shows.

set -euo pipefail

csvkit_commit() {
  GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" \
    git -c user.name='Sam Rivera' -c user.email='sam@example.com' -c commit.gpgsign=false \
    commit -q -m "$2"
}

csvkit_project() {
  local stage=$1 plans=${2:-}
  git init -q -b main .

  mkdir -p src test
  cat > package.json <<'EOF'
{
  "name": "csvkit",
  "version": "0.3.0",
  "description": "Tiny CSV helpers: formatRow and parseRow",
  "type": "module",
  "exports": "./src/index.js",
  "scripts": { "test": "node --test" }
}
EOF
  cat > README.md <<'EOF'
# csvkit

Tiny CSV helpers with no dependencies.

```js
import { formatRow, parseRow } from 'csvkit'
formatRow(['a', 'b'])   // 'a,b'
parseRow('a,b')         // ['a', 'b']
```

Run the tests with `node --test`.
EOF
  cat > src/index.js <<'EOF'
export { formatRow } from './format.js'
export { parseRow } from './parse.js'
EOF
  cat > src/format.js <<'EOF'
// Formats one row of fields as a CSV line.

export function formatRow(fields) {
  return fields.map(String).join(',')
}
EOF
  cat > src/parse.js <<'EOF'
// Splits one CSV line into its fields.

export function parseRow(line) {
  return line.split(',')
}
EOF
  git add package.json README.md src
  csvkit_commit '2026-11-24T10:12:00+01:00' 'Add formatRow and parseRow'

  cat > test/format.test.js <<'EOF'
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { formatRow } from '../src/format.js'

test('joins plain fields with commas', () => {
  assert.equal(formatRow(['a', 'b', 'c']), 'a,b,c')
})
EOF
  git add test
  csvkit_commit '2026-11-24T10:40:00+01:00' 'Test formatRow on plain fields'

  if [ "$plans" = --plans ]; then
    mkdir -p plans
    cat > plans/roadmap.md <<'EOF'
# Roadmap

- 0.4: formatRow output follows RFC 4180 (quotes, commas, line breaks)
- 0.5: parseRow reads what formatRow writes
- 0.6: a streaming reader for large files
EOF
    git add plans
    csvkit_commit '2026-11-25T09:05:00+01:00' 'Add the roadmap'
  fi

  case $stage in
    quoting) csvkit_quoting_half_done ;;
    crlf) csvkit_quoting_done; csvkit_crlf_half_done ;;
    *) echo "csvkit_project: unknown stage $stage" >&2; return 2 ;;
  esac
}

# Uncommitted: quoteField added but it uses replace (first quote only), plus two new tests,
# one of which fails.
csvkit_quoting_half_done() {
  csvkit_write_quoting replace
}

# The quoting change: quoteField with the string method $1 (`replace` doubles the first
# quote only, `replaceAll` every one), and the two quoting tests appended.
csvkit_write_quoting() {
  cat > src/format.js <<'EOF'
// Formats one row of fields as a CSV line (RFC 4180 quoting).

function quoteField(value) {
  const field = String(value)
  if (!/[",]/.test(field)) return field
  return `"${field.REPLACE_METHOD('"', '""')}"`
}

export function formatRow(fields) {
  return fields.map(quoteField).join(',')
}
EOF
  sed -i "s/REPLACE_METHOD/$1/" src/format.js
  cat >> test/format.test.js <<'EOF'

test('quotes a field that holds a comma', () => {
  assert.equal(formatRow(['Smith, Jr.', 'x']), '"Smith, Jr.",x')
})

test('doubles embedded quotes', () => {
  assert.equal(formatRow(['say "hi"']), '"say ""hi"""')
})
EOF
}

# Committed: the quoting fix and the handoff that carried it across sessions.
csvkit_quoting_done() {
  mkdir -p plans/handoffs
  cat > plans/handoffs/HANDOFF_csv-quoting_2026-11-27.md <<'EOF'
---
kind: handoff
created: 2026-11-27T17:20:00+01:00
status: in-progress
chain: HANDOFF_csv-quoting_2026-11-27
seq: 1
parent: none
focus: none
---

# Handoff: RFC 4180 quoting in formatRow

## Goal
"formatRow breaks on fields with commas or quotes ... Please fix it so the output follows RFC 4180."

## Constraints
- Do not change the signature of formatRow: other packages call it.
- Use the built-in node test runner only, no new dependencies.
- Always run `node --test` before you tell me something works.

## State
- [verified] a field holding a comma is quoted - `node --test` -> "quotes a field that holds a comma" passes
- [unverified] parseRow in src/parse.js handles quoted fields; it was said, never tested

## In progress
src/format.js quoteField: wraps the field in quotes but doubles only the first embedded quote. Uncommitted.

## Tried and ruled out
- `field.replace('"', '""')`: replaces only the first quote; "doubles embedded quotes" fails with `'"say ""hi""' !== '"say ""hi"""'`.

## Decisions
- Quote only fields that need it (comma, quote, line break), not every field (Sam).

## Open questions
- Should formatRow also quote fields with leading or trailing spaces? Asked Sam; no answer yet.

## Files
Changed, uncommitted: src/format.js, test/format.test.js.
Reopen first (at most 5, most important first):
1. `src/format.js`
2. `test/format.test.js`

## Next step
In src/format.js, make quoteField use `field.replaceAll('"', '""')`, then run `node --test`.

## Verify
- `git status --short` -> ` M src/format.js` and ` M test/format.test.js`
- `node --test` -> 2 pass, 1 fail ("doubles embedded quotes")
EOF
  git add plans/handoffs
  csvkit_commit '2026-11-27T17:25:00+01:00' 'Hand off the quoting work'

  csvkit_write_quoting replaceAll
  git add src test
  csvkit_commit '2026-11-28T10:02:00+01:00' 'Quote fields per RFC 4180'
}

# Uncommitted: a test for fields holding line breaks, which fails because quoteField does not
# look for \r or \n yet.
csvkit_crlf_half_done() {
  cat >> test/format.test.js <<'EOF'

test('quotes a field that holds a line break', () => {
  assert.equal(formatRow(['two\r\nlines', 'x']), '"two\r\nlines",x')
})
EOF
}
