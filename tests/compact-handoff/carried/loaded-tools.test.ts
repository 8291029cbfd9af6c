import { expect, test } from 'vitest'
import { loadedToolsOf, loadedToolsSectionOf, MAX_LOADED_TOOLS, withToolsLoaded } from '../../../packages/compact-handoff/hooks/carried/carried.js'

test("loadedToolsOf: a ToolSearch result's matches, one-word names only", () => {
  expect(loadedToolsOf({ matches: ['WebFetch', 'mcp__git__log', '', 'two words', 'new\nline', 3], query: 'x' })).toEqual(['WebFetch', 'mcp__git__log'])
  expect(loadedToolsOf('No tools matched')).toEqual([])
  expect(loadedToolsOf({ matches: 'WebFetch' })).toEqual([])
})

test('withToolsLoaded: each name once, the newest last, bounded', () => {
  expect(withToolsLoaded(['A', 'B'], ['A', 'C'])).toEqual(['B', 'A', 'C'])
  const many = withToolsLoaded([], Array.from({ length: MAX_LOADED_TOOLS + 5 }, (_, i) => `T${i}`))
  expect(many).toHaveLength(MAX_LOADED_TOOLS)
  expect(many[0]).toBe('T5')
})

test('loadedToolsSectionOf: none for none; the names and the query to load them again', () => {
  expect(loadedToolsSectionOf([])).toBeUndefined()
  expect(loadedToolsSectionOf(['WebFetch', 'CronCreate'])).toContain('ToolSearch (query "select:WebFetch,CronCreate")')
})
