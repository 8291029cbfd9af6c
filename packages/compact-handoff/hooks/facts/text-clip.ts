// Cutting a text to a length, for what a record keeps and for what the engine's
// masking takes. Counted in UTF-16 code units (`text.length`), the unit the
// engine's own limits use.

/** The engine's `$.session.redact` rejects a longer text (its declarations). */
export const MAX_REDACT_CHARS = 100_000

/** The first `maxChars` code units of `text`, one fewer when the cut would
 * split a surrogate pair (half a character is no character). */
export function headOf(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  const code = text.charCodeAt(maxChars - 1)
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? maxChars - 1 : maxChars)
}

/** `text` as `$.session.redact` takes it: whole, or the head of a longer one.
 * Every record keeps far less than this of a text's head, and masks before it
 * clips, so a credential is never cut short of the masking. */
export function redactableOf(text: string): string {
  return headOf(text, MAX_REDACT_CHARS)
}

/** `head` and then as many whole `lines` as fit in `maxChars` (newlines
 * counted), with `moreMark` after the last one kept when any is left out: a
 * stub's section never grows past its bound, and says when it cut. */
export function boundedSectionOf(head: string, lines: readonly string[], maxChars: number, moreMark: string): string {
  const kept = [head]
  let size = head.length
  for (const line of lines) {
    if (size + line.length + 1 > maxChars) {
      kept.push(moreMark)
      break
    }
    kept.push(line)
    size += line.length + 1
  }
  return kept.join('\n')
}
