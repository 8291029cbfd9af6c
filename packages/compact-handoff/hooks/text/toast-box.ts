// The toast box as the terminal draws it (2.1.332, seen live at 80 and at 160
// columns alike): 40 cells of text across, at most 3 lines, wrapped at spaces;
// a word that does not fit the line's rest starts the next line, one longer
// than a line is broken, and whatever is past the third line is cut with "…".
// A toast of this mod is written to read whole in it: the most important words
// first, a path shortened from the left.
import { tailOf } from './text-clip.js'

export const TOAST_COLUMNS = 40
export const TOAST_LINES = 3

/** The lines the box wraps `text` into, all of them (the box shows the first {@link TOAST_LINES}). */
export function toastLinesOf(text: string): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (word === '') continue
    if (line !== '' && line.length + 1 + word.length <= TOAST_COLUMNS) {
      line += ` ${word}`
      continue
    }
    if (line !== '') lines.push(line)
    let rest = word
    while (rest.length > TOAST_COLUMNS) {
      lines.push(rest.slice(0, TOAST_COLUMNS))
      rest = rest.slice(TOAST_COLUMNS)
    }
    line = rest
  }
  if (line !== '') lines.push(line)
  return lines
}

/** Whether the box shows `text` whole. */
export function fitsToast(text: string): boolean {
  return toastLinesOf(text).length <= TOAST_LINES
}

/** A path never shortened below this: its file's date and extension. */
const MIN_PATH_CHARS = 16

/** `make(path)` with `path` as long as the box lets it be: whole, else
 * shortened from the left (tailOf) until the toast fits. Bounded: at most one
 * wrap of a short text per character the path loses. */
export function toastWithPath(make: (path: string) => string, path: string): string {
  const whole = make(path)
  if (fitsToast(whole)) return whole
  for (let chars = Math.min(path.length - 1, TOAST_COLUMNS); chars > MIN_PATH_CHARS; chars--) {
    const text = make(tailOf(path, chars))
    if (fitsToast(text)) return text
  }
  return make(tailOf(path, MIN_PATH_CHARS))
}
