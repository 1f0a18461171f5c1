import fc from 'fast-check'
import { expect, test } from 'vitest'
import { itemsOfShard, ShardSchema } from './shard.ts'

test('shards are contiguous blocks in order, sizes differing by at most one, together the whole list', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 12 }), (length, count) => {
      const items = Array.from({ length }, (_, index) => index)
      const blocks = Array.from({ length: count }, (_, index) =>
        itemsOfShard(items, { index: index + 1, count }),
      )
      expect(blocks.flat()).toEqual(items)
      const sizes = blocks.map((block) => block.length)
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1)
    }),
  )
})

test('an unsharded run keeps every item; more shards than items leaves the last ones empty', () => {
  expect(itemsOfShard(['a', 'b'], null)).toEqual(['a', 'b'])
  expect(itemsOfShard(['a', 'b'], { index: 2, count: 3 })).toEqual(['b'])
  expect(itemsOfShard(['a', 'b'], { index: 3, count: 3 })).toEqual([])
})

test('a shard index beyond the count is not a shard', () => {
  expect(ShardSchema.safeParse({ index: 3, count: 2 }).success).toBe(false)
  expect(ShardSchema.safeParse({ index: 0, count: 2 }).success).toBe(false)
})
