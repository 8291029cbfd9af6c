// A flat reader for the one-line `key: value` pairs a frontmatter holds. It
// accepts a subset of what YAML accepts and reads it as YAML does; anything
// else (a nested structure, a multi-line or block value, a tag, an anchor, a
// character YAML does not print) is refused rather than misread.
import { isBlankFrom, isSpaceOrTab, linesOf, skipBlanks, trimBlanksEnd } from './handoff-markdown.js'
import type { RuleProblem } from '../protocol/protocol-contents.js'

/** Whether the UTF-16 unit at `i` is one YAML may hold in a scalar (c-printable,
 * tab included, byte-order mark excluded); a lone surrogate is not. */
function isPrintableAt(s: string, i: number): boolean {
  const code = s.charCodeAt(i)
  if (code === 0x09) return true
  if (code < 0x20 || code === 0x7f || (code >= 0x80 && code <= 0x9f && code !== 0x85)) return false
  if (code === 0xfeff || code === 0xfffe || code === 0xffff) return false
  if (code >= 0xd800 && code <= 0xdbff) return (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00
  if (code >= 0xdc00 && code <= 0xdfff) return (s.charCodeAt(i - 1) & 0xfc00) === 0xd800
  return true
}

/** After a quoted scalar: nothing, or blanks and a comment. */
function endsCleanly(raw: string, from: number): boolean {
  return from === raw.length || (isSpaceOrTab(raw[from]) && raw[skipBlanks(raw, from)] === '#')
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b', ' ': ' ',
  '"': '"', '/': '/', '\\': '\\', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
}
const HEX_ESCAPE_DIGITS: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 }

/** A double-quoted YAML escape at `raw[at]` (the backslash): its text and where it ends. */
function escapeAt(raw: string, at: number): { text: string; end: number } | undefined {
  const letter = raw[at + 1] ?? ''
  const simple = SIMPLE_ESCAPES[letter]
  if (simple !== undefined) return { text: simple, end: at + 2 }
  const digits = HEX_ESCAPE_DIGITS[letter]
  if (digits === undefined) return undefined
  const hex = raw.slice(at + 2, at + 2 + digits)
  if (hex.length !== digits || !/^[0-9a-fA-F]+$/.test(hex)) return undefined
  const code = parseInt(hex, 16)
  return code > 0x10ffff ? undefined : { text: String.fromCodePoint(code), end: at + 2 + digits }
}

function doubleQuotedOf(raw: string): string | undefined {
  const parts: string[] = []
  let from = 1
  for (let i = 1; i < raw.length; i++) {
    const char = raw[i]
    if (char === '"') return endsCleanly(raw, i + 1) ? [...parts, raw.slice(from, i)].join('') : undefined
    if (char === '\\') {
      const escape = escapeAt(raw, i)
      if (!escape) return undefined
      parts.push(raw.slice(from, i), escape.text)
      from = escape.end
      i = escape.end - 1
    } else if (!isPrintableAt(raw, i)) return undefined
  }
  return undefined
}

function singleQuotedOf(raw: string): string | undefined {
  const parts: string[] = []
  let from = 1
  for (let i = 1; i < raw.length; i++) {
    if (raw[i] === "'") {
      parts.push(raw.slice(from, i))
      if (raw[i + 1] !== "'") return endsCleanly(raw, i + 1) ? parts.join('') : undefined
      parts.push("'")
      from = i + 2
      i++
    } else if (!isPrintableAt(raw, i)) return undefined
  }
  return undefined
}

/** Characters that cannot start a plain YAML scalar; `-`, `?` and `:` can when
 * a non-blank follows. */
const YAML_INDICATORS = new Set(['-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`'])

function plainOf(raw: string): string | undefined {
  const first = raw[0]!
  const isIndicatorStart = YAML_INDICATORS.has(first) && !('-?:'.includes(first) && raw.length > 1 && !isSpaceOrTab(raw[1]))
  if (isIndicatorStart) return undefined
  let end = raw.length
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === '#' && isSpaceOrTab(raw[i - 1])) {
      end = i
      break
    }
    const isMappingColon = raw[i] === ':' && (i + 1 === raw.length || isSpaceOrTab(raw[i + 1]))
    if (isMappingColon || !isPrintableAt(raw, i)) return undefined
  }
  return trimBlanksEnd(raw.slice(0, end))
}

/** A value as YAML reads it: '' for none (YAML's null), undefined when this
 * reader does not take it. `raw` has no blanks at either end. */
