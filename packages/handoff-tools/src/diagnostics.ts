// Problems as data, in vfile-message's shape, so a check reports every problem
// of a file in one pass and callers choose how to print them.

export type Diagnostic = { ruleId: string; reason: string; line: number; column: number }

export type Position = { line: number; column: number }

export const START: Position = { line: 1, column: 1 }

export function diagnostic(ruleId: string, reason: string, at: Position = START): Diagnostic {
  return { ruleId, reason, line: at.line, column: at.column }
}
