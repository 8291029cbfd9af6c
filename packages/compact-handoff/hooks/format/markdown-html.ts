// HTML blocks (CommonMark 4.6): which of the seven kinds a line opens and
// what line closes it. Only what decides block structure is read; the HTML
// itself is not parsed.
import { isAsciiAlnum, isAsciiLetter, isBlankFrom, skipBlanks } from './markdown-lines.js'

/** What ends an HTML block: a blank line (kinds 6 and 7), the closing tag of
 * any raw-text element (kind 1, whichever element opened it), or a line
 * holding the given text (kinds 2 to 5), that line included. */
export type HtmlEnd = { kind: 'blank line' } | { kind: 'raw closing tag' } | { kind: 'text'; text: string }

const RAW_TAGS = ['script', 'pre', 'style', 'textarea']

const BLOCK_TAGS = new Set(
  ('address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt ' +
    'fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link ' +
    'main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead ' +
    'title tr track ul').split(' '),
)

function tagNameEnd(s: string, from: number): number {
  let i = from
  if (!isAsciiLetter(s[i])) return from
  while (isAsciiAlnum(s[i]) || s[i] === '-') i++
  return i
}

function isAttributeNameStart(char: string | undefined): boolean {
  return isAsciiLetter(char) || char === '_' || char === ':'
}

function isAttributeNameChar(char: string | undefined): boolean {
  return isAsciiAlnum(char) || char === '_' || char === ':' || char === '.' || char === '-'
}

/** The end of an attribute value at `from`, or -1 when there is none. */
function attributeValueEnd(s: string, from: number): number {
  const quote = s[from]
  if (quote === '"' || quote === "'") {
    const close = s.indexOf(quote, from + 1)
    return close < 0 ? -1 : close + 1
  }
  let i = from
  while (i < s.length && s.charCodeAt(i) > 0x20 && !'"\'=<>`'.includes(s[i]!)) i++
  return i > from ? i : -1
}

/** Whether `s` is one complete open or closing tag and nothing but blanks after
 * it: what opens an HTML block of kind 7. */
function isCompleteTagLine(s: string): boolean {
  const closing = s[1] === '/'
  let i = tagNameEnd(s, closing ? 2 : 1)
  if (i === (closing ? 2 : 1)) return false
  if (closing) {
    i = skipBlanks(s, i)
    return s[i] === '>' && isBlankFrom(s, i + 1)
  }
  for (;;) {
    const afterBlanks = skipBlanks(s, i)
    if (afterBlanks === i || !isAttributeNameStart(s[afterBlanks])) {
      i = afterBlanks
      break
    }
    i = afterBlanks + 1
    while (isAttributeNameChar(s[i])) i++
    const beforeEquals = skipBlanks(s, i)
    if (s[beforeEquals] === '=') {
      const valueEnd = attributeValueEnd(s, skipBlanks(s, beforeEquals + 1))
      if (valueEnd < 0) return false
      i = valueEnd
    }
  }
  if (s[i] === '/') i++
  return s[i] === '>' && isBlankFrom(s, i + 1)
}

/** The HTML block `s` (a line from its `<`) opens: what closes it, and
 * whether it is kind 7 (a complete tag alone on its line), which cannot
 * interrupt a paragraph; undefined when it opens none. */
export function htmlBlockOf(s: string, mayBeCompleteTag: boolean): { end: HtmlEnd; isCompleteTag: boolean } | undefined {
  const lower = s.slice(0, 12).toLowerCase()
  const ending = (end: HtmlEnd) => ({ end, isCompleteTag: false })
  const endingAt = (text: string) => ending({ kind: 'text', text })
  for (const tag of RAW_TAGS) {
    const after = lower[tag.length + 1]
    if (lower.startsWith(`<${tag}`) && (after === undefined || after === ' ' || after === '\t' || after === '>')) return ending({ kind: 'raw closing tag' })
  }
  if (s.startsWith('<!--')) return endingAt('-->')
  if (s.startsWith('<?')) return endingAt('?>')
  if (s.startsWith('<!') && isAsciiLetter(s[2])) return endingAt('>')
  if (s.startsWith('<![CDATA[')) return endingAt(']]>')
  const nameStart = s[1] === '/' ? 2 : 1
  const nameEnd = tagNameEnd(s, nameStart)
  const after = s[nameEnd]
  const endsName = after === undefined || after === ' ' || after === '\t' || after === '>' || (after === '/' && s[nameEnd + 1] === '>')
  if (BLOCK_TAGS.has(s.slice(nameStart, nameEnd).toLowerCase()) && endsName) return ending({ kind: 'blank line' })
  return mayBeCompleteTag && isCompleteTagLine(s) ? { end: { kind: 'blank line' }, isCompleteTag: true } : undefined
}

export function closesHtmlBlock(end: HtmlEnd, rest: string): boolean {
  if (end.kind === 'blank line') return false
  if (end.kind === 'text') return rest.includes(end.text)
  const lower = rest.toLowerCase()
  return RAW_TAGS.some((tag) => lower.includes(`</${tag}>`))
}