function scalarOf(raw: string): string | undefined {
  if (raw === '' || raw[0] === '#') return ''
  if (raw[0] === '"') return doubleQuotedOf(raw)
  if (raw[0] === "'") return singleQuotedOf(raw)
  return plainOf(raw)
}

/** A key: an ASCII letter or `_`, then letters, digits, `_` and `-`. Anchored, one repeat: linear. */
const KEY_RE = /^[A-Za-z_][\w-]*/

function keyValueOf(line: string): { key: string; value: string } | undefined {
  const key = KEY_RE.exec(line)?.[0]
  if (key === undefined || line[key.length] !== ':') return undefined
  const afterColon = key.length + 1
  if (afterColon < line.length && !isSpaceOrTab(line[afterColon])) return undefined
  const value = scalarOf(trimBlanksEnd(line.slice(skipBlanks(line, afterColon))))
  return value === undefined ? undefined : { key, value }
}

/** remark-frontmatter's fence: exactly three dashes, then only blanks. */
function isFrontmatterFence(line: string | undefined): boolean {
  return line !== undefined && line.startsWith('---') && isBlankFrom(line, 3)
}

/** `keyLines`: the 1-based line each key is first on. */
export type Frontmatter = { fields: Map<string, string>; keyLines: Map<string, number>; bodyStart: number }

/** The frontmatter of a file split by handoff-markdown.ts' linesOf (byte-order
 * mark already dropped): its one-line `key: value` fields and the line the
 * body starts on, or undefined when there is none. What it cannot read is
 * pushed onto `problems`. */
function readFrontmatter({ lines, ends }: { lines: readonly string[]; ends: readonly string[] }, problems: RuleProblem[]): Frontmatter | undefined {
  if (!isFrontmatterFence(lines[0])) {
    problems.push({ rule: 'frontmatter-missing', line: 1, message: 'has no frontmatter: start the file with a "---" line, the kind\'s keys, and a closing "---" line' })
    return undefined
  }
  const close = lines.findIndex((line, i) => i > 0 && isFrontmatterFence(line))
  if (close < 0) {
    // remark-frontmatter reads an unclosed fence as no frontmatter at all.
    problems.push({ rule: 'frontmatter-missing', line: 1, message: 'frontmatter is never closed: add a "---" line after its last key' })
    return undefined
  }
  // Markdown ends a line at a lone CR, YAML does not: the YAML reader would
  // see one long line where this reader sees several.
  const loneCr = ends.slice(0, close).indexOf('\r')
  if (loneCr >= 0) problems.push({ rule: 'frontmatter-line-end', line: loneCr + 1, message: `frontmatter line ${loneCr + 1} ends in a lone carriage return: end lines with LF or CRLF` })
  const fields = new Map<string, string>()
  const keyLines = new Map<string, number>()
  for (let i = 1; i < close; i++) {
    const line = lines[i] ?? ''
    const first = skipBlanks(line, 0)
    if (first === line.length || line[first] === '#') continue
    const pair = keyValueOf(line)
    if (!pair) {
      problems.push({ rule: 'frontmatter-unread', line: i + 1, message: `frontmatter line ${i + 1} is not a "key: value" pair: write each key on one line with a plain or quoted value` })
      continue
    }
    if (fields.has(pair.key)) problems.push({ rule: 'frontmatter-yaml', line: i + 1, message: `frontmatter key "${pair.key}" appears twice: keep one` })
    fields.set(pair.key, pair.value)
    if (!keyLines.has(pair.key)) keyLines.set(pair.key, i + 1)
  }
  return { fields, keyLines, bodyStart: close + 1 }
}

/** readFrontmatter over a whole file's text (a byte-order mark allowed), with
 * the lines it split the text into. The one frontmatter reader of the mod,
 * the CLI and the format check. */
export function readFrontmatterOf(text: string): { lines: string[]; frontmatter: Frontmatter | undefined; problems: RuleProblem[] } {
  const problems: RuleProblem[] = []
  const split = linesOf(text.replace(/^\uFEFF/, ''))
  return { lines: split.lines, frontmatter: readFrontmatter(split, problems), problems }
}

/** The frontmatter's fields, or undefined when the text has none that reads
 * cleanly: how the mod learns a parent handoff's chain and seq, or a file's status. */
export function frontmatterOf(text: string): ReadonlyMap<string, string> | undefined {
  const { frontmatter, problems } = readFrontmatterOf(text)
  return frontmatter !== undefined && problems.length === 0 ? frontmatter.fields : undefined
}
