// Imports inside each mod's hooks tree flow one way, across its folders too.
// A cycle makes the order in which the engine evaluates the files depend on
// which one it loads first, so a top-level constant can be read before it is
// set; and a cycle usually means two files each hold half of one concern. Type-only imports count too: they
// are where a shared shape was left in the wrong file.
import { describe, expect, test } from 'vitest'
import { hooksModulesOf, importedPathOf } from '../support/hooks-tree.js'

const MODS = ['packages/compact-handoff', 'packages/compact-handoff-answer']

type Graph = Map<string, string[]>

/** Each module of a mod's hooks tree (path inside `hooks/`, without `.ts`)
 * and the modules it imports, across folders. */
function graphOf(mod: string): Graph {
  const graph: Graph = new Map()
  for (const m of hooksModulesOf(mod)) {
    const imported = m.specifiers.map((s) => importedPathOf(m.path, s)).filter((p) => p !== undefined)
    graph.set(m.path.slice(0, -'.ts'.length), imported.map((p) => p.slice(0, -'.ts'.length)))
  }
  return graph
}

/** Every file's path back to itself, each cycle once, named as `a → b → a`
 * (starting from its alphabetically first file). Depth-first, iterative, so a
 * deep chain cannot overflow the stack. */
function cyclesOf(graph: Graph): string[] {
  const found = new Set<string>()
  const done = new Set<string>()
  for (const start of [...graph.keys()].sort()) {
    if (done.has(start)) continue
    const path: string[] = []
    const onPath = new Set<string>()
    const stack: { node: string; next: number }[] = [{ node: start, next: 0 }]
    path.push(start)
    onPath.add(start)
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!
      const edges = graph.get(top.node) ?? []
      if (top.next >= edges.length) {
        stack.pop()
        path.pop()
        onPath.delete(top.node)
        done.add(top.node)
        continue
      }
      const to = edges[top.next++]!
      if (onPath.has(to)) {
        const loop = path.slice(path.indexOf(to))
        const first = loop.indexOf([...loop].sort()[0]!)
        const rotated = [...loop.slice(first), ...loop.slice(0, first)]
        found.add([...rotated, rotated[0]].join(' → '))
      } else if (!done.has(to) && graph.has(to)) {
        stack.push({ node: to, next: 0 })
        path.push(to)
        onPath.add(to)
      }
    }
  }
  return [...found].sort()
}

describe('cyclesOf', () => {
  test('names a cycle from its first file, once', () => {
    const graph: Graph = new Map([
      ['turn-steps', ['auto-handoff-steps']],
      ['auto-handoff-steps', ['command-steps', 'state']],
      ['command-steps', ['turn-steps', 'state']],
      ['state', []],
    ])
    expect(cyclesOf(graph)).toEqual(['auto-handoff-steps → command-steps → turn-steps → auto-handoff-steps'])
  })

  test('finds a file importing itself and leaves a diamond alone', () => {
    expect(cyclesOf(new Map([['a', ['a']]]))).toEqual(['a → a'])
    expect(cyclesOf(new Map([['a', ['b', 'c']], ['b', ['d']], ['c', ['d']], ['d', []]]))).toEqual([])
  })
})

describe.each(MODS)('%s/hooks', (mod) => {
  const graph = graphOf(mod)

  test('has files with relative imports to check', () => {
    expect([...graph.values()].some((edges) => edges.length > 0)).toBe(true)
  })

  test('has no import cycle', () => {
    expect(cyclesOf(graph), 'each line is a cycle: move the shared piece so imports flow one way').toEqual([])
  })
})
