import { isDeepStrictEqual } from 'node:util'
import { describe, expect, test } from 'vitest'
import { bundledRows } from './bundled-datasets.ts'
import { copies } from './copies.ts'

// What makes the offline CRAWL suite pass: for every single-turn row of the bundled CRAWL dataset,
// the offline inference over the visible input makes the row's first required call (its expected
// arguments are a subset of the inferred ones), or no call when the row requires none.
const crawlRows = (await bundledRows()).filter(
  (row) => row.file.includes('/crawl/') && row.scenario.interaction === 'single_turn',
)

describe.each(copies)('$label offline inference over the CRAWL dataset', (copy) => {
  test('covers the bundled rows', () => {
    expect(crawlRows.length).toBeGreaterThanOrEqual(21)
  })

  test.each(crawlRows.map((row) => [row.scenario.id, row] as const))('%s', (_id, row) => {
    const behaviour = new copy.RestaurantOfflineBehaviour({
      conversationContext: row.conversationContext,
      initialState: row.visible.initialState,
    })
    const inferred = behaviour.inferToolCall(row.visible.inputText)
    const expected = row.scenario.expected.tools.required[0]
    if (expected === undefined) {
      expect(inferred, 'a tool-free row must infer no call').toBeNull()
      return
    }
    expect(inferred?.name).toBe(expected.name)
    for (const [key, value] of Object.entries(expected.arguments)) {
      expect(isDeepStrictEqual(inferred?.arguments[key], value), `argument ${key}`).toBe(true)
    }
  })
})
