// What the engine's summariser is told on top of the person's instructions when
// it compacts the main loop (/compact or the threshold) instead of
// compact-handoff: where the newest handoff is, the person's own words and the
// work's facts, which a summary would otherwise paraphrase or drop, and the
// handoff's section outline, so the summary comes out in a handoff's shape.
// Pure and free of 'claude-code' so vitest can load it under Node.
import { factsSectionOf, type FactsView } from './facts.js'
import { OUTLINE } from './outline.js'

/** compact-handoff's recorded words as this mod reads them (its `words`). */
export type WordsView = { messages: readonly string[]; dropped: number }

/** compact-handoff's newest swap as this mod reads it (its `lastSwap`). */
export type SwapView = { kind: 'none' } | { kind: 'swapped'; handoff: string; plan?: string | undefined }

/** What compact-handoff's state adds. `facts` holds paths as the section shows
 * them (facts.ts shownFactsOf); absent, none were recorded. */
export type PartnerView = { words: WordsView; lastSwap: SwapView; facts?: FactsView | undefined }

/** compact-handoff's bound on all kept messages together (user-words.ts
 * MAX_WORDS_CHARS), which the dropped note names. */
const MAX_WORDS_CHARS = 12_000

function handoffSectionOf(lastSwap: SwapView): string | undefined {
  if (lastSwap.kind !== 'swapped') return undefined
  const lines = [
    'The newest handoff file of this session, written by compact-handoff; name it in the summary so the next context can reopen it:',
    `Handoff file: ${lastSwap.handoff}`,
  ]
  if (lastSwap.plan !== undefined) lines.push(`Plan file: ${lastSwap.plan}`)
  return lines.join('\n')
}

/**
 * The person's words, worded exactly as compact-handoff's stub words them
 * (user-words.ts userWordsSectionOf), so they read the same whichever way the
 * context was compacted; tests/contract/answer-sections-agree.test.ts holds the two equal.
 */
export function wordsSectionOf(words: WordsView): string | undefined {
  if (words.messages.length === 0) return undefined
  const lines = [
    "The user's own messages in this session, verbatim and oldest first. They are the user's exact words and win over anything else in this context:",
  ]
  words.messages.forEach((message, i) => {
    lines.push(`[user message ${i + 1}]`, message)
    // compact-handoff always keeps the first message and drops from the second on.
    if (i === 0 && words.dropped > 0) lines.push(`[${words.dropped} earlier message(s) after this one were dropped here to stay within ${MAX_WORDS_CHARS} characters]`)
  })
  return lines.join('\n')
}

function hasText(own: string | undefined): own is string {
  return own !== undefined && own.trim() !== ''
}

/**
 * The person's instructions followed by what compact-handoff's state adds (the
 * handoff pointer, their words, the work's facts), or undefined when the state
 * adds nothing.
 *
 * The person's own instructions come first and unchanged: what they typed after
 * /compact is theirs to lead with.
 */
export function foreignInstructionsOf(own: string | undefined, partner: PartnerView): string | undefined {
  const sections = [
    handoffSectionOf(partner.lastSwap),
    wordsSectionOf(partner.words),
    partner.facts === undefined ? undefined : factsSectionOf(partner.facts),
  ].filter((section): section is string => section !== undefined)
  if (sections.length === 0) return undefined
  const added = ['compact-handoff-answer adds, so the summary keeps them:', ...sections].join('\n\n')
  return hasText(own) ? `${own}\n\n${added}` : added
}

/**
 * The whole instructions of a main-loop compaction that is not ours: the
 * person's own first, then what compact-handoff's state adds, then the
 * handoff's outline. Never undefined: the outline always goes.
 */
export function summaryInstructionsOf(own: string | undefined, partner: PartnerView): string {
  const led = foreignInstructionsOf(own, partner) ?? (hasText(own) ? own : undefined)
  return led === undefined ? OUTLINE : `${led}\n\n${OUTLINE}`
}
