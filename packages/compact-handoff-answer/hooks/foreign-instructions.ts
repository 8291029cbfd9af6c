// What the engine's summariser is told on top of the person's instructions when
// it compacts the main loop (/compact or the threshold) instead of
// compact-handoff: where the newest handoff is, and the person's own words,
// which a summary would otherwise paraphrase or drop. Pure and free of
// 'claude-code' so vitest can load it under Node.

/** compact-handoff's recorded words as this mod reads them (its `words`). */
export type WordsView = { messages: readonly string[]; dropped: number }

/** compact-handoff's newest swap as this mod reads it (its `lastSwap`). */
export type SwapView = { kind: 'none' } | { kind: 'swapped'; handoff: string; plan?: string | undefined }

export type PartnerView = { words: WordsView; lastSwap: SwapView }

function handoffSectionOf(lastSwap: SwapView): string | undefined {
  if (lastSwap.kind !== 'swapped') return undefined
  const lines = [
    'The newest handoff file of this session, written by compact-handoff; name it in the summary so the next context can reopen it:',
    `Handoff file: ${lastSwap.handoff}`,
  ]
  if (lastSwap.plan !== undefined) lines.push(`Plan file: ${lastSwap.plan}`)
  return lines.join('\n')
}

// Worded like the section compact-handoff puts in its own stub, so the person's
// words read the same whichever way the context was compacted.
function wordsSectionOf(words: WordsView): string | undefined {
  if (words.messages.length === 0) return undefined
  const lines = [
    "The user's own messages in this session, verbatim and oldest first. Copy them into the summary word for word: they are the user's exact words and win over anything else in this context.",
  ]
  words.messages.forEach((message, i) => {
    lines.push(`[user message ${i + 1}]`, message)
    // compact-handoff always keeps the first message and drops from the second on.
    if (i === 0 && words.dropped > 0) lines.push(`[${words.dropped} earlier message(s) after this one were dropped here to keep the record bounded]`)
  })
  return lines.join('\n')
}

/**
 * The instructions to hand the engine, or undefined when there is nothing to
 * add (the compaction then goes on exactly as raised).
 *
 * The person's own instructions come first and unchanged: what they typed after
 * /compact is theirs to lead with.
 */
export function foreignInstructionsOf(own: string | undefined, partner: PartnerView): string | undefined {
  const sections = [handoffSectionOf(partner.lastSwap), wordsSectionOf(partner.words)].filter(
    (section): section is string => section !== undefined,
  )
  if (sections.length === 0) return undefined
  const added = ['compact-handoff-answer adds, so the summary keeps them:', ...sections].join('\n\n')
  return own === undefined || own.trim() === '' ? added : `${own}\n\n${added}`
}
