import { describe, expect, test, type Engine } from 'claude-code/testing'
import type { On } from 'claude-code'
import { HANDOFF, world } from '../support/world.js'
import { skillWritesHandoff, startSession, typeAndLaunch } from '../support/flow.js'

/** What the rows beneath were asked to draw, as the engine's own drawing would take them. */
function drawnBeneath(on: On): string[] {
  const drawn: string[] = []
  on('ui.render', { component: 'UserMessage' }, (_$, e) => {
    drawn.push(e.props.text)
    return { type: 'Text', props: {}, children: [e.props.text] } as never
  })
  return drawn
}

/** A user row as the engine draws it: a row a compaction hook installed, and a slash
 * command's, are `unclassified`; a typed prompt's is `composer` (seen live, 2.1.332). */
async function drawRow($: Engine, text: string, isExpanded = false, origin: 'unclassified' | 'composer' = 'unclassified'): Promise<void> {
  await $.ui.render({ surface: 'terminal', component: 'UserMessage', requestId: `m-${text.length}`, props: { text, origin: { kind: origin }, isExpanded }, viewport: { columns: 80, rows: 40 } } as never)
}

/** A swap, and the stub it handed to the compaction. */
async function swapped($: Engine, on: On): Promise<string> {
  const w = world(on)
  await startSession($)
  await typeAndLaunch($, w, 'compact-handoff', 'finish the parser')
  await skillWritesHandoff($, w)
  const instructions = w.seen.compactions[0]?.instructions ?? ''
  return instructions.slice(instructions.indexOf('\n') + 1)
}

describe("the stub's row", () => {
  test('after a swap is one line naming the handoff, fitted to the width', async ($, on) => {
    const drawn = drawnBeneath(on)
    const stub = await swapped($, on)
    await drawRow($, stub)
    const line = drawn.at(-1) ?? ''
    expect(line).toMatch(/^compact-handoff: (the conversation is now|swapped to) .*\(\d+(\.\d)? (B|KB)\) · ctrl\+o/)
    expect(line).toContain(HANDOFF.slice(HANDOFF.lastIndexOf('/') + 1).slice(-20))
    expect(line.length).toBeLessThanOrEqual(77)
  })

  test('is drawn whole under ctrl+o', async ($, on) => {
    const drawn = drawnBeneath(on)
    const stub = await swapped($, on)
    await drawRow($, stub, true)
    expect(drawn.at(-1)).toBe(stub)
  })

  test('leaves a typed row that begins with the stub\'s words, or holds more than a stub, as it is', async ($, on) => {
    const drawn = drawnBeneath(on)
    const stub = await swapped($, on)
    const typed = [stub.split('\n')[0]!, `${stub}\nand one more line`, stub.slice(0, -1)]
    for (const text of typed) await drawRow($, text)
    expect(drawn.slice(-typed.length)).toEqual(typed)
  })

  test('leaves a typed row as it is, even one holding a stub whole', async ($, on) => {
    const drawn = drawnBeneath(on)
    const stub = await swapped($, on)
    await drawRow($, stub, false, 'composer')
    expect(drawn.at(-1), 'a typed row never reaches the hook, so costs no hop to the worker').toBe(stub)
  })

  test('leaves every row as it is before any stub was installed', async ($, on) => {
    const drawn = drawnBeneath(on)
    world(on)
    await startSession($)
    await drawRow($, 'ask ONE: fix the parser')
    expect(drawn).toEqual(['ask ONE: fix the parser'])
  })
})
