// A variant for the differential test: a generated document or a good
// fixture, with 1 to 4 mutations. The order in which this draws from `rand`
// is what a FORMAT_SEED means, so a change here that draws differently makes
// every recorded failing seed replay something else.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FileKind } from '../../packages/compact-handoff/hooks/protocol/protocol-paths.js'
import { handoffOf, planOf, render } from './format-documents.js'
import { DOC_MUTATIONS, TEXT_MUTATIONS, type Intent, type TextMutation } from './format-mutations.js'
import type { Rand } from './property.js'

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'handoffs')
const GOOD_FIXTURES: readonly { kind: FileKind; text: string }[] = ['handoff', 'continuation', 'code-blocks', 'plan', 'bom', 'crlf'].map((name) => ({
  kind: (JSON.parse(readFileSync(join(FIXTURES, name, 'expected.json'), 'utf8')) as { kind: FileKind }).kind,
  text: readFileSync(join(FIXTURES, name, 'input.md'), 'utf8'),
}))

export type Variant = { kind: FileKind; text: string; mutations: string[] }

/** A generated document or a good fixture, with 1 to 4 mutations of `intent`
 * (`any` draws from all). Fixtures take only the text mutations. */
export function variantOf(rand: Rand, intent: Intent): Variant {
  const docMutations = DOC_MUTATIONS.filter((m) => intent === 'any' || m.intent === 'keeps')
  const textMutations = TEXT_MUTATIONS.filter((m) => intent === 'any' || m.intent === 'keeps')
  const count = 1 + rand.int(4)
  const mutations: string[] = []
  if (rand.int(6) === 0) {
    const fixture = rand.pick(GOOD_FIXTURES)
    let text = fixture.text
    for (let i = 0; i < count; i++) {
      const mutation = rand.pick(textMutations)
      text = mutation.apply(text, rand)
      mutations.push(mutation.name)
    }
    return { kind: fixture.kind, text, mutations: ['fixture', ...mutations] }
  }
  let doc = rand.int(3) === 0 ? planOf(rand) : handoffOf(rand)
  const textSteps: TextMutation[] = []
  for (let i = 0; i < count; i++) {
    if (rand.int(3) === 0) textSteps.push(rand.pick(textMutations))
    else {
      const mutation = rand.pick(docMutations)
      doc = mutation.apply({ ...doc, sections: doc.sections.map((s) => ({ ...s })) }, rand)
      mutations.push(mutation.name)
    }
  }
  let text = render(doc)
  for (const mutation of textSteps) {
    text = mutation.apply(text, rand)
    mutations.push(mutation.name)
  }
  return { kind: doc.kind, text, mutations }
}
