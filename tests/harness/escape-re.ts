/** `s` as a RegExp source that matches it literally (mod ids hold `.`, `@`, `-`). */
export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
